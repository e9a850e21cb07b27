"""MCP tool names are one per (server, tool): server ``a`` tool ``b__c`` and server
``a__b`` tool ``c`` both used to be ``mcp__a__b__c`` (one was lost, and an override
or a standing rule for the name applied to the other). Real servers, real turns,
the real permission engine."""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest, ToolCallInfo
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.standing_rules import StandingRuleStore
from openworker_qt.core.tool_api import Tool, ToolRegistry, ToolResult
from openworker_qt.domain.mcp_names import (
    override_name,
    pair_key,
    split_name,
    stale_name,
    tool_name,
)
from openworker_qt.mcp.config import ServerConfig, parse_server
from openworker_qt.mcp.manager import McpManager
from openworker_qt.qt.wording import humanise_tool
from openworker_qt.storage.config import load_config
from tests.core.helpers import call, collect, make_engine
from tests.mcp.helpers import SERVERS


def named(server: str, label: str, *tools: str) -> ServerConfig:
    """The server ``server`` running tests/mcp/servers/named.py with these tools."""
    return parse_server(server, {"command": sys.executable,
                                 "args": [str(SERVERS / "named.py"), label, *tools]})


VENDOR = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
PARTS = ["a", "b", "c", "_", "__", ".", "-", "x" * 40, "é", "/", "a_b", "a.b"]


def test_the_mapping_is_one_to_one_over_a_corpus_and_fits_the_vendors() -> None:
    pieces = list(dict.fromkeys(
        "".join(p) for n in (1, 2, 3) for p in itertools.product(PARTS, repeat=n)))
    names: dict[str, tuple[str, str]] = {}
    for server, tool in itertools.product(pieces[:200], pieces[:200]):
        name = tool_name(server, tool)
        assert VENDOR.fullmatch(name), name
        other = names.setdefault(name, (server, tool))
        assert other == (server, tool), f"{other} and {(server, tool)} are both {name}"
    assert len(names) == 200 * 200


def test_plain_names_read_as_before_and_the_example_pair_differs() -> None:
    assert tool_name("github", "create_issue") == "mcp__github__create_issue"
    assert tool_name("fail_start", "add") == "mcp__fail_start__add"
    assert split_name("mcp__github__create_issue") == ("github", "create_issue")
    one, two = tool_name("a", "b__c"), tool_name("a__b", "c")
    assert one != two and "mcp__a__b__c" not in (one, two)
    assert split_name(one) is None and humanise_tool(one) == "A: b c"
    assert tool_name("a.b", "c") != tool_name("a_b", "c")
    assert len(tool_name("s" * 64, "t" * 64)) == 64


async def test_two_real_servers_whose_names_flattened_alike_both_work(tmp_path: Path) -> None:
    manager = McpManager([named("a", "A", "b__c"),
                          named("a__b", "AB", "c")], connect_timeout=20)
    await manager.start_all()
    await manager.wait_ready(30)
    try:
        registry = manager.attach(ToolRegistry())
        one, two = tool_name("a", "b__c"), tool_name("a__b", "c")
        assert {one, two} <= set(registry.names())
        assert manager.server_of(one) is manager.servers["a"]
        assert manager.server_of(two) is manager.servers["a__b"]
        asked: list[ApprovalRequest] = []

        async def once(request: ApprovalRequest) -> ApprovalOutcome:
            asked.append(request)
            return ApprovalOutcome.ONCE

        # the user lowered server a's tool b__c to read (by the pair); a__b's c still asks
        decider = PermissionEngine(workspace=tmp_path, mode="interactive",
                                   risk_overrides={"mcp:a/b__c": "read"},
                                   rules=StandingRuleStore.in_memory())
        engine, _ = make_engine(
            [{"tool_calls": [call(one, {}, "c1"), call(two, {}, "c2")]}, {"text": "ok"}],
            tmp_path, tools=[], decider=decider, approver=once)
        engine.tools = registry
        events = await collect(engine.run("go"))
        done = {e.call_id: e for e in events if isinstance(e, ev.ToolFinished)}
        assert done["c1"].result == "b__c on A" and done["c2"].result == "c on AB"
        assert [r.call_id for r in asked] == ["c2"]
    finally:
        await manager.stop_all()


async def test_a_name_already_taken_is_refused_with_a_clear_notice(tmp_path: Path) -> None:
    async def mine(args: dict, ctx: object) -> ToolResult:
        return ToolResult("the connector's")

    squatter = Tool.from_connector("crm", name="mcp__a__hello", description="x",
                                   parameters={"type": "object"}, handler=mine)
    registry = ToolRegistry([squatter])
    manager = McpManager([named("a", "A", "hello", "other")],
                         connect_timeout=20)
    await manager.start_all()
    await manager.wait_ready(30)
    try:
        manager.attach(registry)
        assert registry.get("mcp__a__hello") is squatter  # not replaced
        assert "mcp__a__other" in registry
        notices = [text for server, text in manager.notices if server == "a"]
        assert any("mcp__a__hello" in t and "left out" in t and "crm" in t for t in notices)
    finally:
        await manager.stop_all()


def _info(name: str, cid: str = "c1") -> ToolCallInfo:
    return ToolCallInfo(session_id="s1", call_id=cid, name=name, arguments={"record": "42"},
                        risk=RiskClass.EXTERNAL, target="42")


@pytest.mark.parametrize("key", [tool_name("a", "b__c"), pair_key("a", "b__c")])
def test_an_override_for_one_servers_tool_does_not_apply_to_the_other(
    tmp_path: Path, key: str,
) -> None:
    engine = PermissionEngine(workspace=tmp_path, mode="interactive",
                              risk_overrides={key: "read"})
    mine, theirs = _info(tool_name("a", "b__c")), _info(tool_name("a__b", "c"))
    assert engine.evaluate(mine).allowed
    verdict = engine.evaluate(theirs)
    assert not verdict.allowed and verdict.needs_user


def test_the_old_ambiguous_spelling_applies_to_neither_and_is_reported(tmp_path: Path) -> None:
    assert stale_name("mcp__a__b__c") and override_name("mcp__a__b__c") == "mcp__a__b__c"
    engine = PermissionEngine(workspace=tmp_path, mode="interactive",
                              risk_overrides={"mcp__a__b__c": "read"})
    for name in (tool_name("a", "b__c"), tool_name("a__b", "c")):
        assert engine.evaluate(_info(name)).needs_user
    conf = tmp_path / "config.toml"
    conf.write_text('[permissions.risk_overrides]\n"mcp__a__b__c" = "read"\n'
                    '"mcp__github__create_issue" = "read"\n')
    cfg = load_config(global_file=conf)
    text = "\n".join(cfg.warnings)
    assert "mcp__a__b__c" in text and "mcp:<server>/<tool>" in text
    assert "create_issue" not in text
    conf.write_text('[permissions]\nauto_allow = ["mcp__a__b__c", "mcp__github__create_issue"]\n')
    text = "\n".join(load_config(global_file=conf).warnings)
    assert "'mcp__a__b__c'" in text and "create_issue" not in text


def test_auto_allow_by_the_pair_covers_that_tool_only(tmp_path: Path) -> None:
    engine = PermissionEngine(workspace=tmp_path, mode="custom", auto_allow=["mcp:a/b__c"])
    assert engine.evaluate(_info(tool_name("a", "b__c"))).allowed
    assert engine.evaluate(_info(tool_name("a__b", "c"))).needs_user


def test_a_standing_rule_for_one_servers_tool_does_not_cover_the_other(tmp_path: Path) -> None:
    engine = PermissionEngine(workspace=tmp_path, mode="interactive",
                              rules=StandingRuleStore.in_memory())
    mine, theirs = _info(tool_name("a", "b__c")), _info(tool_name("a__b", "c"), "c2")
    engine.remember(mine, ApprovalOutcome.ALWAYS)
    assert engine.evaluate(mine).allowed
    assert engine.evaluate(theirs).needs_user
