"""Terminal rendering and prompting for the CLI: event cards, y/N approvals, questions."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import (
    ApprovalOutcome,
    ApprovalRequest,
    QuestionRequest,
    parse_tool_key,
)
from openworker_qt.core.inbox import args_preview
from openworker_qt.domain import choices

preview_args = args_preview


class TerminalRenderer:
    """Writes events to a terminal stream."""

    def __init__(self, out: TextIO, *, color: bool) -> None:
        self.out = out
        self.color = color
        self._in_text = False
        self._in_reasoning = False
        self._mid_line = False  # a running tool's output stopped mid-line

    def _c(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.color else text

    def _break(self) -> None:
        if self._in_text or self._in_reasoning:
            self.out.write("\n")
        self._in_text = self._in_reasoning = False

    def render(self, event: ev.Event) -> None:
        w = self.out.write
        if isinstance(event, ev.ReasoningDelta):
            if not self._in_reasoning:
                self._break()
                w(self._c("2", "thinking: "))
                self._in_reasoning = True
            w(self._c("2", event.text))
        elif isinstance(event, ev.AssistantDelta):
            if self._in_reasoning:
                self._break()
            self._in_text = True
            w(event.text)
        elif isinstance(event, ev.ToolProposed):
            self._break()
            w(self._c("36", f"⚙ {event.name}") + f"  {preview_args(event.arguments)}\n")
        elif isinstance(event, ev.ToolProgress):
            self._break()
            w(self._c("2", event.text))
            self._mid_line = not event.text.endswith("\n")
        elif isinstance(event, ev.ToolFinished):
            if self._mid_line:
                w("\n")
                self._mid_line = False
            mark = {"ok": "✓", "error": "✗", "denied": "⊘", "interrupted": "■"}[event.status]
            first = (event.result.strip().splitlines() or [""])[0][:120]
            rule = f" [{event.rule}]" if event.rule else ""
            w(self._c("2", f"  {mark} {event.name}: {event.status}{rule} — {first}") + "\n")
        elif isinstance(event, ev.ProviderRetrying):
            self._break()
            w(self._c("2", f"· {event.text()}") + "\n")
        elif isinstance(event, ev.NoticeAdded):
            self._break()
            w(self._c("33", f"· {event.text}") + "\n")
        elif isinstance(event, ev.ErrorOccurred):
            self._break()
            w(self._c("31", f"Error: {event.message}") + "\n")
        elif isinstance(event, ev.Interrupted):
            self._break()
            w(self._c("33", "Stopped.") + "\n")
        elif isinstance(event, ev.TurnEnded):
            self._break()
            if event.status == "max_iterations":
                w(self._c("33", event.detail) + "\n")
        self.out.flush()


class TerminalApprover:
    """Asks y/n/a on the terminal (in a worker thread: input() blocks)."""

    def __init__(self, *, assume_yes: bool, interactive: bool) -> None:
        self.assume_yes = assume_yes
        self.interactive = interactive

    async def __call__(self, request: ApprovalRequest) -> ApprovalOutcome:
        if self.assume_yes:
            return ApprovalOutcome.ONCE
        if not self.interactive:
            sys.stderr.write(
                f"{request.tool} needs approval and nobody is at the terminal; denied "
                "(use --yes to approve, or --unattended to park it in the inbox).\n"
            )
            return ApprovalOutcome.DENY
        always = "/a=always" if request.can_always else ""
        whole_tool = parse_tool_key(request.standing_target) if request.can_always else None
        if whole_tool is not None:  # an MCP tool: "always" covers the tool, not a target
            always = "/a"
        # What an MCP server says its tool does (what the model read): a poisoned
        # description ("ignore your instructions…") is seen before the call runs.
        about = server_words(request.about)
        prompt = (
            f"\n{request.tool} ({request.risk.value}) wants to run: "
            f"{preview_args(dict(request.arguments))}\n"
            f"  reason: {request.reason}\n"
            + (f"  {about}\n" if about else "")
            + (f"  a = always for this tool of this server: {whole_tool[1]} of the MCP server "
               f"{whole_tool[0]}, in this session\n" if whole_tool else "")
            + f"  Allow? [y/N{always}] "
        )
        answer = await asyncio.to_thread(read_line, prompt)
        answer = answer.strip().lower()
        if answer in ("y", "yes"):
            return ApprovalOutcome.ONCE
        if answer in ("a", "always") and request.can_always:
            return ApprovalOutcome.ALWAYS
        return ApprovalOutcome.DENY


#: How much of a server's description of its tool the prompt shows.
ABOUT_SHOWN = 600
_SERVER_TAG = re.compile(r"^\[MCP server ([^\]]+)\]\s*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def server_words(about: str, limit: int = ABOUT_SHOWN) -> str:
    """The line of the approval prompt quoting what the tool's MCP server says it does,
    labelled as the server's own words, on one line and cut at ``limit`` characters.
    Control characters (terminal escapes, bidi overrides) become spaces: the server's
    text cannot move the cursor, recolour or rewrite the prompt around it."""
    if not about:
        return ""
    tag = _SERVER_TAG.match(about)
    text = " ".join(_CONTROL.sub(" ", about[tag.end():] if tag else about).split())
    if not text:
        return ""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    server = " ".join(_CONTROL.sub(" ", tag.group(1)).split()) if tag else ""
    who = f"The MCP server {server}" if server else "Its MCP server"
    return f"{who} says this tool does (its own words, not checked): «{text}»"


async def terminal_questioner(request: QuestionRequest) -> str:
    group = choices.group_from(request.extra) if request.kind == "question" else None
    if group is not None:  # several questions: asked one after another
        if request.prompt:
            sys.stderr.write(f"\n? {request.prompt}\n")
        return await asyncio.to_thread(ask_group, group, read_line)
    opts = f" [{', '.join(request.options)}]" if request.options else ""
    return (await asyncio.to_thread(read_line, f"\n? {request.prompt}{opts}\n> ")).strip()


def read_line(prompt: str) -> str:
    """One line typed after ``prompt`` (on stderr): with its newline, or "" at the end
    of input."""
    sys.stderr.write(prompt)
    sys.stderr.flush()
    line = sys.stdin.readline()
    return line if line else ""


def ask_group(group: choices.QuestionGroup, read: Callable[[str], str]) -> str:
    """Grouped questions asked in turn (an answer that does not fit is asked again);
    their stored answer, or "" when the input ends first."""
    answers: list[str] = []
    total = len(group.questions)
    for n, question in enumerate(group.questions, 1):
        lines = [f"\n? {n}/{total} {question.text}"]
        if question.spec is not None:
            lines += [f"  {line}" for line in choices.numbered(question.spec)]
            lines.append(f"  {choices.how_to_answer(question.spec)}")
        prompt = "\n".join(lines) + "\n> "
        while True:
            raw = read(prompt)
            if not raw:
                return ""
            try:
                answer = raw.strip()
                if not answer:
                    raise ValueError("an answer is needed")
                answers.append(choices.normalize(question.spec, answer)
                               if question.spec is not None else answer)
                break
            except ValueError as exc:
                prompt = f"  {exc}; try again\n> "
    return choices.normalize_group(group, json.dumps(answers, ensure_ascii=False))


def render_message(msg: Mapping[str, Any]) -> str:
    role = msg.get("role")
    if role == "user":
        content = msg.get("content")
        text = content if isinstance(content, str) else "[attachments]"
        return f"\nYou: {text}"
    if role == "assistant":
        lines = []
        if msg.get("reasoning"):
            lines.append(f"  (thinking) {msg['reasoning']}")
        if msg.get("content"):
            lines.append(f"Assistant: {msg['content']}")
        for call in msg.get("tool_calls") or []:
            fn = call.get("function", {})
            lines.append(f"  ⚙ {fn.get('name')} {fn.get('arguments')}")
        return "\n".join(lines)
    if role == "tool":
        first = (str(msg.get("content", "")).splitlines() or [""])[0][:120]
        return f"  → {msg.get('name')} [{msg.get('status', 'ok')}]: {first}"
    if role == "notice":
        return f"  · {msg.get('text')}"
    return f"  {role}: {msg.get('content')}"
