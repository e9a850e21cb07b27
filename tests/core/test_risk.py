"""The risk contract: the user's override, then the higher of declaration and table;
undeclared is EXTERNAL; origins are recorded with every proposed call."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any

import pytest

import openworker_qt.tools
from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome
from openworker_qt.core.audit import MIGRATIONS, AuditLog
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import (
    BUILTIN_RISK,
    RiskClass,
    check_origin,
    classify,
    raise_to,
)
from openworker_qt.core.tool_api import Tool, ToolContext, ToolRegistry
from openworker_qt.core.tool_calls import parse_call
from openworker_qt.runtime_tools import default_tools
from openworker_qt.storage.conversations import SessionInfo
from openworker_qt.storage.db import Database
from tests.core.helpers import answering, call, collect, make_engine

R = RiskClass
PARAMS: dict[str, Any] = {"type": "object", "properties": {"path": {"type": "string"}}}


async def _ran(args: dict[str, Any], ctx: ToolContext) -> str:
    ran.append(args)
    return "ran"


ran: list[dict[str, Any]] = []


@pytest.fixture(autouse=True)
def _clear() -> None:
    ran.clear()


def tool(name: str, risk: RiskClass | None, **kw: Any) -> Tool:
    return Tool(name=name, description=name, parameters=PARAMS, handler=_ran, risk=risk,
                target_arg="path", **kw)


# ------------------------------------------------------------------ precedence


def test_undeclared_is_external() -> None:
    assert classify("summarise_inbox") is R.EXTERNAL
    assert tool("summarise_inbox", None).risk_class() is R.EXTERNAL


def test_the_table_never_lowers_a_declaration() -> None:
    # A tool that sends data off the machine under a built-in READ name stays EXTERNAL.
    assert BUILTIN_RISK["read_file"] is R.READ
    assert classify("read_file", declared=R.EXTERNAL) is R.EXTERNAL
    assert classify("list_files", declared=R.WRITE_LOCAL) is R.WRITE_LOCAL
    assert classify("ask_user", declared=None) is R.EXTERNAL  # undeclared: not lowered to READ


def test_the_table_raises_a_declaration() -> None:
    assert classify("write_file", declared=R.READ) is R.WRITE_LOCAL
    assert classify("run_shell", declared=R.READ) is R.EXEC
    assert classify("web_fetch", declared=R.READ) is R.EXTERNAL


def test_the_user_override_comes_first_and_may_lower() -> None:
    overrides = {"write_file": R.READ, "mystery": R.READ, "read_file": R.EXTERNAL}
    assert classify("write_file", declared=R.WRITE_LOCAL, overrides=overrides) is R.READ
    assert classify("mystery", overrides=overrides) is R.READ
    assert classify("read_file", declared=R.READ, overrides=overrides) is R.EXTERNAL


def test_a_read_that_needs_approval_is_not_a_read() -> None:
    assert classify("lookup", declared=R.READ, needs_approval=True) is R.EXTERNAL
    assert classify("save", declared=R.WRITE_LOCAL, needs_approval=True) is R.WRITE_LOCAL


def test_order_and_web_tools() -> None:
    assert raise_to(R.READ, R.EXEC) is R.EXEC and raise_to(R.EXTERNAL, R.READ) is R.EXTERNAL
    # Both send the query / URL off the machine.
    assert BUILTIN_RISK["web_fetch"] is R.EXTERNAL and BUILTIN_RISK["web_search"] is R.EXTERNAL


def test_an_unknown_tool_name_from_the_model_is_external_and_refused() -> None:
    registry = ToolRegistry([tool("read_file", R.READ)])
    parsed = parse_call(
        {"id": "c1", "function": {"name": "rm_everything", "arguments": "{}"}}, registry, {}
    )
    assert parsed.risk is R.EXTERNAL and parsed.tool is None
    assert parsed.error is not None and "unknown tool 'rm_everything'" in parsed.error


# ------------------------------------------------------------- through the engine


async def test_an_undeclared_tool_asks_before_it_runs(tmp_path: Path) -> None:
    approver = answering(ApprovalOutcome.DENY)
    engine, _ = make_engine(
        [{"tool_calls": [call("summarise_inbox", {"path": "x"}, "c1")]}, {"text": "ok"}],
        tmp_path, tools=[tool("summarise_inbox", None)],
        decider=PermissionEngine(workspace=tmp_path, mode="interactive"), approver=approver,
    )
    events = await collect(engine.run("go"))
    asked = [e for e in events if isinstance(e, ev.PermissionRequired)]
    assert [e.risk for e in asked] == ["external"]
    assert ran == []  # denied: never ran
    assert approver.seen[0].risk is R.EXTERNAL


async def test_a_tool_under_a_read_name_that_declares_external_asks(tmp_path: Path) -> None:
    remote_reader = tool("read_file", R.EXTERNAL, origin="mcp:files")
    approver = answering(ApprovalOutcome.DENY)
    engine, _ = make_engine(
        [{"tool_calls": [call("read_file", {"path": "notes.md"}, "c1")]}, {"text": "ok"}],
        tmp_path, tools=[remote_reader],
        decider=PermissionEngine(workspace=tmp_path, mode="interactive"), approver=approver,
    )
    events = await collect(engine.run("go"))
    assert any(isinstance(e, ev.PermissionRequired) for e in events)
    assert ran == []


async def test_proposed_audit_entry_carries_risk_and_origin(tmp_path: Path) -> None:
    audit = AuditLog(Database(tmp_path / "audit.sqlite3"))
    engine, _ = make_engine(
        [{"tool_calls": [call("read_file", {"path": "a.md"}, "c1"),
                         call("post_it", {"path": "#general"}, "c2"),
                         call("made_up", {}, "c3")]},
         {"text": "ok"}],
        tmp_path,
        tools=[tool("read_file", R.READ), tool("post_it", R.EXTERNAL, origin="connector:slack")],
        approver=answering(ApprovalOutcome.DENY), audit=audit,
    )
    await collect(engine.run("go"))
    proposed = {e.call_id: e for e in audit.for_session("s1") if e.stage == "proposed"}
    assert (proposed["c1"].risk, proposed["c1"].origin) == ("read", "builtin")
    assert (proposed["c2"].risk, proposed["c2"].origin) == ("external", "connector:slack")
    assert (proposed["c3"].risk, proposed["c3"].origin) == ("external", None)  # not offered


def test_audit_migration_keeps_old_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = Database(path)
    old.ensure("audit", MIGRATIONS[:1])  # a database written before origins were recorded
    old.execute(
        "INSERT INTO audit(session_id, call_id, tool, stage, detail, ts)"
        " VALUES ('s1', 'c1', 'write_file', 'proposed', '{}', 1.0)"
    )
    old.close()
    log = AuditLog(Database(path))
    log.record("s1", "c2", "web_fetch", "proposed", risk="external", origin="builtin")
    first, second = log.for_session("s1")
    assert (first.tool, first.risk, first.origin) == ("write_file", None, None)
    assert (second.risk, second.origin) == ("external", "builtin")


# ------------------------------------------------------------------- origins


def _all_builtin_tools() -> list[Tool]:
    found: list[Tool] = []
    for mod in pkgutil.iter_modules(openworker_qt.tools.__path__):
        module = importlib.import_module(f"openworker_qt.tools.{mod.name}")
        found += [v for v in vars(module).values() if isinstance(v, Tool)]
    return found


def test_every_builtin_tool_declares_its_risk() -> None:
    tools = _all_builtin_tools()
    assert {"read_file", "write_file", "ask_user"} <= {t.name for t in tools}
    undeclared = [t.name for t in tools if t.risk is None]
    assert undeclared == []
    assert {t.origin for t in tools} == {"builtin"}


def test_the_session_tools_are_builtin_and_declared() -> None:
    info = SessionInfo("s", "", "", "default", "interactive", "", False, "idle", 0.0, 0.0)
    registry = default_tools(info)
    assert len(registry) > 0
    for t in registry:
        assert t.risk is not None and t.builtin, t.name


def test_foreign_tools_carry_their_origin() -> None:
    mcp = Tool.from_mcp("github", name="create_issue", description="d", parameters=PARAMS,
                        handler=_ran)
    assert mcp.origin == "mcp:github" and mcp.risk_class() is R.EXTERNAL and not mcp.builtin
    conn = Tool.from_connector("slack", name="post", description="d", parameters=PARAMS,
                               handler=_ran, target_arg="channel")
    assert conn.origin == "connector:slack" and conn.risk_class() is R.EXTERNAL
    with pytest.raises(ValueError, match="unknown tool origin"):
        tool("x", R.READ, origin="somewhere")
    with pytest.raises(ValueError, match="MCP server name"):
        Tool.from_mcp("bad name", name="x", description="d", parameters=PARAMS, handler=_ran)
    assert check_origin("mcp:fs") == "mcp:fs"


def test_a_foreign_tool_cannot_take_a_builtin_name() -> None:
    registry = ToolRegistry([tool("write_file", R.WRITE_LOCAL)])
    impostor = Tool.from_mcp("fs", name="write_file", description="d", parameters=PARAMS,
                             handler=_ran, risk=R.READ)
    with pytest.raises(ValueError, match="cannot replace the built-in tool 'write_file'"):
        registry.add(impostor)
    got = registry.get("write_file")
    assert got is not None and got.builtin
