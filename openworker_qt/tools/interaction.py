"""Tools that ask the user: a question, a plan to approve, access to a folder.

The engine answers them through the session's questioner (a dialog, the inbox,
the terminal); the handler then turns the answer into the tool result and, for
plans and folders, acts on it through the session's :class:`SessionControl`
(found in ``ctx.state["session"]``): an approved plan leaves plan mode, a
granted folder becomes a root for this session.

Answers (as stored on the inbox item; which verb fits which item is checked by
the inbox, see ``core/inbox.py``):
  * question: free text (``answer``; approve/deny are refused); a question with
    choices stores the chosen labels one a line, then the user's own words (see
    ``domain/choices.py``, which also checks answers against the choices);
  * plan: ``approve`` (or ``approve:<mode>``), ``deny``, or ``deny: <feedback>``
    (what ``answer`` stores); text typed on the card approves when it is an approval
    word (approve, yes) and is feedback otherwise;
  * directory: ``approve``/``grant`` (as asked), ``grant_readonly``, ``deny``.

All three are READ and built-in: the call itself changes nothing; what the user
answers is what takes effect.
"""

from __future__ import annotations

from typing import Any, Protocol

from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.domain import choices

EXECUTE_MODES = ("interactive", "auto", "custom")


class SessionControl(Protocol):
    def set_mode(self, mode: str) -> None: ...

    def grant_directory(self, path: str, writable: bool) -> None: ...


def _control(ctx: ToolContext) -> SessionControl | None:
    control: SessionControl | None = ctx.state.get("session")
    return control


async def ask_user(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    answer = str(args.get("_answer", "")).strip()
    if not answer:
        return ToolResult("The user gave no answer.", display={"answer": ""})
    group = choices.group_from(args)
    if group is not None:
        return _group_answer(group, answer)
    spec = choices.spec_from(args)
    if spec is None:
        return ToolResult(f"The user answered: {answer}", display={"answer": answer})
    try:
        answer = choices.normalize(spec, answer)
    except ValueError:
        pass  # e.g. a surface that let more through: the words are still the user's
    picked, own = choices.interpret(spec, answer)
    parts = []
    if picked:
        parts.append("The user chose: " + "; ".join(picked) + ".")
    if own:
        parts.append(("They added in their own words: " if picked else
                      "The user chose none of the options and answered in their own words: ")
                     + own)
    return ToolResult(" ".join(parts),
                      display={"answer": answer, "chosen": picked, "other": own})


def _group_answer(group: choices.QuestionGroup, answer: str) -> ToolResult:
    try:
        answer = choices.normalize_group(group, answer)
    except ValueError:
        pass  # (as above: what was stored is the user's)
    parts = choices.interpret_group(group, answer)
    return ToolResult(choices.group_result(group, answer), display={
        "answer": answer,
        "answers": [{"question": q.text, "chosen": picked, "other": own}
                    for q, (picked, own) in zip(group.questions, parts, strict=True)]})


async def propose_plan(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    answer = str(args.get("_answer", "")).strip()
    verdict, _, rest = answer.partition(":")
    if verdict.lower() in ("approve", "approved", "yes", "once"):
        mode = rest.strip().lower() if rest.strip().lower() in EXECUTE_MODES else "interactive"
        control = _control(ctx)
        if control is not None:
            control.set_mode(mode)
        return ToolResult(
            f"The user approved the plan. You are now in {mode} mode: carry it out step by step.",
            display={"plan": "approved", "mode": mode},
        )
    feedback = answer if verdict.lower() not in ("deny", "reject", "no") else rest.strip()
    text = "The user did not approve the plan."
    if feedback:
        text += f" Their feedback: {feedback}"
    return ToolResult(text + " Revise the plan and propose it again.", display={"plan": "rejected"})


async def request_directory(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    path = str(args.get("path", "")).strip()
    answer = str(args.get("_answer", "")).strip().lower()
    wanted_writable = bool(args.get("writable"))
    if answer in ("approve", "grant", "once", "allow"):
        writable = wanted_writable
    elif answer in ("grant_readonly", "readonly", "read-only"):
        writable = False
    else:
        return ToolResult(f"The user did not grant access to {path}.", display={"granted": False})
    control = _control(ctx)
    if control is not None:
        control.grant_directory(path, writable)
    access = "read and write" if writable else "read"
    return ToolResult(f"The user granted {access} access to {path}.",
                      display={"granted": True, "writable": writable, "path": path})


def _options() -> dict[str, Any]:
    """The schema of a question's options (a fresh copy each use)."""
    return {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "label": {"type": "string", "description": "a few words"},
                "description": {"type": "string", "description": "one short line"},
                "preview": {"type": "string",
                            "description": "optional: a short snippet or diff of it"},
            },
            "required": ["label"],
        },
    }

ASK_USER = Tool(
    name="ask_user",
    description=(
        "Ask the user a question when you cannot proceed without their decision or a fact "
        "only they know. Offer options when the choice is among a few: each with a short "
        "label and a one-line description; set multiple for a pick-several question. The "
        "user may also answer in their own words unless other is false. To ask several "
        "things at once (they are answered together, in one card), give questions: a list "
        "of questions, each with its own options, multiple and other; question then says "
        "in a line what they are about."
    ),
    parameters={
        "type": "object",
        "properties": {
            "question": {"type": "string"},
            "options": _options(),
            "multiple": {"type": "boolean", "description": "true: the user may pick several"},
            "other": {"type": "boolean",
                      "description": "false: only the options (default: own words allowed)"},
            "questions": {
                "type": "array",
                "description": f"optional: up to {choices.MAX_QUESTIONS} questions answered "
                               "together; each like a single question",
                "items": {
                    "type": "object",
                    "properties": {
                        "question": {"type": "string"},
                        "options": _options(),
                        "multiple": {"type": "boolean"},
                        "other": {"type": "boolean"},
                    },
                    "required": ["question"],
                },
            },
        },
        "required": ["question"],
    },
    handler=ask_user,
    check=choices.check,
    risk=RiskClass.READ,
    interaction="question",
)

PROPOSE_PLAN = Tool(
    name="propose_plan",
    description=(
        "In plan mode: propose the step-by-step plan for the user's approval. Nothing that "
        "changes anything runs until the user approves."
    ),
    parameters={
        "type": "object",
        "properties": {"plan": {"type": "string", "description": "Markdown, numbered steps."}},
        "required": ["plan"],
    },
    handler=propose_plan,
    risk=RiskClass.READ,
    interaction="plan",
)

REQUEST_DIRECTORY = Tool(
    name="request_directory",
    description="Ask the user for access to a folder outside the workspace.",
    parameters={
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "writable": {"type": "boolean", "description": "true if you need to write there"},
            "reason": {"type": "string"},
        },
        "required": ["path", "reason"],
    },
    handler=request_directory,
    risk=RiskClass.READ,
    target_arg="path",
    interaction="directory",
)


def interaction_tools() -> list[Tool]:
    return [ASK_USER, PROPOSE_PLAN, REQUEST_DIRECTORY]
