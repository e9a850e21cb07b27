"""A session's token usage is kept as a running total per model (schema step 5)
with the very figures a sum over its messages gives: after turns through the
real engine (several models, cached and thinking tokens, a compaction), after
an old database is brought up to date, after messages are deleted or rewritten
by another SQLite tool and after a session is deleted. Reading it costs the
same however long the session is."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from openworker_qt.domain.usage import KEYS, Usage
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversation_schema import MIGRATIONS
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.storage.upgrade import pending_upgrade, upgrade
from openworker_qt.storage.usage import scan_session_usage, session_usage
from tests.core.helpers import collect
from tests.core.test_compaction import CAPS, engine_on, summariser, summary_requests
from tests.core.test_context import history

Totals = dict[str, tuple[int, Usage]]

#: The sum the status bar ran before the running totals (the figures to keep), with
#: the tool results too since step 6 (a sub-agent's result carries its tokens).
OLD_SCAN = (
    "SELECT COALESCE(json_extract(data, '$.model'), '') AS model, COUNT(*) AS calls, "
    + ", ".join(f"SUM(COALESCE(json_extract(data, '$.usage.{k}'), 0))" for k in KEYS)
    + " FROM messages WHERE session_id = ? AND id > 0"
    " AND role IN ('assistant', 'notice', 'tool')"
    " AND json_extract(data, '$.usage') IS NOT NULL GROUP BY model ORDER BY calls DESC"
)


def scanned(db: Database, sid: str) -> Totals:
    """The session's usage summed over its messages, as before."""
    out: Totals = {}
    for row in db.query(OLD_SCAN, (sid,)):
        values = {k: int(row[2 + i] or 0) for i, k in enumerate(KEYS)}
        out[str(row["model"])] = (int(row["calls"]), Usage(**values))
    return out


def kept(db: Database, sid: str) -> Totals:
    """The session's usage as the status bar reads it now (and its table)."""
    rows = session_usage(db, sid)
    assert [r.calls for r in rows] == sorted((r.calls for r in rows), reverse=True)
    table = db.query("SELECT model FROM session_usage WHERE session_id = ?", (sid,))
    assert sorted(r[0] for r in table) == sorted(r.model for r in rows)
    return {r.model: (r.calls, r.usage) for r in rows}


def same_as_scan(db: Database, sid: str) -> Totals:
    totals = kept(db, sid)
    assert totals == scanned(db, sid)
    assert totals == {r.model: (r.calls, r.usage) for r in scan_session_usage(db, sid)}
    return totals


async def test_turns_models_and_a_compaction_keep_the_scans_figures(tmp_path: Path) -> None:
    db = Database(tmp_path / "app.db")
    store = ConversationStore(db)
    sid = store.create_session(model="anthropic:claude-sonnet-4-5").id
    other = store.create_session(model="anthropic:claude-sonnet-4-5").id
    for msg in history(40):
        store.append(sid, msg)
    provider = ScriptedProvider([
        {"tool_calls": [{"name": "nothing", "arguments": {}}],
         "usage": {"input_tokens": 1_000, "output_tokens": 50, "cache_read_tokens": 800}},
        {"text": "done", "usage": {"input_tokens": 1_100, "output_tokens": 20,
                                   "cache_read_tokens": 1_000, "reasoning_tokens": 5}},
        {"text": "on the other model", "usage": {"input_tokens": 700, "output_tokens": 300,
                                                 "reasoning_tokens": 200}},
        {"text": "no usage reported"},
        {"text": "in the other session", "usage": {"input_tokens": 3, "output_tokens": 4}},
        {"text": "back", "usage": {"input_tokens": 1_300, "output_tokens": 10,
                                   "cache_write_tokens": 100}},
    ], caps=CAPS, by_system=summariser())
    engine = engine_on(store, sid, provider, tmp_path)
    await collect(engine.run("and now?"))
    assert len(summary_requests(provider)) == 1  # a compaction notice carries usage too
    engine.switch_model("openai:gpt-5")
    await collect(engine.run("think hard"))
    await collect(engine.run("quick one"))
    second = engine_on(store, other, provider, tmp_path)
    await collect(second.run("hello"))
    engine.switch_model("anthropic:claude-sonnet-4-5")
    await collect(engine.run("again"))

    totals = same_as_scan(db, sid)
    assert totals == {
        "anthropic:claude-sonnet-4-5": (4, Usage(
            input_tokens=9_000 + 1_000 + 1_100 + 1_300, output_tokens=40 + 50 + 20 + 10,
            cache_read_tokens=1_800, cache_write_tokens=100, reasoning_tokens=5)),
        "openai:gpt-5": (1, Usage(input_tokens=700, output_tokens=300, reasoning_tokens=200)),
    }
    assert same_as_scan(db, other) == {
        "anthropic:claude-sonnet-4-5": (1, Usage(input_tokens=3, output_tokens=4))}
    assert session_usage(db, "no-such-session") == []
    db.close()


def _row(sid: str, role: str, data: dict[str, Any] | str) -> tuple[str, str, str, float]:
    return (sid, role, data if isinstance(data, str) else json.dumps(data), time.time())


INSERT = "INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)"

OLD_ROWS = [
    _row("s0", "user", {"role": "user", "content": "hi", "usage": {"input_tokens": 99}}),
    _row("s0", "assistant", {"role": "assistant", "content": "a", "model": "m:a",
                             "usage": {"input_tokens": 10, "output_tokens": 2, "cache_read_tokens": 7}}),
    _row("s0", "assistant", {"role": "assistant", "content": "b", "model": "m:b",
                             "usage": {"input_tokens": 20, "output_tokens": 30, "reasoning_tokens": 25}}),
    _row("s0", "tool", {"role": "tool", "content": "x", "usage": {"input_tokens": 5}}),
    _row("s0", "notice", {"role": "notice", "kind": "compacted", "model": "m:a",
                          "usage": {"input_tokens": 9_000, "output_tokens": 40}}),
    _row("s0", "assistant", {"role": "assistant", "content": "no usage", "model": "m:a"}),
    _row("s0", "assistant", {"role": "assistant", "content": "no model", "usage": {"output_tokens": 1}}),
    _row("s0", "assistant", {"role": "assistant", "content": "c", "model": "m:a",
                             "usage": {"input_tokens": 11, "cache_write_tokens": 3}}),
    _row("s1", "assistant", {"role": "assistant", "content": "d", "model": "m:b",
                             "usage": {"input_tokens": 1, "output_tokens": 1}}),
    _row("s1", "assistant", {"role": "assistant", "content": "e", "model": "m:b", "usage": {}}),
]


def _old_database(path: Path) -> None:
    old = Database(path)
    old.ensure("conversations", MIGRATIONS[:4])  # a database from before the running totals
    for sid in ("s0", "s1", "s2"):
        old.execute("INSERT INTO sessions(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                    (sid, sid, 1.0, 1.0))
    with old.transaction() as conn:
        conn.executemany(INSERT, OLD_ROWS)
        conn.executemany(INSERT, [
            _row("s2", "assistant", {"role": "assistant", "model": "m:a", "usage": {"input_tokens": 4}}),
            _row("s2", "assistant", '{"role": "assistant", "usage": {"input_tokens": 1000'),  # damaged
        ])
    old.close()


def test_an_old_database_gets_the_totals_its_messages_add_up_to(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    _old_database(path)
    before = Database(path)
    expected = {sid: scanned(before, sid) for sid in ("s0", "s1")}
    before.close()
    assert expected["s0"] == {
        "m:a": (3, Usage(input_tokens=9_021, output_tokens=42, cache_read_tokens=7,
                         cache_write_tokens=3)),
        "m:b": (1, Usage(input_tokens=20, output_tokens=30, reasoning_tokens=25)),
        "": (2, Usage(input_tokens=5, output_tokens=1)),  # the tool result's usage too
    }
    assert expected["s1"] == {"m:b": (2, Usage(input_tokens=1, output_tokens=1))}

    assert pending_upgrade(path)
    upgrade(path)  # what the app runs in a worker before its stores open
    assert not pending_upgrade(path)
    db = Database(path)
    store = ConversationStore(db)
    assert kept(db, "s0") == expected["s0"] and kept(db, "s1") == expected["s1"]
    # A damaged row counts nothing (the old sum failed on it: the label showed nothing).
    assert kept(db, "s2") == {"m:a": (1, Usage(input_tokens=4))}
    # New messages add to the back-filled totals.
    store.append("s1", {"role": "assistant", "content": "f", "model": "m:b",
                        "usage": {"input_tokens": 5, "reasoning_tokens": 2}})
    assert same_as_scan(db, "s1") == {"m:b": (3, Usage(input_tokens=6, output_tokens=1,
                                                       reasoning_tokens=2))}
    db.close()


def test_deleting_or_rewriting_messages_and_sessions_keeps_the_totals_true(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    db = Database(path)
    store = ConversationStore(db)
    for sid in ("s0", "s1", "s2"):
        store.create_session(session_id=sid)
    with db.transaction() as conn:
        conn.executemany(INSERT, OLD_ROWS)
    s1 = same_as_scan(db, "s1")
    same_as_scan(db, "s0")

    # Another SQLite tool deletes one call and rewrites another (its model, its usage).
    plain = sqlite3.connect(path)
    plain.execute("DELETE FROM messages WHERE data LIKE '%\"content\": \"b\"%'")
    plain.execute("UPDATE messages SET data = json_set(data, '$.model', 'm:c', "
                  "'$.usage.output_tokens', 77) WHERE data LIKE '%\"content\": \"c\"%'")
    plain.execute("UPDATE messages SET role = 'assistant' WHERE role = 'tool'")
    # A damaged row is stored (and deleted) as before, counting nothing.
    plain.execute(INSERT, _row("s2", "assistant", '{"usage": {"input_tokens": 5'))
    plain.execute(INSERT, _row("s2", "notice", '{"usage": {"input_tokens": 6'))
    plain.execute("DELETE FROM messages WHERE role = 'notice' AND session_id = 's2'")
    plain.commit()
    plain.close()
    totals = same_as_scan(db, "s0")
    assert "m:b" not in totals and totals["m:c"] == (1, Usage(input_tokens=11, output_tokens=77,
                                                              cache_write_tokens=3))
    assert totals[""] == (2, Usage(input_tokens=5, output_tokens=1))
    assert kept(db, "s2") == {} and scan_session_usage(db, "s2") == []
    assert store.count("s2") == 1

    store.delete_session("s0")
    assert db.query("SELECT COUNT(*) FROM session_usage WHERE session_id = 's0'")[0][0] == 0
    assert kept(db, "s0") == {} == scanned(db, "s0")
    assert same_as_scan(db, "s1") == s1
    db.close()


def test_random_writes_keep_every_sessions_totals_equal_to_the_sum(tmp_path: Path) -> None:
    rng = random.Random(20261201)
    db = Database(tmp_path / "state.sqlite3")
    store = ConversationStore(db)
    sids = [store.create_session().id for _ in range(3)]
    for step in range(400):
        sid = rng.choice(sids)
        action = rng.random()
        if action < 0.75:
            msg: dict[str, Any] = {"role": rng.choice(["assistant", "assistant", "notice", "tool"]),
                                   "content": f"m{step}"}
            if rng.random() < 0.8:
                msg["model"] = rng.choice(["p:one", "p:two", "p:three", ""])
            if rng.random() < 0.85:
                msg["usage"] = {k: rng.randrange(0, 5_000) for k in KEYS if rng.random() < 0.6}
            store.append(sid, msg)
        elif action < 0.9:
            db.execute("DELETE FROM messages WHERE id = (SELECT id FROM messages WHERE session_id = ?"
                       " ORDER BY random() LIMIT 1)", (sid,))
        else:
            db.execute("UPDATE messages SET session_id = ? WHERE id = (SELECT id FROM messages"
                       " WHERE session_id = ? ORDER BY random() LIMIT 1)", (rng.choice(sids), sid))
        if step % 50 == 0:
            for s in sids:
                same_as_scan(db, s)
    for s in sids:
        assert same_as_scan(db, s)
    db.close()


def test_reading_a_sessions_usage_costs_the_same_however_long_it_is(tmp_path: Path) -> None:
    """Counted in SQLite's virtual machine steps (not time): the total is read, not summed."""
    db = Database(tmp_path / "state.sqlite3")
    store = ConversationStore(db)
    short, long = store.create_session().id, store.create_session().id
    reply = {"role": "assistant", "content": "ok", "model": "p:one",
             "usage": {"input_tokens": 10, "output_tokens": 1}}
    with db.transaction() as conn:
        conn.executemany(INSERT, [_row(short, "assistant", reply)] * 3
                         + [_row(long, "assistant", reply)] * 3_000)

    conn = db._link().conn  # the connection this thread's reads use
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    def cost(sid: str) -> int:
        nonlocal steps
        steps = 0
        conn.set_progress_handler(count, 10)
        try:
            session_usage(db, sid)
        finally:
            conn.set_progress_handler(None, 10)
        return steps

    assert session_usage(db, long)[0].calls == 3_000
    # (counted per 10 steps: whether its row is the table's last one moves the count by
    # one step, which can cross a tenth; summing 3,000 messages would cost hundreds)
    assert abs(cost(long) - cost(short)) <= 1
    db.close()
