"""How long a tool call ran is stored with its result, so a card reopened after a
restart still says "Ran “…” · exit 0 · 0.3 s"; results stored before durations
were kept still load, without one.

A real turn: the scripted model asks for ``run_shell``, the inbox approves it,
the real shell runs the command, the result goes to a real SQLite store. The
session is then opened from the database into a new model and a real transcript
view, as the window does after a restart.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.messages import tool_result
from openworker_qt.domain.messages import AssistantMessage, ToolCall
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.qt.transcript_reducer import newest_page
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.tools import shell
from openworker_qt.tools.shell import shell_tools
from openworker_qt.ui.transcript_view import TranscriptView
from tests.qt.helpers import World

SLEEP = {"id": "s1", "name": "run_shell", "arguments": {"command": "sleep 0.3"}}


def _asks(call: ToolCall) -> AssistantMessage:
    return {"role": "assistant", "content": "", "tool_calls": [call], "ts": 1.0}


def _reopened_cards(qtbot: Any, db_path: Path, sid: str) -> list[str]:
    """The first line of each tool card of ``sid``, opened afresh from the database."""
    db = Database(db_path)
    try:
        page, before = newest_page(ConversationStore(db), sid)
    finally:
        db.close()
    assert before is None
    model = TranscriptModel()
    model.reset(sid, page)
    view = TranscriptView()
    qtbot.addWidget(view)
    view.setModel(model)
    return [view.delegate._plain_body(i).splitlines()[0] for i in model.items if i.kind == "tool"]


async def _nap(world: World, sid: str) -> None:
    task = world.manager.send(sid, "nap")
    assert task is not None
    assert await task == "completed"
    await world.manager.shutdown(grace=1.0)
    await shell.close_all()  # the session's shell goes (as the runtime's stop does)


def test_a_reopened_session_says_how_long_a_command_ran(qloop, qtbot, tmp_path: Path) -> None:
    world = World(tmp_path, [{"tool_calls": [SLEEP]}, {"text": "Slept."}], tools=shell_tools())
    world.answers["s1"] = "once"
    sid = world.session()
    try:
        qloop.run_until_complete(_nap(world, sid))
        stored = [m for m in world.store.load(sid) if m["role"] == "tool"]
    finally:
        world.close()
    assert len(stored) == 1 and stored[0]["status"] == "ok"
    duration = stored[0].get("duration")
    assert isinstance(duration, float) and duration >= 0.3
    # live, the card showed the figure stored
    (finished,) = [e for e in world.events() if isinstance(e, ev.ToolFinished)]
    assert finished.duration == duration
    # reopened from the database (the app restarted), it still does
    (card,) = _reopened_cards(qtbot, tmp_path / "state.sqlite3", sid)
    assert re.fullmatch(r"Ran “sleep 0\.3” · exit 0 · \d+\.\d s", card), card
    assert card.endswith(f" · {duration:.1f} s")


def test_a_result_stored_without_a_duration_still_opens(qtbot, tmp_path: Path) -> None:
    db_path = tmp_path / "state.sqlite3"
    db = Database(db_path)
    store = ConversationStore(db)
    sid = store.create_session(workspace=str(tmp_path)).id
    call: ToolCall = {"id": "c1", "type": "function",
                      "function": {"name": "run_shell", "arguments": '{"command": "ls"}'}}
    store.append(sid, _asks(call))
    old = dict(tool_result("c1", "run_shell", '{"exit_code": 0, "output": "a.txt"}'))
    assert "duration" not in old  # as every result stored before durations were kept
    store.append(sid, old)
    # and one a hand-edited (or corrupted) database holds
    store.append(sid, _asks({**call, "id": "c2"}))
    store.append(sid, {**tool_result("c2", "run_shell", '{"exit_code": 1}'), "duration": "long"})
    db.close()
    cards = _reopened_cards(qtbot, db_path, sid)
    assert cards == ["Ran “ls” · exit 0", "Ran “ls” · exit 1"]
