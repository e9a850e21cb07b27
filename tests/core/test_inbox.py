"""Inbox: pending → resolved exactly once, idempotent per call, first answer wins."""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from pathlib import Path

import pytest

from openworker_qt.core.inbox import Inbox, InboxError, args_preview
from openworker_qt.storage.db import Database


@pytest.fixture
def inbox(tmp_path: Path) -> Inbox:
    return Inbox(Database(tmp_path / "inbox.sqlite3"))


def test_kinds_filter_and_persistence(tmp_path: Path) -> None:
    path = tmp_path / "inbox.sqlite3"
    box = Inbox(Database(path))
    box.add("approval", "s1", tool_call_id="c1", tool="write_file", arguments={"path": "g.txt"})
    box.add("question", "s1", tool_call_id="c2", tool="ask_user", title="Which file?")
    box.add("notice", "s2", title="Run finished")
    again = Inbox(Database(path))  # another process would see the same
    assert [i.kind for i in again.pending()] == ["approval", "question", "notice"]
    assert [i.kind for i in again.pending("s1")] == ["approval", "question"]
    assert [i.session_id for i in again.pending(kind="notice")] == ["s2"]
    with pytest.raises(ValueError, match="unknown inbox kind"):
        again.add("bogus", "s1")


def test_resolve_keeps_the_first_answer(inbox: Inbox) -> None:
    item = inbox.add("approval", "s1", tool_call_id="c1", tool="write_file")
    assert inbox.resolve(item.id, "once", by="window") is True
    assert inbox.resolve(item.id, "deny", by="cli") is False
    final = inbox.get(item.id)
    assert final is not None
    assert (final.status, final.resolution, final.resolved_by) == ("resolved", "once", "window")
    assert final.resolved_at is not None
    assert inbox.resolve(99999, "once") is False  # unknown id


def test_add_is_idempotent_per_call(inbox: Inbox) -> None:
    first = inbox.add("approval", "s1", tool_call_id="c1", tool="write_file", reason="write")
    again = inbox.add("approval", "s1", tool_call_id="c1", tool="write_file", reason="write")
    assert again.id == first.id
    inbox.resolve(first.id, "deny")
    after = inbox.add("approval", "s1", tool_call_id="c1", tool="write_file")
    assert after.id == first.id and after.resolution == "deny"
    other_session = inbox.add("approval", "s2", tool_call_id="c1", tool="write_file")
    assert other_session.id != first.id
    assert len(inbox.items()) == 2


def test_args_preview_format() -> None:
    assert args_preview({"path": "g.txt", "content": "buy milk"}) == "path: g.txt · content: buy milk"
    assert args_preview(None) == "" and args_preview({}) == ""
    assert args_preview({"content": "line one\nline two"}) == "content: line one line two"
    long = args_preview({"content": "x" * 500})
    assert long.endswith("…") and len(long) < 100


def test_card_body_puts_reason_first(inbox: Inbox) -> None:
    item = inbox.add("approval", "s1", tool_call_id="c", tool="write_file",
                     arguments={"path": "a.md"}, reason="writes a file")
    assert item.body() == "writes a file\npath: a.md"


def test_threads_race_exactly_one_wins(inbox: Inbox) -> None:
    item = inbox.add("approval", "s1", tool_call_id="c1", tool="send_message")
    start = threading.Barrier(8)
    wins: list[str] = []

    def resolver(n: int) -> None:
        start.wait()
        if inbox.resolve(item.id, "once" if n % 2 else "deny", by=f"t{n}"):
            wins.append(f"t{n}")

    threads = [threading.Thread(target=resolver, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1
    final = inbox.get(item.id)
    assert final is not None and final.resolved_by == wins[0]


def _race(path: str, item_id: int, n: int, start: multiprocessing.synchronize.Event, out: multiprocessing.Queue) -> None:
    box = Inbox(Database(path))
    start.wait()
    out.put((n, box.resolve(item_id, "once" if n % 2 else "deny", by=f"proc{n}")))


def test_processes_race_exactly_one_wins(tmp_path: Path) -> None:
    path = str(tmp_path / "race.sqlite3")
    box = Inbox(Database(path))
    item = box.add("approval", "s1", tool_call_id="c1", tool="send_message")
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    out = ctx.Queue()
    procs = [ctx.Process(target=_race, args=(path, item.id, n, start, out)) for n in range(4)]
    for p in procs:
        p.start()
    start.set()
    results = [out.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    winners = [n for n, won in results if won]
    assert len(winners) == 1
    final = box.get(item.id)
    assert final is not None and final.resolved_by == f"proc{winners[0]}"


async def test_wait_wakes_on_local_resolution(inbox: Inbox) -> None:
    item = inbox.add("approval", "s1", tool_call_id="c1", tool="write_file")
    asyncio.get_running_loop().call_later(0.02, inbox.resolve, item.id, "once")
    done = await asyncio.wait_for(inbox.wait(item.id, poll=10), timeout=5)
    assert done.resolution == "once"


async def test_wait_notices_another_connection(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    mine = Inbox(Database(path))
    theirs = Inbox(Database(path))  # stands for another process
    item = mine.add("question", "s1", tool_call_id="q1", title="Which?")
    asyncio.get_running_loop().call_later(0.05, theirs.resolve, item.id, "the blue one")
    done = await asyncio.wait_for(mine.wait(item.id, poll=0.02), timeout=5)
    assert done.resolution == "the blue one" and done.resolved_by == "app"


def test_listeners_hear_adds_and_resolutions(inbox: Inbox) -> None:
    heard: list[tuple[int, str]] = []
    inbox.listeners.append(lambda item: heard.append((item.id, item.status)))
    inbox.listeners.append(lambda item: 1 / 0)  # a broken surface does not break the inbox
    item = inbox.add("notice", "s1", title="hello")
    inbox.resolve(item.id, "dismissed")
    assert heard == [(item.id, "pending"), (item.id, "resolved")]


# ------------------------------------------------------- answers fit the item


def test_a_question_is_answered_not_approved(inbox: Inbox) -> None:
    q = inbox.add("question", "s1", tool_call_id="q1", tool="ask_user", title="Which file?")
    for action in ("approve", "always", "deny"):
        with pytest.raises(InboxError, match=r"#\d+ is a question, not an approval: reply with `answer"):
            inbox.respond(q.id, action)
    with pytest.raises(InboxError, match="needs some text"):
        inbox.respond(q.id, "answer", "  ")
    assert inbox.get(q.id).pending  # nothing was recorded
    assert inbox.respond(q.id, "answer", "approve", by="cli") is True  # a text answer may say anything
    assert inbox.get(q.id).resolution == "approve"


def test_an_approval_takes_no_text_answer_anywhere(inbox: Inbox) -> None:
    a = inbox.add("approval", "s1", tool_call_id="c1", tool="write_file")
    with pytest.raises(InboxError, match="is an approval: approve or deny it"):
        inbox.respond(a.id, "answer", "sure")
    with pytest.raises(InboxError, match="is an approval"):
        inbox.resolve(a.id, "sure, go ahead")  # the raw path every surface uses
    with pytest.raises(InboxError, match="cannot be allowed always"):
        inbox.respond(a.id, "always")
    assert inbox.get(a.id).pending
    assert inbox.respond(a.id, "approve") is True
    assert inbox.get(a.id).resolution == "once"
    ext = inbox.add("approval", "s1", tool_call_id="c2", tool="send", can_always=True)
    assert inbox.respond(ext.id, "always") and inbox.get(ext.id).resolution == "always"
    d = inbox.add("approval", "s1", tool_call_id="c3", tool="send")
    assert inbox.respond(d.id, "deny") and inbox.get(d.id).resolution == "deny"
    stopped = inbox.add("approval", "s1", tool_call_id="c4", tool="send")
    assert inbox.resolve(stopped.id, "cancelled", by="stop")  # a stopped turn withdraws it


def test_plans_folders_and_notices(inbox: Inbox) -> None:
    plan = inbox.add("plan", "s1", tool_call_id="p1", tool="propose_plan")
    assert inbox.respond(plan.id, "answer", "yes but skip step 3")
    assert inbox.get(plan.id).resolution == "deny: yes but skip step 3"  # feedback
    plan2 = inbox.add("plan", "s1", tool_call_id="p2", tool="propose_plan")
    assert inbox.respond(plan2.id, "approve") and inbox.get(plan2.id).resolution == "approve"
    folder = inbox.add("directory", "s1", tool_call_id="d1", tool="request_directory")
    with pytest.raises(InboxError, match="is a folder request: approve or deny it"):
        inbox.respond(folder.id, "answer", "ok")
    assert inbox.respond(folder.id, "deny") and inbox.get(folder.id).resolution == "deny"
    note = inbox.add("notice", "s1", title="Run finished")
    with pytest.raises(InboxError, match="is a notice"):
        inbox.respond(note.id, "approve")
    with pytest.raises(KeyError):
        inbox.respond(99999, "approve")


# ------------------------------------------------------------ call instances


def test_items_are_keyed_per_call_instance(inbox: Inbox) -> None:
    first = inbox.add("approval", "s1", tool_call_id="call_0", call_key="step1/call_0")
    inbox.resolve(first.id, "once")
    second = inbox.add("approval", "s1", tool_call_id="call_0", call_key="step2/call_0")
    assert second.id != first.id and second.pending  # not the first turn's answer
    assert inbox.add("approval", "s1", tool_call_id="call_0", call_key="step2/call_0").id == second.id
    assert inbox.find("s1", "call_0") == second  # by vendor id: the pending one
    assert inbox.find_key("s1", "step1/call_0") == inbox.get(first.id)


def test_the_v1_inbox_table_is_migrated_in_place(tmp_path: Path) -> None:
    from openworker_qt.core.inbox import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    old = Database(path)
    old.ensure("inbox", MIGRATIONS[:1])
    old.execute(
        "INSERT INTO inbox(kind, session_id, tool_call_id, tool, status, resolution, created_at)"
        " VALUES ('approval', 's1', 'w1', 'write_file', 'resolved', 'once', 1.0)"
    )
    old.execute(
        "INSERT INTO inbox(kind, session_id, tool, created_at) VALUES ('notice', 's1', '', 2.0)"
    )
    old.close()
    box = Inbox(Database(path))
    kept, note = box.items()
    assert (kept.tool_call_id, kept.call_key, kept.resolution) == ("w1", "w1", "once")
    assert note.call_key is None
    # A call parked before the upgrade (key = vendor id) finds its item again …
    assert box.add("approval", "s1", tool_call_id="w1").id == kept.id
    # … and a new instance of the same vendor id gets its own.
    assert box.add("approval", "s1", tool_call_id="w1", call_key="s9/w1").id != kept.id


def test_items_are_stored_redacted_and_found_by_either_key(tmp_path: Path) -> None:
    """Every text of an item goes through ``redact`` before it is stored; lookups
    redact their ids the same way, so the turn that made the call (raw ids) and a
    resumed one (ids from the redacted history) find the same item."""
    def redact(text: str) -> str:
        return text.replace("SECRET-123456", "[x]")

    db = Database(tmp_path / "inbox.sqlite3")
    box = Inbox(db, redact=redact)
    item = box.add(
        "approval", "s1", tool_call_id="c-SECRET-123456", call_key="k/c-SECRET-123456",
        tool="tool-SECRET-123456", arguments={"path": "SECRET-123456.txt", "n": [1, "SECRET-123456"]},
        title="SECRET-123456", reason="writes SECRET-123456", target="SECRET-123456",
        standing_target="SECRET-123456", options=["SECRET-123456"],
    )
    assert item.arguments == {"path": "[x].txt", "n": [1, "[x]"]}
    assert (item.tool_call_id, item.call_key, item.tool, item.title, item.reason) == (
        "c-[x]", "k/c-[x]", "tool-[x]", "[x]", "writes [x]")
    assert (item.target, item.standing_target, item.options) == ("[x]", "[x]", ("[x]",))
    assert "[x]" in item.args_preview
    for key in ("k/c-SECRET-123456", "k/c-[x]"):
        assert box.find_key("s1", key) == item
        assert box.add("approval", "s1", call_key=key, tool_call_id="c").id == item.id
    assert box.find("s1", "c-SECRET-123456") == item
    question = box.add("question", "s1", tool_call_id="q", title="Which key?")
    assert box.respond(question.id, "answer", "this one: SECRET-123456")
    assert box.get(question.id).resolution == "this one: [x]"
    dump = "\n".join(str(tuple(r)) for r in db.query("SELECT * FROM inbox"))
    assert "SECRET-123456" not in dump
