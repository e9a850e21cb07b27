"""The explorer sub-agent's tokens are stored with the session and counted wherever
usage is: the session's running totals in SQLite, `openworker-qt show` (per turn,
per session, with the cost) and the window's status line. Through the real engine
and a real database, with scripted providers for the parent and the explorer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.domain.usage import Usage
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversation_schema import MIGRATIONS
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.storage.paths import app_paths
from openworker_qt.storage.upgrade import pending_upgrade, upgrade
from openworker_qt.storage.usage import ModelUsage, scan_session_usage, session_usage
from openworker_qt.tools.explore import EXPLORE, Explorer, explore_tool
from openworker_qt.tools.files import file_tools
from tests.cli.test_cli import owq
from tests.core.helpers import AllowAll, StaticResolver, call, collect

MODEL = "anthropic:claude-sonnet-4-5"  # priced in the shipped list: $3 in, $15 out per million
PARENT_TURNS: list[dict[str, Any]] = [
    {"tool_calls": [call(EXPLORE, {"task": "what does a.txt say?"}, "x1")],
     "usage": {"input_tokens": 1_000, "output_tokens": 10}},
    {"text": "It says alpha.", "usage": {"input_tokens": 1_000, "output_tokens": 10}},
]
CHILD_TURNS: list[dict[str, Any]] = [
    {"tool_calls": [call("read_file", {"path": "a.txt"})],
     "usage": {"input_tokens": 150_000, "output_tokens": 6_000}},
    {"text": "a.txt says alpha.", "usage": {"input_tokens": 150_000, "output_tokens": 6_000}},
]
PARENT = Usage(input_tokens=2_000, output_tokens=20)
CHILD = Usage(input_tokens=300_000, output_tokens=12_000)


def test_the_explorers_tokens_are_stored_and_counted_everywhere(
        tmp_path: Path, qloop: Any) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    db = Database(app_paths().database)
    store = ConversationStore(db)
    sid = store.create_session(model=MODEL, workspace=str(tmp_path)).id
    child = ScriptedProvider(CHILD_TURNS, advance="history")
    registry = ToolRegistry(file_tools())
    registry.add(explore_tool(Explorer(
        resolver=StaticResolver(child), model=lambda: MODEL,
        decider=lambda: PermissionEngine(workspace=tmp_path, mode="plan")), registry))
    engine = TurnEngine(session_id=sid, store=store, resolver=StaticResolver(
        ScriptedProvider(PARENT_TURNS)), model=MODEL, tools=registry, decider=AllowAll(),
        workspace=tmp_path)
    events = qloop.run_until_complete(collect(engine.run("look")))
    assert events[-1].status == "completed"
    assert Usage.of(events[-1].usage) == PARENT + CHILD  # the live turn (as before)

    # Stored: the explorer's result carries its tokens and model.
    [result] = [m for m in store.load(sid) if m.get("role") == "tool"]
    assert result["usage"] == CHILD.as_dict() and result["model"] == MODEL
    # The session's running totals (what the status line reads) and the sum agree.
    assert session_usage(db, sid) == [ModelUsage(MODEL, PARENT + CHILD, 3)]
    assert scan_session_usage(db, sid) == session_usage(db, sid)

    # The window's status line.
    from openworker_qt.qt.usage_reader import UsageReader
    from openworker_qt.ui.usage_label import UsageLabel

    label = UsageLabel(UsageReader(db, lambda: None))
    label.show_session(sid)
    assert label._task is not None
    qloop.run_until_complete(label._task)
    assert label.text() == "314k tokens · ≈ $1.09"  # 302k × $3 + 12,020 × $15 per million

    # An automation's run in this session: `automations show` gives its cost.
    from openworker_qt.automation.store import AutomationStore

    autos = AutomationStore(db)
    auto = autos.create(name="Look", prompt="look", tz="Europe/Paris", cron="0 8 * * *")
    run = autos.start_manual(auto.id, owner="test")
    autos.set_session(run.id, sid)
    autos.set_status(run.id, "completed")
    db.close()
    shown = owq("automations", "show", auto.id, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "        302k in · 12k out · ≈ $1.09" in shown.stdout.splitlines()

    # `show`: the turn and the session, with the cost.
    out = owq("show", sid, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = [line.strip() for line in out.stdout.splitlines()
             if "Tokens this turn" in line or "Session total" in line]
    assert lines == ["· Tokens this turn: 302k in · 12k out · ≈ $1.09",
                     "· Session total: 302k in · 12k out · ≈ $1.09 (estimated from list prices)"]


def test_an_older_database_counts_the_explorers_tokens_it_kept_for_display(
        tmp_path: Path) -> None:
    # Before, the explorer's tokens were kept only in what its card shows.
    path = tmp_path / "state.sqlite3"
    old = Database(path)
    old.ensure("conversations", MIGRATIONS[:5])
    old.execute("INSERT INTO sessions(id, title, model, created_at, updated_at) "
                "VALUES ('s', 's', ?, 1, 1)", (MODEL,))
    rows = [
        ("assistant", {"role": "assistant", "content": "", "model": MODEL,
                       "usage": {"input_tokens": 1_000, "output_tokens": 10}}),
        ("tool", {"role": "tool", "tool_call_id": "x1", "name": EXPLORE, "content": "alpha",
                  "_display": {"explorer_steps": 1, "agent_usage": CHILD.as_dict()}}),
        ("tool", {"role": "tool", "tool_call_id": "x2", "name": EXPLORE, "content": "none",
                  "_display": {"explorer_steps": 0, "agent_usage": {}}}),
        ("tool", {"role": "tool", "tool_call_id": "r1", "name": "read_file", "content": "x"}),
    ]
    for role, data in rows:
        old.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES ('s', ?, ?, 1)",
                    (role, json.dumps(data)))
    # (read as that app read it: today's reader wants the columns of later steps)
    assert [tuple(r) for r in old.query("SELECT model, calls, input_tokens, output_tokens"
                                        " FROM session_usage WHERE session_id = 's'")] \
        == [(MODEL, 1, 1_000, 10)]
    old.close()
    assert pending_upgrade(path)
    upgrade(path)
    db = Database(path)
    ConversationStore(db)
    assert session_usage(db, "s") == [ModelUsage(MODEL, Usage(1_000, 10) + CHILD, 2)]
    assert scan_session_usage(db, "s") == session_usage(db, "s")
    db.close()
