"""Two real processes, one session: the second is refused, and takes over once the
first is killed."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.storage.leases import SessionLeases
from tests.cli.test_crash import cli, spawn, wait_for


def database() -> Database:
    return Database(Path(os.environ["OPENWORKER_HOME"]) / "data" / "openworker.sqlite3")


def test_second_process_is_refused_then_takes_over_a_killed_owner(tmp_path: Path) -> None:
    slow = tmp_path / "slow.json"
    slow.write_text(json.dumps([{"chunks": ["word "] * 2000, "delay": 0.05}]))
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps([{"text": "Here now."}]))
    ws = tmp_path / "ws"
    ws.mkdir()
    owner = spawn("run", "--model", f"scripted:{slow}", "talk for a long time", cwd=ws,
                  env=os.environ.copy())
    try:
        def leased() -> str | None:
            db = database()
            try:
                sessions = ConversationStore(db).list_sessions()
                if sessions and SessionLeases(db).get(sessions[0].id) is not None:
                    return sessions[0].id
                return None
            finally:
                db.close()

        sid = wait_for(leased)
        refused = cli("run", "-s", sid, "--model", f"scripted:{reply}", "me too", cwd=ws)
        assert refused.returncode == 5, refused.stderr
        assert f"pid {owner.pid}" in refused.stderr
        assert "another OpenWorker window/process" in refused.stderr
        # `resume` leaves a turn another process is driving alone.
        assert "Nothing to resume" in cli("resume", cwd=ws).stdout
        db = database()
        history = ConversationStore(db).load(sid)
        assert [m["content"] for m in history if m["role"] == "user"] == ["talk for a long time"]
        db.close()
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.communicate(timeout=30)  # reads and closes its pipes
    assert owner.returncode == -signal.SIGKILL
    # The owner is gone (its lease is still in the table): the next driver takes over.
    taken = cli("run", "-s", sid, "--model", f"scripted:{reply}", "are you there?", cwd=ws)
    assert taken.returncode == 0, taken.stderr
    assert "Here now." in taken.stdout
    db = database()
    assert SessionLeases(db).get(sid) is None  # released at the end of its turn
    assert ConversationStore(db).get_session(sid).status == "idle"
    db.close()
