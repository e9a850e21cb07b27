"""The Slack Socket Mode listener: a thread becomes a session, approvals come back.

A :class:`SlackListener` is a Runtime ``LifecycleService``. Started, it opens a
Socket Mode connection (slack-sdk's aiohttp client, which reconnects by itself
when the socket drops or Slack asks it to with a ``disconnect`` message) and:

* an ``app_mention`` by an allowed member in a thread that has no session yet
  spawns a session that owns that thread; its target ``slack:<channel>:<thread_ts>``
  is kept in the ``slack_threads`` table (and the session's meta): after a restart
  the next mention finds the same session, and the target is where the session
  replies and the exact target a standing rule binds to;
* an approval a Slack-owned session waits for is posted in its thread with Approve
  and Deny buttons; a click by an allowed member resolves the *same* inbox item the
  window and the CLI show (the first answer wins; the message then says who
  answered). Only calls that reach other services get buttons: a shell command or
  a change to local files is answered at the computer (a forged click is ignored);
  a question (``ask_user``) is posted too, answered by the next mention or buttons;
* every envelope is acknowledged; events are de-duplicated by Slack's ``event_id``
  (a retry carries a new envelope id, the same event id) or the envelope id, kept
  in the database: a redelivery after a reconnect or restart spawns nothing.

Who may talk to it: only the members listed in the connector's "Allowed
members"; a mention by anybody else gets a short ephemeral refusal, a click
by anybody else changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import re
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from openworker_qt.connectors import slack_questions as groups
from openworker_qt.connectors.base import ConnectorError, Credentials, RetryPolicy
from openworker_qt.connectors.slack import SlackApi, thread_target
from openworker_qt.core import events as ev
from openworker_qt.core.inbox import Action, Inbox, InboxError, InboxItem
from openworker_qt.core.repeats import repeated_call
from openworker_qt.core.sessions import SessionManager
from openworker_qt.domain import choices
from openworker_qt.domain.slack_header import message_header
from openworker_qt.storage.db import Database

log = logging.getLogger(__name__)

MIGRATIONS = [
    """
    CREATE TABLE slack_threads (
        target TEXT PRIMARY KEY,
        session_id TEXT NOT NULL,
        user TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL
    );
    CREATE INDEX slack_threads_by_session ON slack_threads(session_id);
    CREATE TABLE slack_seen (
        key TEXT PRIMARY KEY,
        seen_at REAL NOT NULL
    );
    CREATE TABLE slack_cards (
        item_id INTEGER PRIMARY KEY,
        channel TEXT NOT NULL,
        ts TEXT NOT NULL
    )
    """,
]

#: The risks an approval may have to be answered from Slack: what reaches other
#: services. A shell command or a change to files on this computer is answered
#: at the computer (the thread is told so).
SLACK_ANSWERABLE = frozenset({"external", "read"})
#: The inbox items a Slack-owned session shows in its thread (plans and folder
#: grants are answered in the app).
ASKED_IN_SLACK = frozenset({"approval", "question"})
#: Envelope keys are kept this long (Slack redelivers within minutes).
SEEN_FOR = 7 * 24 * 3600.0
APPROVE = "openworker_approve"
DENY = "openworker_deny"
CHOOSE = "openworker_choose"
#: A single-choice question with at most this many options gets a button each.
CHOICE_BUTTONS = 5
MENTION = re.compile(r"<@[A-Z0-9]+>\s*")


#: Slack's limit on a message's text (the rest is cut).
SLACK_TEXT_LIMIT = 39_000
#: Seconds :meth:`SlackListener.stop` waits for a turn's end to be told in its thread.
POST_ON_STOP = 3.0
#: The tools whose success in a thread counts as the model having replied there.
REPLY_TOOLS = frozenset({"slack_send_message", "slack_send_file"})


def _slack_turn(history: list[Any]) -> tuple[int, list[Any]] | None:
    """The last turn, if a Slack message started it (its header): ``(index of its
    opening message, the messages after it)``."""
    start = None
    for index in range(len(history) - 1, -1, -1):
        msg = history[index]
        if msg.get("role") == "user" and msg.get("source") != "steering":
            start = index
            break
    if start is None:
        return None
    opening = history[start].get("content")
    if not (isinstance(opening, str) and opening.startswith("[Slack message from ")):
        return None  # typed in the app: answered in the app
    return start, history[start + 1:]


def _reply_calls(turn: list[Any], target: str) -> list[tuple[str, str]]:
    """The reply tools' calls to ``target`` in ``turn``: (call id, tool name)."""
    out = []
    calls = [c for m in turn if m.get("role") == "assistant" for c in m.get("tool_calls") or []]
    for call in calls:
        function = call.get("function") or {}
        if function.get("name") not in REPLY_TOOLS:
            continue
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except ValueError:
            continue
        if isinstance(arguments, dict) and arguments.get("target") == target:
            out.append((str(call.get("id")), str(function.get("name"))))
    return out


def unsent_answer(history: list[Any], target: str) -> tuple[str, str] | None:
    """The last turn's final answer as ``(key, text)`` when it should be posted in
    the thread ``target``: the turn was started by a Slack message (its header),
    ended with text, and no reply tool posted to ``target`` during it. ``key``
    names that answer (for posting it once). A reply the model tried to post there
    that failed is said under the answer (the answer may claim it was posted)."""
    found = _slack_turn(history)
    if found is None:
        return None
    start, turn = found
    final = next((m for m in reversed(turn) if m.get("role") == "assistant"), None)
    if final is None or final.get("tool_calls"):
        return None
    text = final.get("content")
    if not isinstance(text, str) or not text.strip():
        return None
    posting = dict(_reply_calls(turn, target))
    results = {m.get("tool_call_id"): m for m in turn if m.get("role") == "tool"}
    done = {cid: results[cid].get("status", "ok") == "ok" for cid in posting if cid in results}
    if any(done.values()):
        return None
    text = text.strip()
    failed = [posting[cid] for cid in done]
    if failed:
        text += (f"\n\n_(OpenWorker: my attempt to post here with {failed[-1]} failed, so "
                 "this is my answer as I wrote it.)_")
    key = f"answer:{final.get('step_id') or ''}:{final.get('ts') or start}"
    return key, text


#: What the thread is told when a turn a Slack message started did not finish.
OUTCOME_WORDS = {
    "error": "I could not finish this: the work stopped with an error{detail}. Nothing more "
             "will be done unless you ask again; the session in OpenWorker tells what happened.",
    "interrupted": "I was stopped before I finished (from OpenWorker). Nothing more will be "
                   "done unless you ask again.",
    "shutdown": "OpenWorker was shut down before I finished. Nothing more will be done "
                "unless you ask again once it is running.",
    "max_iterations": "I stopped before finishing: I reached the limit of steps for one "
                      "request{detail}. Mention me again to let me continue.",
    "repeated": "I stopped before finishing: the model behind me kept asking for the same "
                "thing ({tool}) right after getting it; it may not be able to read tool "
                "results. A different model may do better; mention me again once it is changed.",
}


def unfinished_turn(
    history: list[Any], target: str, status: str, detail: str = ""
) -> tuple[str, str] | None:
    """What to post in ``target`` when the turn a Slack message started ended
    ``status`` without finishing (failed, stopped, at its step limit): ``(key,
    text)``, never the model's partial text as if it were the answer. ``None``
    when the turn was not started from Slack or the status needs no word."""
    words = OUTCOME_WORDS.get(status)
    found = _slack_turn(history)
    if words is None or found is None:
        return None
    start, turn = found
    detail = " ".join(detail.split())[:300]
    if status == "max_iterations":
        detail = ""  # (its notice speaks of the app's "Send a message")
    tool = repeated_call(turn) if status == "max_iterations" else None
    if tool is not None:  # (a server that drops tool results from the prompt)
        words = OUTCOME_WORDS["repeated"]
    text = words.format(detail=f" ({detail.rstrip('.')})" if detail else "", tool=tool)
    key = f"outcome:{status}:{history[start].get('ts') or start}:{len(turn)}"
    return key, text


class SlackThreads:
    """Which session owns which thread (and what was already seen and posted)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        db.ensure("slack", MIGRATIONS)

    def session_for(self, target: str) -> str | None:
        rows = self.db.query("SELECT session_id FROM slack_threads WHERE target = ?", (target,))
        return str(rows[0][0]) if rows else None

    def target_of(self, session_id: str) -> str | None:
        rows = self.db.query("SELECT target FROM slack_threads WHERE session_id = ?", (session_id,))
        return str(rows[0][0]) if rows else None

    def own(self, target: str, session_id: str, user: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO slack_threads(target, session_id, user, created_at)"
                        " VALUES (?, ?, ?, ?)", (target, session_id, user, time.time()))

    def seen(self, key: str) -> bool:
        return bool(self.db.query("SELECT 1 FROM slack_seen WHERE key = ?", (key,)))

    def forget_seen(self, before: float) -> None:
        self.db.execute("DELETE FROM slack_seen WHERE seen_at < ?", (before,))

    def mark_seen(self, key: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO slack_seen(key, seen_at) VALUES (?, ?)",
                        (key, time.time()))

    def card(self, item_id: int) -> tuple[str, str] | None:
        rows = self.db.query("SELECT channel, ts FROM slack_cards WHERE item_id = ?", (item_id,))
        return (str(rows[0][0]), str(rows[0][1])) if rows else None

    def add_card(self, item_id: int, channel: str, ts: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO slack_cards(item_id, channel, ts) VALUES (?, ?, ?)",
                        (item_id, channel, ts))


def allowed_members(values: Credentials) -> frozenset[str]:
    return frozenset(u.strip() for u in re.split(r"[,\s]+", values.get("allowed_users", ""))
                     if u.strip())


def card_blocks(item: InboxItem) -> list[dict[str, Any]]:
    """The Block Kit message asking for an approval in the thread (buttons only for
    what may be answered from Slack)."""
    text = f"*{item.tool}* wants to run"
    if item.target:
        text += f" on `{item.target}`"
    body = item.args_preview or ""
    section = {"type": "section", "text": {"type": "mrkdwn", "text": f"{text}\n{body}"[:2900]}}
    if item.risk not in SLACK_ANSWERABLE:
        note = ("It would run a command or change files on the computer, so it is answered "
                "there, in OpenWorker.")
        return [section, {"type": "context", "elements": [{"type": "mrkdwn", "text": note}]}]
    return [
        section,
        {"type": "actions", "block_id": f"openworker_item_{item.id}", "elements": [
            {"type": "button", "action_id": APPROVE, "style": "primary", "value": str(item.id),
             "text": {"type": "plain_text", "text": "Approve"}},
            {"type": "button", "action_id": DENY, "style": "danger", "value": str(item.id),
             "text": {"type": "plain_text", "text": "Deny"}},
        ]},
    ]


def question_blocks(item: InboxItem, kept: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """A question the session asks in its thread; the next mention answers it (a
    number picks an option), and a single choice among a few also gets buttons."""
    group = choices.group_from(item.arguments)
    if group is not None:  # several questions: a block each (slack_questions.py)
        return groups.group_blocks(item, group, kept or {})
    text = f"*Question:* {item.title}"
    spec = choices.spec_from(item.arguments)
    note = "Answer by mentioning me in this thread (or in OpenWorker)."
    if spec is not None:
        text += "\n" + "\n".join(choices.numbered(spec))
        note = f"{choices.how_to_answer(spec)} Mention me in this thread (or answer in OpenWorker)."
    blocks: list[dict[str, Any]] = [
        {"type": "section", "text": {"type": "mrkdwn", "text": text[:2900]}}]
    if spec is not None and not spec.multiple and len(spec.choices) <= CHOICE_BUTTONS:
        blocks.append({"type": "actions", "block_id": f"openworker_item_{item.id}", "elements": [
            {"type": "button", "action_id": f"{CHOOSE}_{n}", "value": f"{item.id}:{n}",
             "text": {"type": "plain_text", "text": c.label[:75]}}
            for n, c in enumerate(spec.choices, 1)]})
    blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": note}]})
    return blocks


def answered_blocks(item: InboxItem, verdict: str) -> list[dict[str, Any]]:
    return [{"type": "section", "text": {"type": "mrkdwn",
                                         "text": f"*{item.tool}* — {verdict}"[:2900]}}]


class SlackListener:
    """See module docstring. ``values`` default to the stored Slack connector's."""

    name = "slack"

    def __init__(
        self,
        manager: SessionManager,
        inbox: Inbox,
        db: Database,
        *,
        values: Callable[[], Credentials],
        workspace: str | Path = "",
        policy: RetryPolicy | None = None,
        ping_interval: float = 10.0,
    ) -> None:
        self.manager = manager
        self.inbox = inbox
        self.threads = SlackThreads(db)
        self.partial = groups.PartialAnswers(db)
        self.db = db
        self._values_of = values
        self.workspace = str(workspace)
        self.policy = policy or RetryPolicy()
        self.ping_interval = ping_interval
        self.values: Credentials = {}
        self.api: SlackApi | None = None
        self.socket: Any = None
        self.bot_user = ""
        self._claimed: set[str] = set()
        self._user_names: dict[str, str] = {}
        self._channel_names: dict[str, str] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._posting: set[asyncio.Future[Any]] = set()  # the turns' ends being told

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.values = await asyncio.to_thread(self._values_of)
        if not self.values.get("app_token"):  # posting only: nothing to listen to
            log.info("Slack has no app-level token: mentions are not listened to")
            return
        # The SDK's modules are imported in a worker (the clients are built here).
        self.api = await asyncio.to_thread(SlackApi, self.values, self.policy)
        await asyncio.to_thread(importlib.import_module, "slack_sdk.socket_mode.aiohttp")
        from slack_sdk.socket_mode.aiohttp import SocketModeClient
        from slack_sdk.web.async_client import AsyncWebClient

        me = await self.api.call("auth.test")
        self.bot_user = str(me.get("user_id", ""))
        self.socket = SocketModeClient(
            app_token=self.values["app_token"], ping_interval=self.ping_interval,
            web_client=AsyncWebClient(base_url=self.api.base_url, retry_handlers=[]),
        )
        self.socket.socket_mode_request_listeners.append(self._on_request)
        self.inbox.listeners.append(self._on_item)
        self.manager.listeners.append(self._on_session_event)
        async with self.db.writing():
            self.threads.forget_seen(time.time() - SEEN_FOR)
        await self.socket.connect()
        self._spawn(self._post_missing_cards())

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            self.inbox.listeners.remove(self._on_item)
        with contextlib.suppress(ValueError):
            self.manager.listeners.remove(self._on_session_event)
        # What a turn's end tells its thread (the app may be quitting: say so) is
        # given a moment to be posted; the rest is cancelled.
        posting = [t for t in self._posting if not t.done()]
        if posting:
            await asyncio.wait(posting, timeout=POST_ON_STOP)
        for task in list(self._tasks):
            task.cancel()
        if self.socket is not None:
            await self.socket.close()
            self.socket = None

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Future[Any]:
        task: asyncio.Future[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ------------------------------------------------------------- envelopes

    async def _on_request(self, client: Any, request: Any) -> None:
        from slack_sdk.socket_mode.response import SocketModeResponse

        payload = request.payload or {}
        key = str(payload.get("event_id") or request.envelope_id)
        # Claimed synchronously (the SDK runs envelopes concurrently) and kept in
        # the database, so a redelivery — now, after a reconnect, after a restart —
        # is acknowledged and dropped.
        if key in self._claimed or self.threads.seen(key):
            await client.send_socket_mode_response(SocketModeResponse(request.envelope_id))
            return
        self._claimed.add(key)
        try:
            if request.type == "events_api":
                await self._on_event(payload.get("event") or {})
            elif request.type == "interactive":
                await self._on_interactive(payload)
        except Exception:
            # Not acknowledged: Slack delivers it again, and it is handled then.
            log.exception("handling a Slack %s envelope failed", request.type)
            self._claimed.discard(key)
            return
        async with self.db.writing():
            self.threads.mark_seen(key)
        await client.send_socket_mode_response(SocketModeResponse(request.envelope_id))

    async def _on_event(self, event: dict[str, Any]) -> None:
        if event.get("type") != "app_mention" or event.get("bot_id"):
            return
        channel, user = str(event.get("channel", "")), str(event.get("user", ""))
        root = str(event.get("thread_ts") or event.get("ts") or "")
        if not channel or not root:
            return
        if user not in allowed_members(self.values):
            await self._ephemeral(channel, user, root, "Sorry, only the members this app's owner "
                                  "allowed can ask it for work.")
            return
        target = thread_target(channel, root)
        text = MENTION.sub("", str(event.get("text", ""))).strip()
        session_id = self.threads.session_for(target)
        if session_id is None or self.manager.store.get_session(session_id) is None:
            async with self.db.writing():
                info = self.manager.create_session(
                    title=f"Slack: {text[:50]}" if text else "Slack thread",
                    workspace=self.workspace, mode="interactive",
                    meta={"slack": {"target": target, "user": user}},
                )
                self.threads.own(target, info.id, user)
                if self.threads.session_for(target) != info.id:  # owned meanwhile (a peer)
                    self.manager.store.delete_session(info.id)
            session_id = self.threads.session_for(target)
            assert session_id is not None
        question = next(iter(self.inbox.pending(session_id, "question")), None)
        if question is not None:  # the session asked in the thread: this is the answer
            await self._answer(question, text, user, channel, root)
            return
        user_name, channel_name = await self._names(user, channel)
        header = message_header(user, target, user_name=user_name, channel_name=channel_name)
        self.manager.send(session_id, header + text)

    async def _names(self, user: str, channel: str) -> tuple[str, str]:
        """The member's and the channel's names (best effort: without the scopes to
        read them, the header names the ids)."""
        if user not in self._user_names:
            self._user_names[user] = await self._lookup("users.info", "user", user=user)
        if channel not in self._channel_names:
            self._channel_names[channel] = await self._lookup("conversations.info", "channel",
                                                              channel=channel)
        return self._user_names[user], self._channel_names[channel]

    async def _lookup(self, method: str, key: str, **params: str) -> str:
        if self.api is None:
            return ""
        try:
            found = (await self.api.call(method, **params)).get(key) or {}
        except ConnectorError as exc:
            log.info("Slack: %s failed: %s", method, exc.message)
            return ""
        if key == "user":
            profile = found.get("profile") or {}
            return str(profile.get("display_name") or found.get("real_name")
                       or found.get("name") or "")
        return "" if found.get("is_im") else str(found.get("name") or "")

    async def _answer(self, question: InboxItem, text: str, user: str, channel: str,
                      thread: str) -> None:
        """Answer ``question``; an answer that does not fit its choices is refused
        to the member who gave it, saying what would."""
        group = choices.group_from(question.arguments)
        if group is not None:  # lines for some of the questions, kept until all are answered
            try:
                parts = groups.parts_of_text(group, text)
            except ValueError as exc:
                await self._ephemeral(channel, user, thread, f"That answer was not taken: {exc}.")
                return
            await self._take_parts(question, group, parts, user, channel, thread)
            return
        try:
            async with self.db.writing():
                self.inbox.respond(question.id, "answer", text, by=f"slack:{user}")
        except InboxError as exc:
            await self._ephemeral(channel, user, thread, f"That answer was not taken: {exc}.")

    async def _take_parts(self, item: InboxItem, group: choices.QuestionGroup,
                          parts: dict[int, str], user: str, channel: str, thread: str,
                          send: bool = False) -> None:
        """Keep the answers to some of a group's questions; answer the item once all
        have one (when it waits for "Send answers", only with ``send``)."""
        try:
            async with self.db.writing():
                self.partial.record(item, group, parts)
        except ValueError as exc:
            await self._ephemeral(channel, user, thread, f"That answer was not taken: {exc}.")
            return
        try:
            stored = (self.partial.complete(item, group)
                      if send or not groups.needs_send(group) else None)
        except ValueError as exc:  # (a pick alone just waits for the rest)
            if send:
                await self._ephemeral(channel, user, thread, f"Not sent yet: {exc}.")
            stored = None
        if stored is None:
            await self._redraw(item)
            return
        try:
            async with self.db.writing():
                self.inbox.respond(item.id, "answer", stored, by=f"slack:{user}")
                self.partial.forget(item.id)
        except InboxError as exc:
            await self._ephemeral(channel, user, thread, f"That answer was not taken: {exc}.")

    async def _redraw(self, item: InboxItem) -> None:
        """A group's card again, with the answers kept so far."""
        card = self.threads.card(item.id)
        if card is None or self.api is None:
            return
        try:
            await self.api.call("chat.update", channel=card[0], ts=card[1], text=item.title,
                                blocks=question_blocks(item, self.partial.kept(item.id)))
        except ConnectorError as exc:
            log.warning("Slack: could not redraw the questions: %s", exc.message)

    async def _ephemeral(self, channel: str, user: str, thread: str, text: str) -> None:
        assert self.api is not None
        try:
            await self.api.call("chat.postEphemeral", channel=channel, user=user, text=text,
                                thread_ts=thread)
        except ConnectorError as exc:
            log.warning("Slack: could not tell %s: %s", user, exc.message)

    # ------------------------------------------------------------- approvals

    def _on_item(self, item: InboxItem) -> None:
        """Inbox listener (any thread): new approvals of Slack-owned sessions get a card;
        answered ones get their card updated."""
        loop = self._loop
        if loop is None or item.kind not in ASKED_IN_SLACK:
            return
        if item.pending:
            loop.call_soon_threadsafe(self._spawn, self._post_card(item.id))
        else:
            loop.call_soon_threadsafe(self._spawn, self._close_card(item.id))

    def _on_session_event(self, event: ev.Event) -> None:
        # An approval re-asked after a restart finds its old item (no new one is
        # added): make sure it has its card.
        if isinstance(event, ev.PermissionRequired) and self.threads.target_of(event.session_id):
            self._spawn(self._post_missing_cards(event.session_id))
        # A turn a Slack message started ends: its answer goes to the thread, unless
        # the model replied there itself; a turn that did not finish is told as such
        # (a parked one has its card or question posted instead).
        if (isinstance(event, ev.TurnEnded) and event.status != "suspended"
                and self.threads.target_of(event.session_id)):
            status = ("shutdown" if event.status == "interrupted" and self.manager.closing
                      else event.status)
            task = self._spawn(self._post_answer(event.session_id, status, event.detail))
            self._posting.add(task)
            task.add_done_callback(self._posting.discard)

    async def _post_answer(self, session_id: str, status: str = "completed",
                           detail: str = "") -> None:
        target = self.threads.target_of(session_id)
        if target is None or self.api is None:
            return
        history = await asyncio.to_thread(self.manager.store.load, session_id)
        if status == "completed":
            answer = unsent_answer(history, target)
        else:
            answer = unfinished_turn(history, target, status, detail)
        if answer is None:
            return
        key, text = answer
        key = f"{key}:{session_id}"
        # Once: the key (the answer's own message) is claimed before posting and kept.
        if key in self._claimed or self.threads.seen(key):
            return
        self._claimed.add(key)
        async with self.db.writing():
            self.threads.mark_seen(key)
        _, channel, thread = target.split(":", 2)
        try:
            await self.api.call("chat.postMessage", channel=channel, thread_ts=thread,
                                text=text[:SLACK_TEXT_LIMIT])
        except ConnectorError as exc:
            log.warning("Slack: could not post the answer in %s: %s", target, exc.message)

    async def _post_missing_cards(self, session_id: str | None = None) -> None:
        for item in self.inbox.pending(session_id):
            if item.kind in ASKED_IN_SLACK:
                await self._post_card(item.id)

    async def _post_card(self, item_id: int) -> None:
        item = self.inbox.get(item_id)
        if item is None or not item.pending or self.threads.card(item_id) or self.api is None:
            return
        target = self.threads.target_of(item.session_id)
        if target is None:
            return
        _, channel, thread = target.split(":", 2)
        if item.kind == "question":
            blocks, text = question_blocks(item), item.title
        else:
            blocks, text = card_blocks(item), f"{item.tool} wants to run: approve or deny"
        try:
            sent = await self.api.call("chat.postMessage", channel=channel, thread_ts=thread,
                                       blocks=blocks, text=text)
        except ConnectorError as exc:
            log.warning("Slack: could not post the approval of item %s: %s", item_id, exc.message)
            return
        async with self.db.writing():
            self.threads.add_card(item_id, channel, str(sent.get("ts", "")))

    async def _close_card(self, item_id: int) -> None:
        card = self.threads.card(item_id)
        item = self.inbox.get(item_id)
        if card is None or item is None or self.api is None:
            return
        async with self.db.writing():
            self.partial.forget(item_id)  # (a group's picks, answered or not)
        who = item.resolved_by or "the app"
        who = f"<@{who.removeprefix('slack:')}>" if who.startswith("slack:") else "in the app"
        verdict = {"deny": "denied"}.get(str(item.resolution), "approved")
        if item.kind == "question":
            verdict = "answered"
        if item.resolution in ("cancelled", "superseded"):
            verdict, who = "no longer needed", ""
        text = f"{verdict} {'by ' + who if who.startswith('<@') else who}".strip()
        try:
            await self.api.call("chat.update", channel=card[0], ts=card[1], text=text,
                                blocks=answered_blocks(item, text))
        except ConnectorError as exc:
            log.warning("Slack: could not update the approval card: %s", exc.message)

    async def _on_interactive(self, payload: dict[str, Any]) -> None:
        if payload.get("type") != "block_actions":
            return
        user = str((payload.get("user") or {}).get("id", ""))
        channel = str((payload.get("channel") or {}).get("id", ""))
        for action in payload.get("actions") or []:
            if (part := groups.parse_action(action)) is not None:
                await self._on_part(part, user, channel)
                continue
            if str(action.get("action_id", "")).startswith(CHOOSE):
                await self._on_choice(action, user, channel)
                continue
            if action.get("action_id") not in (APPROVE, DENY):
                continue
            try:
                item_id = int(action.get("value", ""))
            except ValueError:
                continue
            item = self.inbox.get(item_id)
            target = self.threads.target_of(item.session_id) if item else None
            # Only a card of a Slack-owned session, clicked in that session's channel.
            if item is None or target is None or target.split(":")[1] != channel:
                continue
            if item.risk not in SLACK_ANSWERABLE:  # answered at the computer only
                continue
            if user not in allowed_members(self.values):
                await self._ephemeral(channel, user, target.split(":")[2],
                                      "Only the members this app's owner allowed can answer.")
                continue
            verb: Action = "approve" if action["action_id"] == APPROVE else "deny"
            async with self.db.writing():
                won = self.inbox.respond(item_id, verb, by=f"slack:{user}")
            if not won:  # answered elsewhere first: the card says so
                await self._close_card(item_id)

    async def _on_part(self, part: tuple[int, int, str], user: str, channel: str) -> None:
        """A pick on a group's card (question 0: its "Send answers")."""
        item_id, question, numbers = part
        item = self.inbox.get(item_id)
        target = self.threads.target_of(item.session_id) if item else None
        group = choices.group_from(item.arguments) if item is not None else None
        if item is None or group is None or target is None or target.split(":")[1] != channel:
            return
        if user not in allowed_members(self.values):
            await self._ephemeral(channel, user, target.split(":")[2],
                                  "Only the members this app's owner allowed can answer.")
            return
        await self._take_parts(item, group, {question: numbers} if question else {}, user,
                               channel, target.split(":")[2], send=not question)

    async def _on_choice(self, action: dict[str, Any], user: str, channel: str) -> None:
        """A click on a question's option: its number answers the question, for an
        allowed member in the session's own channel."""
        item_id, _, number = str(action.get("value", "")).partition(":")
        item = self.inbox.get(int(item_id)) if item_id.isdigit() else None
        target = self.threads.target_of(item.session_id) if item else None
        if item is None or item.kind != "question" or target is None \
                or target.split(":")[1] != channel or not number.isdigit():
            return
        if user not in allowed_members(self.values):
            await self._ephemeral(channel, user, target.split(":")[2],
                                  "Only the members this app's owner allowed can answer.")
            return
        await self._answer(item, number, user, channel, target.split(":")[2])
