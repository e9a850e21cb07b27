"""Every session reachable a page at a time, and full-text search (FTS5) over
titles and what was written in them — including sessions stored before the
search index existed."""

from __future__ import annotations

import json
import time
from pathlib import Path

from openworker_qt.storage.conversation_schema import MIGRATIONS
from openworker_qt.storage.conversations import ConversationStore, day_bounds
from openworker_qt.storage.db import Database


def test_a_word_in_an_old_sessions_message_is_found_after_the_backfill(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    old = Database(path)
    old.ensure("conversations", MIGRATIONS[:1])  # a database from before search existed
    ts = time.time() - 400 * 86400
    old.execute("INSERT INTO sessions(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                ("old1", "Budget", ts, ts))
    for i in range(1200):  # more than one backfill chunk
        text = "the okapi figures are in" if i == 3 else f"row {i}"
        old.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)",
                    ("old1", "user" if i % 2 else "assistant",
                     json.dumps({"role": "user", "content": text}), ts))
    old.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)",
                ("old1", "tool", json.dumps({"role": "tool", "content": "zebra output"}), ts))
    old.close()

    store = ConversationStore(Database(path))
    store.create_session(title="Something else")
    assert store.search_sessions("okapi") == []  # not indexed yet
    chunks = 0
    while store.backfill_search(chunk=500):
        chunks += 1
    assert chunks >= 3 and not store.backfill_search()  # 1,200 messages: 3 chunks at least
    [hit] = store.search_sessions("okapi")
    assert hit.session_id == "old1" and hit.message_id == 4
    assert store.message_texts([4]) == {4: "the okapi figures are in"}
    assert store.search_sessions("OKA") == store.search_sessions("okapi")  # a prefix, any case
    assert store.search_sessions("zebra") == []  # tool output is not searched


def test_new_messages_titles_renames_and_deletes_keep_the_index_true(tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "s.sqlite3"))
    a = store.create_session(title="Quarterly report").id
    b = store.create_session(title="Holiday plans").id
    store.append(a, {"role": "user", "content": "where are the giraffe numbers?"})
    store.append(b, {"role": "assistant", "content": [{"type": "text", "text": "Café at noon"}]})
    assert [h.session_id for h in store.search_sessions("giraffe numbers")] == [a]
    assert [h.session_id for h in store.search_sessions("cafe")] == [b]  # accents folded
    assert [h.session_id for h in store.search_sessions("quarterly")] == [a]
    assert [h.session_id for h in store.search_sessions("ort")] == [a]  # part of a title
    assert store.search_sessions('"); DROP TABLE sessions; --') == []  # words, not syntax
    store.update_session(a, title="Renamed")
    assert [h.session_id for h in store.search_sessions("renamed")] == [a]
    assert [h.session_id for h in store.search_sessions("quarterly")] == []
    store.delete_session(b)
    assert store.search_sessions("cafe") == []
    assert store.db.query("SELECT COUNT(*) FROM message_search")[0][0] == 1


def test_every_session_is_reachable_page_by_page_in_the_sidebars_order(tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "s.sqlite3"))
    today, yesterday, week = day_bounds()
    stamps = [today + 60, yesterday + 60, week + 60, week - 86400 * 30]
    ids = []
    with store.batch():
        for i in range(1234):
            sid = store.create_session(title=f"s{i}").id
            store.db.execute("UPDATE sessions SET updated_at = ? WHERE id = ?",
                             (stamps[i % 4] + i, sid))
            ids.append(sid)
    store.set_pinned(ids[7], True)
    groups, _ = store.session_groups()
    assert (groups.pinned, groups.today, groups.yesterday, groups.week, groups.older) == (
        1, 309, 309, 308, 307)
    seen = []
    for offset in range(0, groups.total, 100):
        seen.extend(store.sessions_page(offset, 100))
    assert len(seen) == 1234 and {s.id for s in seen} == set(ids)
    assert seen[0].id == ids[7] and seen[0].pinned
    rest = [s.updated_at for s in seen[1:]]
    assert rest == sorted(rest, reverse=True)
    assert all(store.session_position(seen[i].id) == i for i in range(0, 1234, 97))
    # A search matching more than 500 sessions returns all of them.
    assert len(store.search_sessions("s")) == 1234


def test_message_counts_are_kept_without_counting_rows(tmp_path: Path) -> None:
    """Opening or running a session reads its message count from the session row
    (kept by triggers), not by counting a million rows on the loop thread."""
    path = tmp_path / "state.sqlite3"
    old = Database(path)
    old.ensure("conversations", MIGRATIONS[:1])
    old.execute("INSERT INTO sessions(id, title, created_at, updated_at) VALUES ('a', '', 0, 0)")
    for _ in range(5):
        old.execute("INSERT INTO messages(session_id, role, data, created_at)"
                    " VALUES ('a', 'user', '{\"role\": \"user\", \"content\": \"x\"}', 0)")
    old.close()
    store = ConversationStore(Database(path))  # counted once by the migration
    info = store.get_session("a")
    assert info is not None and info.message_count == 5 and store.count("a") == 5
    store.append("a", {"role": "assistant", "content": "y"})
    queries: list[str] = []
    store.db._home.conn.set_trace_callback(queries.append)
    assert store.count("a") == 6 and store.get_session("a").message_count == 6
    assert not any("COUNT(" in q.upper() for q in queries)
    store.db._home.conn.set_trace_callback(None)
    b = store.create_session().id
    store.append(b, {"role": "user", "content": "z"})
    assert [s.message_count for s in store.sessions_page(0, 10)] == [1, 6]
    store.delete_session("a")
    assert store.count(b) == 1


def _old_v2_database(path: Path) -> None:
    """A database as the app before CJK search wrote it: schema step 2, its search
    index holding CJK sentences as one token each."""
    old = Database(path)
    old.ensure("conversations", MIGRATIONS[:2])
    rows = [
        ("zh", "年度预算 审核会议", "user", "请把季度报告发给我"),
        ("ja", "会議の資料", "user", "会議の資料を送ってください"),
        ("ko", "분기 보고서", "assistant", "분기 보고서를 보내드렸습니다"),
        ("en", "Budget review", "user", "where are the okapi figures?"),
    ]
    for sid, title, role, text in rows:
        old.execute("INSERT INTO sessions(id, title, created_at, updated_at) VALUES (?, ?, 1, 1)",
                    (sid, title))
        cur = old.execute(
            "INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, 1)",
            (sid, role, json.dumps({"role": role, "content": text}, ensure_ascii=False)))
        old.execute("INSERT INTO message_search(rowid, text, session_id) VALUES (?, ?, ?)",
                    (cur.lastrowid, text, sid))  # as that version's append() indexed it
    old.execute("UPDATE search_backfill SET below = 0")
    old.close()


def _found(store: ConversationStore, text: str) -> list[str]:
    return sorted(h.session_id for h in store.search_sessions(text))


def test_a_chinese_word_inside_an_old_sessions_message_is_found_after_the_reindex(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    _old_v2_database(path)
    store = ConversationStore(Database(path))
    # Meanwhile: Latin words as before, titles as substrings, a sentence's start.
    assert _found(store, "okap") == ["en"]
    assert _found(store, "预算") == ["zh"]
    assert _found(store, "请把") == ["zh"]
    while store.backfill_search(chunk=2):
        pass
    assert _found(store, "报告") == ["zh"]  # in the middle of the sentence
    assert _found(store, "季度报告") == ["zh"] and _found(store, "报季") == []
    assert _found(store, "資料") == ["ja"]
    assert _found(store, "보고서") == ["ko"]
    assert _found(store, "预算 会议") == ["zh"]  # two words of the title, apart
    assert _found(store, "okapi figures") == ["en"] and _found(store, "FIG") == ["en"]
    [hit] = store.search_sessions("报告")
    assert hit.message_id is not None
    assert store.message_texts([hit.message_id]) == {hit.message_id: "请把季度报告发给我"}
    assert not store.db.query("SELECT 1 FROM message_search WHERE text = '请把季度报告发给我'")


def test_new_cjk_messages_and_titles_are_found_at_once_and_renames_keep_the_index_true(tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "s.sqlite3"))
    a = store.create_session(title="客户合同").id
    store.append(a, {"role": "user", "content": "明天下午三点开会讨论Q3报告"})
    assert _found(store, "下午") == [a] and _found(store, "Q3") == [a]
    assert _found(store, "报告") == [a] and _found(store, "合同") == [a]
    store.update_session(a, title="新的标题")
    assert _found(store, "合同") == [] and _found(store, "标题") == [a]
    store.delete_session(a)
    assert _found(store, "标题") == [] and _found(store, "下午") == []
    assert store.db.query("SELECT COUNT(*) FROM title_words")[0][0] == 0


def test_a_workers_query_stops_when_a_newer_search_says_so_and_the_connection_still_works(tmp_path: Path) -> None:
    import sqlite3
    import threading

    db = Database(tmp_path / "s.sqlite3")
    store = ConversationStore(db)
    store.create_session(title="Quarterly report")
    stop = threading.Event()
    outcome: list[object] = []

    def worker() -> None:
        with db.stoppable(stop.is_set):
            try:  # a query that would never end on its own
                db.query("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
                         " SELECT COUNT(*) FROM c")
            except sqlite3.OperationalError as exc:
                outcome.append(str(exc))
        outcome.append([h.session_id for h in store.search_sessions("report")])  # still usable

    thread = threading.Thread(target=worker)
    thread.start()
    stop.set()
    thread.join(10)
    assert not thread.is_alive()
    assert outcome[0] == "interrupted" and len(outcome[1]) == 1
    with db.stoppable(lambda: True):  # (the loop's connection is never stopped)
        assert db.query("SELECT 1")[0][0] == 1


def test_a_rename_from_a_plain_sqlite_tool_succeeds_and_the_app_finds_the_new_title(tmp_path: Path) -> None:
    """A user repairing the database with another SQLite tool (no app functions
    registered) can rename, add and delete sessions; the app finds each by its
    title as it is now (substring at once, words after the start-up catch-up)."""
    import sqlite3

    path = tmp_path / "s.sqlite3"
    store = ConversationStore(Database(path))
    a = store.create_session(title="Quarterly report").id
    b = store.create_session(title="Holiday plans").id
    store.db.close()
    plain = sqlite3.connect(path)  # as DB Browser or the sqlite3 shell would
    plain.execute("UPDATE sessions SET title = '年度预算 审核会议' WHERE id = ?", (a,))
    plain.execute("INSERT INTO sessions(id, title, created_at, updated_at)"
                  " VALUES ('c', 'Giraffe census', 1, 1)")
    plain.execute("DELETE FROM sessions WHERE id = ?", (b,))
    plain.commit()
    plain.close()

    store = ConversationStore(Database(path))
    assert _found(store, "quarterly") == []  # the old title's words no longer count
    assert _found(store, "预算") == [a] and _found(store, "giraffe") == ["c"]  # as substrings
    assert _found(store, "holiday") == []
    while store.backfill_search():
        pass
    assert _found(store, "预算 会议") == [a]  # two words of the new title, apart
    assert _found(store, "census giraffe") == ["c"]
    assert store.db.query("SELECT COUNT(*) FROM title_words")[0][0] == 2


def test_search_finds_the_right_titles_after_vacuum_and_renumbered_rows(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "s.sqlite3"
    store = ConversationStore(Database(path))
    ids = [store.create_session(title=f"{word} notes").id
           for word in ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot")]
    for sid in ids[:3]:
        store.delete_session(sid)
    store.db.execute("VACUUM")
    assert _found(store, "notes delta") == [ids[3]] and _found(store, "fox") == [ids[5]]
    store.db.close()
    plain = sqlite3.connect(path)  # rows renumbered (as a dump and reload may do)
    plain.execute("UPDATE sessions SET rowid = 1000 - rowid")
    plain.commit()
    plain.execute("VACUUM")
    plain.close()
    store = ConversationStore(Database(path))
    assert _found(store, "notes delta") == [ids[3]]
    assert _found(store, "notes echo") == [ids[4]] and _found(store, "alpha") == []
    store.update_session(ids[4], title="golf club")
    assert _found(store, "golf club") == [ids[4]] and _found(store, "delta club") == []


def test_titles_indexed_by_the_previous_version_stay_found_through_the_update(tmp_path: Path) -> None:
    """A database of schema step 3 (its title index keyed by the sessions' rowids,
    kept by triggers calling the app's function) is brought to the stable keys:
    every title found by substring at once, by its words after the catch-up, and
    renames from another tool work from then on."""
    import sqlite3

    path = tmp_path / "s.sqlite3"
    old = Database(path)
    old.ensure("conversations", MIGRATIONS[:3])
    for i, title in enumerate(("年度预算 审核会议", "Budget review", "Hiring plan")):
        old.execute("INSERT INTO sessions(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                    (f"s{i}", title, i, i))
    old.close()
    store = ConversationStore(Database(path))
    assert _found(store, "review") == ["s1"] and _found(store, "预算") == ["s0"]
    while store.backfill_search():
        pass
    assert _found(store, "预算 会议") == ["s0"] and _found(store, "plan hiring") == ["s2"]
    assert store.db.query("SELECT COUNT(*) FROM title_keys WHERE stale")[0][0] == 0
    store.db.close()
    plain = sqlite3.connect(path)
    plain.execute("UPDATE sessions SET title = 'Payroll audit' WHERE id = 's2'")
    plain.commit()
    plain.close()
    store = ConversationStore(Database(path))
    while store.backfill_search():
        pass
    assert _found(store, "audit payroll") == ["s2"] and _found(store, "hiring") == []
