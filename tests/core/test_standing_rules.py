"""The SQLite-backed standing rule store."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from openworker_qt.core.standing_rules import StandingRuleStore, parse_entry, rule_label
from openworker_qt.storage.db import Database


class Clock:
    def __init__(self, t: float = 1_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def store(tmp_path: Path, clock: Clock | None = None) -> StandingRuleStore:
    return StandingRuleStore(Database(tmp_path / "app.db"), clock=clock or Clock())


SESSION = [("session", "s1")]


def test_add_dedupes_and_lists(tmp_path: Path) -> None:
    s = store(tmp_path)
    a = s.add("send_message", "slack:T1/C1", scope="session", scope_id="s1")
    b = s.add("send_message", "slack:T1/C1", scope="session", scope_id="s1")
    assert a.id == b.id
    s.add("send_message", "slack:T1/C2", scope="session", scope_id="s1")
    s.add("send_message", "slack:T1/C1", scope="task", scope_id="t9")
    rules = s.list_rules()
    assert len(rules) == 3
    assert [r.target for r in s.list_rules(scope="session", scope_id="s1")] == [
        "slack:T1/C1",
        "slack:T1/C2",
    ]
    pub = a.public()
    assert pub["entry"] == "send_message slack:T1/C1"
    assert pub["tool"] == "send_message" and pub["target"] == "slack:T1/C1"
    assert a.label == "send_message → slack:T1/C1" == rule_label("send_message", "slack:T1/C1")


@pytest.mark.parametrize("target", ["", "   ", "\t"])
def test_add_rejects_empty_target(tmp_path: Path, target: str) -> None:
    with pytest.raises(ValueError, match="non-empty target"):
        store(tmp_path).add("send_message", target, scope="session", scope_id="s1")


def test_add_rejects_bad_scope_tool_and_bounds(tmp_path: Path) -> None:
    s = store(tmp_path)
    with pytest.raises(ValueError, match="scope"):
        s.add("send_message", "x", scope="global", scope_id="s1")
    with pytest.raises(ValueError, match="tool"):
        s.add(" ", "x", scope="session", scope_id="s1")
    with pytest.raises(ValueError, match="id"):
        s.add("send_message", "x", scope="task", scope_id="")
    with pytest.raises(ValueError, match="use"):
        s.add("send_message", "x", scope="session", scope_id="s1", uses=0)
    with pytest.raises(ValueError, match="duration"):
        s.add("send_message", "x", scope="session", scope_id="s1", ttl_seconds=0)


def test_revoke_by_id_and_by_rule(tmp_path: Path) -> None:
    s = store(tmp_path)
    a = s.add("send_message", "slack:C1", scope="session", scope_id="s1")
    s.add("send_message", "slack:C2", scope="session", scope_id="s1")
    assert s.revoke(a.id) is True
    assert s.revoke(a.id) is False
    assert s.revoke_rule("send_message", "slack:C2", scope="session", scope_id="s1")
    assert not s.revoke_rule("send_message", "slack:C2", scope="session", scope_id="s1")
    assert s.list_rules() == []


def test_match_is_exact_and_scoped(tmp_path: Path) -> None:
    s = store(tmp_path)
    s.add("send_message", "slack:C0123:1700000000.000100", scope="session", scope_id="s1")
    s.add("send_file", "slack:C9", scope="task", scope_id="t1")
    hit = s.match("send_message", "slack:C0123:1700000000.000100", SESSION)
    assert hit is not None and hit.scope == "session"
    for tool, target in [
        ("send_message", "slack:C0123"),
        ("send_message", "slack:C0123:1700000000.000100 "),
        ("send_message", "SLACK:C0123:1700000000.000100"),
        ("send_file", "slack:C0123:1700000000.000100"),
    ]:
        assert s.match(tool, target, SESSION) is None
    assert s.match("send_message", "slack:C0123:1700000000.000100", [("session", "s2")]) is None
    assert s.match("send_file", "slack:C9", SESSION) is None
    assert s.match("send_file", "slack:C9", [("session", "s1"), ("task", "t1")]) is not None
    assert s.match("send_file", "slack:C9", [("task", "t2")]) is None


def test_rules_are_reread_across_connections(tmp_path: Path) -> None:
    a = store(tmp_path)
    b = StandingRuleStore(Database(tmp_path / "app.db"))
    rule = a.add("send_message", "slack:C1", scope="session", scope_id="s1")
    assert b.match("send_message", "slack:C1", SESSION) is not None
    b.revoke(rule.id)
    assert a.match("send_message", "slack:C1", SESSION) is None


def test_time_bounded_rule_expires(tmp_path: Path) -> None:
    clock = Clock()
    s = store(tmp_path, clock)
    s.add("send_message", "slack:#ops", scope="session", scope_id="s1", ttl_seconds=7200)
    assert s.match("send_message", "slack:#ops", SESSION) is not None
    clock.t += 7199
    assert s.match("send_message", "slack:#ops", SESSION) is not None
    clock.t += 1
    assert s.match("send_message", "slack:#ops", SESSION) is None
    assert s.list_rules() == []
    assert len(s.list_rules(include_inactive=True)) == 1
    assert s.purge() == 1
    assert s.list_rules(include_inactive=True) == []


def test_count_bounded_rule_spends_one_use_per_call(tmp_path: Path) -> None:
    clock = Clock()
    s = store(tmp_path, clock)
    s.add("send_message", "slack:#ops", scope="session", scope_id="s1", uses=2, ttl_seconds=7200)
    first = s.match("send_message", "slack:#ops", SESSION, call=("s1", "c1"))
    assert first is not None and first.uses_left == 1
    # The same call evaluated again (engine look-ahead, resume after a crash) is already paid.
    again = s.match("send_message", "slack:#ops", SESSION, call=("s1", "c1"))
    assert again is not None and again.uses_left == 1
    second = s.match("send_message", "slack:#ops", SESSION, call=("s1", "c2"))
    assert second is not None and second.uses_left == 0
    assert s.match("send_message", "slack:#ops", SESSION, call=("s1", "c3")) is None
    # Paid calls stay covered while the time bound holds…
    assert s.match("send_message", "slack:#ops", SESSION, call=("s1", "c2")) is not None
    # …and not after it.
    clock.t += 7200
    assert s.match("send_message", "slack:#ops", SESSION, call=("s1", "c2")) is None


def test_unbounded_rule_is_preferred_over_bounded(tmp_path: Path) -> None:
    s = store(tmp_path)
    s.add("send_message", "slack:#ops", scope="task", scope_id="t1", uses=1)
    s.add("send_message", "slack:#ops", scope="session", scope_id="s1")
    scopes = [("session", "s1"), ("task", "t1")]
    for cid in ("c1", "c2", "c3"):
        hit = s.match("send_message", "slack:#ops", scopes, call=("s1", cid))
        assert hit is not None and hit.uses_left is None
    assert s.list_rules(scope="task")[0].uses_left == 1


def test_readding_renews_a_used_up_rule(tmp_path: Path) -> None:
    s = store(tmp_path)
    s.add("send_message", "slack:#ops", scope="session", scope_id="s1", uses=1)
    assert s.match("send_message", "slack:#ops", SESSION, call=("s1", "c1")) is not None
    assert s.match("send_message", "slack:#ops", SESSION, call=("s1", "c2")) is None
    renewed = s.add("send_message", "slack:#ops", scope="session", scope_id="s1", uses=3)
    assert renewed.uses_left == 3
    assert s.match("send_message", "slack:#ops", SESSION, call=("s1", "c2")) is not None


def test_clear_scope_and_entries(tmp_path: Path) -> None:
    s = store(tmp_path)
    rule = s.add_entry("send_message slack:T1/C1", scope="task", scope_id="t1")
    assert (rule.tool, rule.target) == ("send_message", "slack:T1/C1")
    assert parse_entry("send_message → slack:T1/C1") == ("send_message", "slack:T1/C1")
    with pytest.raises(ValueError, match="target"):
        parse_entry("send_message")
    s.add("send_message", "x", scope="session", scope_id="s1")
    assert s.clear(scope="task", scope_id="t1") == 1
    assert [r.scope for r in s.list_rules()] == ["session"]


def test_in_memory_store() -> None:
    s = StandingRuleStore.in_memory()
    s.add("send_message", "x", scope="session", scope_id="s1")
    assert s.match("send_message", "x", SESSION) is not None


def test_last_use_is_spent_once_under_contention(tmp_path: Path) -> None:
    first = store(tmp_path)
    first.add("send_message", "slack:#ops", scope="session", scope_id="s1", uses=3)
    stores = [StandingRuleStore(Database(tmp_path / "app.db")) for _ in range(4)]
    wins: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(len(stores))

    def worker(n: int, s: StandingRuleStore) -> None:
        start.wait()
        for i in range(10):
            cid = f"w{n}-c{i}"
            if s.match("send_message", "slack:#ops", SESSION, call=("s1", cid)) is not None:
                with lock:
                    wins.append(cid)

    threads = [threading.Thread(target=worker, args=(n, s)) for n, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 3
    assert first.list_rules(include_inactive=True)[0].uses_left == 0
