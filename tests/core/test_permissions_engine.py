"""The PermissionEngine as the TurnEngine's decider, end to end with a scripted model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.standing_rules import StandingRuleStore
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.tools.files import file_tools
from tests.core.helpers import answering, call, collect, make_engine


def messaging_tools(sent: list[dict[str, Any]]) -> list[Tool]:
    async def send(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        sent.append(args)
        return ToolResult(f"sent to {args['channel']}")

    async def run(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        sent.append(args)
        return ToolResult("ran")

    params = {"type": "object", "properties": {}}
    return [
        Tool("send_message", "send", params, send, risk=RiskClass.EXTERNAL,
             needs_approval=True, target_arg="channel"),
        Tool("run_shell", "shell", params, run, risk=RiskClass.EXEC, needs_approval=True,
             target_arg="command"),
    ]


def setup(tmp_path: Path, turns: list[dict[str, Any]], mode: str, **kw: Any) -> Any:
    ws = tmp_path / "ws"
    ws.mkdir(exist_ok=True)
    rules = kw.pop("rules", None) or StandingRuleStore.in_memory()
    sent: list[dict[str, Any]] = []
    decider = PermissionEngine(workspace=ws, mode=mode, rules=rules,
                               shell_allowlist=["git status"])
    approver = kw.pop("approver", None)
    engine, _ = make_engine(
        turns, ws, tools=[*file_tools(), *messaging_tools(sent)], decider=decider,
        approver=approver, **kw,
    )
    return engine, decider, sent, ws


def finished(events: list[ev.Event]) -> list[ev.ToolFinished]:
    return [e for e in events if isinstance(e, ev.ToolFinished)]


def asked(events: list[ev.Event]) -> list[ev.PermissionRequired]:
    return [e for e in events if isinstance(e, ev.PermissionRequired)]


async def test_interactive_asks_for_a_write_outside_the_roots(tmp_path: Path) -> None:
    approver = answering(ApprovalOutcome.DENY)
    engine, _, _, ws = setup(
        tmp_path,
        [{"tool_calls": [call("write_file", {"path": "../escape.txt", "content": "x"}, "c1")]},
         {"text": "ok"}],
        "interactive",
        approver=approver,
    )
    events = await collect(engine.run("write it"))
    [req] = asked(events)
    assert "outside the writable roots" in req.reason
    [seen] = approver.seen
    assert seen.can_always is False and seen.standing_target is None
    [done] = finished(events)
    assert done.status == "denied"
    assert not (tmp_path / "escape.txt").exists()


async def test_interactive_write_outside_the_roots_runs_once_approved(tmp_path: Path) -> None:
    engine, decider, _, _ = setup(
        tmp_path,
        [{"tool_calls": [call("write_file", {"path": "../escape.txt", "content": "x"}, "c1")]},
         {"text": "ok"}],
        "interactive",
        approver=answering(ApprovalOutcome.ONCE),
    )
    events = await collect(engine.run("write it"))
    assert finished(events)[0].status == "ok"
    assert (tmp_path / "escape.txt").read_text() == "x"
    assert decider.rules.list_rules() == []


async def test_auto_refuses_a_write_outside_the_roots_without_asking(tmp_path: Path) -> None:
    approver = answering(ApprovalOutcome.ONCE)
    engine, _, _, ws = setup(
        tmp_path,
        [{"tool_calls": [
            call("write_file", {"path": "../bad.py", "content": "x"}, "c1"),
            call("write_file", {"path": "good.py", "content": "y"}, "c2"),
        ]}, {"text": "ok"}],
        "auto",
        approver=approver,
    )
    events = await collect(engine.run("write"))
    assert asked(events) == []
    bad, good = finished(events)
    assert bad.status == "denied" and "outside the writable roots" in bad.result
    assert good.status == "ok" and good.rule == "mode:auto"
    assert not (tmp_path / "bad.py").exists() and (ws / "good.py").read_text() == "y"
    assert approver.seen == []


async def test_standing_rule_allows_and_is_cited_on_tool_finished(tmp_path: Path) -> None:
    rules = StandingRuleStore.in_memory()
    rules.add("send_message", "slack:T1/C1", scope="session", scope_id="s1")
    approver = answering(ApprovalOutcome.DENY)
    engine, _, sent, _ = setup(
        tmp_path,
        [{"tool_calls": [
            call("send_message", {"channel": "slack:T1/C1", "text": "hi"}, "c1"),
            call("send_message", {"channel": "slack:T1/C2", "text": "hi"}, "c2"),
        ]}, {"text": "done"}],
        "interactive",
        rules=rules,
        approver=approver,
    )
    events = await collect(engine.run("post"))
    ok, other = finished(events)
    assert ok.status == "ok" and ok.rule == "send_message → slack:T1/C1"
    [req] = asked(events)
    assert req.call_id == "c2" and req.standing_target == "slack:T1/C2"
    assert other.status == "denied"
    assert [s["channel"] for s in sent] == ["slack:T1/C1"]
    tool_msgs = [m for m in engine.history if m.get("role") == "tool"]
    assert tool_msgs[0].get("rule") == "send_message → slack:T1/C1"


async def test_plan_mode_ignores_the_standing_rule(tmp_path: Path) -> None:
    rules = StandingRuleStore.in_memory()
    rules.add("send_message", "slack:T1/C1", scope="session", scope_id="s1")
    approver = answering(ApprovalOutcome.ONCE)
    engine, _, sent, _ = setup(
        tmp_path,
        [{"tool_calls": [call("send_message", {"channel": "slack:T1/C1", "text": "hi"}, "c1")]},
         {"text": "done"}],
        "plan",
        rules=rules,
        approver=approver,
    )
    events = await collect(engine.run("post"))
    assert asked(events) == []
    [done] = finished(events)
    assert done.status == "denied" and "read-only" in done.result and done.rule is None
    assert sent == [] and approver.seen == []


async def test_always_answer_becomes_a_rule_for_that_exact_target(tmp_path: Path) -> None:
    approver = answering(ApprovalOutcome.ALWAYS)
    engine, decider, sent, _ = setup(
        tmp_path,
        [{"tool_calls": [call("send_message", {"channel": "slack:T1/C1", "text": "1"}, "c1")]},
         {"tool_calls": [
             call("send_message", {"channel": "slack:T1/C1", "text": "2"}, "c2"),
             call("send_message", {"channel": "slack:T1/C3", "text": "3"}, "c3"),
         ]},
         {"text": "done"}],
        "interactive",
        approver=approver,
    )
    events = await collect(engine.run("post"))
    assert [r.call_id for r in asked(events)] == ["c1", "c3"]
    assert approver.seen[0].can_always is True
    rules = [(r.tool, r.target, r.scope) for r in decider.rules.list_rules()]
    assert rules == [("send_message", "slack:T1/C1", "session"),
                     ("send_message", "slack:T1/C3", "session")]
    by_id = {f.call_id: f for f in finished(events)}
    assert by_id["c1"].rule == "user:always"
    assert by_id["c2"].rule == "send_message → slack:T1/C1"


async def test_shell_allowlist_and_always_command_through_the_engine(tmp_path: Path) -> None:
    approver = answering(ApprovalOutcome.ALWAYS_COMMAND)
    engine, decider, sent, _ = setup(
        tmp_path,
        [{"tool_calls": [
            call("run_shell", {"command": "git status -s"}, "c1"),
            call("run_shell", {"command": "git status; rm -rf ~"}, "c2"),
        ]},
         {"tool_calls": [call("run_shell", {"command": "git status; rm -rf ~"}, "c3")]},
         {"text": "done"}],
        "auto",
        approver=approver,
    )
    events = await collect(engine.run("go"))
    assert [r.call_id for r in asked(events)] == ["c2"]
    by_id = {f.call_id: f for f in finished(events)}
    assert by_id["c1"].rule == "allowlist:git status"
    assert by_id["c3"].rule == "session:always_command"
    assert decider.rules.list_rules() == []
