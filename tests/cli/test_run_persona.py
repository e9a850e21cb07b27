"""`openworker-qt run --persona NAME`: the session runs as that persona (its tools),
an unknown or disabled one is refused before anything is made, and `sessions` and
`show` say which persona a session used."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.agents.personas import BUILTIN_NAMES
from openworker_qt.cli import main
from openworker_qt.runtime import open_runtime


@pytest.fixture(autouse=True)
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.txt").write_text("The launch is on Tuesday.\n")
    monkeypatch.chdir(ws)
    return ws


def script(tmp_path: Path, name: str = "s.json") -> str:
    """The model reads notes.txt, then answers."""
    path = tmp_path / name
    path.write_text(json.dumps({"turns": [
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "notes.txt"}, "id": "r1"}]},
        {"text": "Done."},
    ]}))
    return f"scripted:{path}"


def sessions() -> list[Any]:
    rt = open_runtime()
    try:
        return rt.conversations.list_sessions()
    finally:
        rt.close()


def stored(capsys: pytest.CaptureFixture[str], sid: str) -> list[dict[str, Any]]:
    capsys.readouterr()
    assert main(["show", sid, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def read_result(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return next(m for m in messages if m["role"] == "tool")


def test_run_as_a_persona_offers_its_tools_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--persona", "chat", "--model", script(tmp_path), "what is in notes?"]) == 0
    (chat,) = sessions()
    assert chat.persona == "chat"
    result = read_result(stored(capsys, chat.id))
    assert result["status"] != "ok" and "Tuesday" not in json.dumps(result)
    # The same question as the code persona: read_file is offered and runs.
    assert main(["run", "--persona", "code", "--model", script(tmp_path, "t.json"), "and?"]) == 0
    code = next(s for s in sessions() if s.id != chat.id)
    assert code.persona == "code"
    assert "Tuesday" in json.dumps(read_result(stored(capsys, code.id)))
    # Continuing a session with another persona switches it from that turn on.
    assert main(["run", "-s", chat.id, "--persona", "code", "--model", script(tmp_path, "u.json"),
                 "again"]) == 0
    again = [m for m in stored(capsys, chat.id) if m["role"] == "tool"]
    assert "Tuesday" in json.dumps(again[-1])
    assert {s.id: s.persona for s in sessions()}[chat.id] == "code"


def test_an_unknown_or_disabled_persona_is_refused_and_nothing_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--persona", "nobody", "--model", script(tmp_path), "x"]) == 2
    err = capsys.readouterr().err
    assert "unknown persona 'nobody'" in err
    assert f"enabled personas: {', '.join(BUILTIN_NAMES)})" in err
    assert main(["personas", "disable", "myhelper"]) == 0
    capsys.readouterr()
    assert main(["run", "--persona", "myhelper", "--model", script(tmp_path), "x"]) == 2
    err = capsys.readouterr().err
    assert "persona 'myhelper' cannot be used: it is disabled" in err
    others = [n for n in BUILTIN_NAMES if n != "myhelper"]
    assert f"enabled personas: {', '.join(others)})" in err
    assert sessions() == []


def test_sessions_and_show_say_which_persona(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--persona", "code", "--model", script(tmp_path), "read it"]) == 0
    assert main(["run", "--persona", "ops", "--model", script(tmp_path, "t.json"), "hm"]) == 0
    ids = {s.persona: s.id for s in sessions()}
    capsys.readouterr()
    assert main(["sessions"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert lines[ids["code"]].split()[4] == "code"
    assert lines[ids["ops"]].split()[4] == "ops"
    assert main(["show", ids["code"]]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.endswith("·  persona: Code")
    # Ops switched off since: the listing and the transcript say what it runs as now.
    assert main(["personas", "disable", "ops"]) == 0
    capsys.readouterr()
    assert main(["sessions"]) == 0
    assert "ops (off)" in capsys.readouterr().out
    assert main(["show", ids["ops"]]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.endswith("·  persona: ops (not enabled: runs as Cowork)")
