"""Each session sees the global config narrowed by ITS folder's .openworker/config.toml,
whatever folder the runtime was opened in (the desktop opens it in none)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest
from openworker_qt.core.sessions import SessionManager
from openworker_qt.runtime import Runtime, open_runtime
from openworker_qt.storage import workspace_configs


@pytest.fixture
def runtime() -> Iterator[Runtime]:
    rt = open_runtime()  # as launch.main does: no workspace
    yield rt
    rt.close()


def folder(tmp_path: Path, name: str, settings: str | None = None) -> Path:
    ws = tmp_path / name
    (ws / ".openworker").mkdir(parents=True)
    if settings is not None:
        (ws / ".openworker" / "config.toml").write_text(settings)
    return ws


def write_script(tmp_path: Path) -> Path:
    script = tmp_path / "write.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "x.txt", "content": "x"}}]},
        {"text": "ok"},
    ]}))
    return script


async def approve(_request: ApprovalRequest) -> ApprovalOutcome:
    return ApprovalOutcome.ONCE


async def write_status(manager: SessionManager, sid: str) -> str:
    events = [e async for e in manager.run(sid, "write x")]
    [finished] = [e for e in events if isinstance(e, ev.ToolFinished)]
    return finished.status


async def test_a_session_gets_its_own_folders_settings_on_the_desktop_path(
    runtime: Runtime, tmp_path: Path
) -> None:
    discuss = folder(tmp_path, "discuss", '[permissions]\nmode = "discuss"\n')
    plain = folder(tmp_path, "plain")
    assert runtime.config.get("permissions.mode") == "interactive"  # no workspace layer
    manager = runtime.session_manager(approver_for=lambda _i: approve,
                                      default_model=f"scripted:{write_script(tmp_path)}")
    # A new session there starts in the folder's mode, whatever the picker said.
    new = manager.create_session(mode="interactive", workspace=str(discuss))
    assert new.mode == "discuss"
    assert await write_status(manager, new.id) == "denied"
    # One that was interactive before the file appeared is held to it as well.
    older = runtime.conversations.create_session(
        mode="auto", workspace=str(discuss), model=f"scripted:{write_script(tmp_path)}")
    assert await write_status(manager, older.id) == "denied"
    assert not (discuss / "x.txt").exists()
    # A session in another folder is not affected: approved, written.
    other = manager.create_session(mode="interactive", workspace=str(plain))
    assert other.mode == "interactive"
    assert await write_status(manager, other.id) == "ok"
    assert (plain / "x.txt").read_text() == "x"


async def test_per_session_settings_follow_the_folder(runtime: Runtime, tmp_path: Path) -> None:
    short = folder(tmp_path, "short", "[general]\nmax_iterations = 2\n")
    plain = folder(tmp_path, "plain")
    loop = tmp_path / "loop.json"
    loop.write_text(json.dumps([
        {"tool_calls": [{"name": "list_files", "arguments": {}}], "repeat": True}]))
    manager = runtime.session_manager(default_model=f"scripted:{loop}")
    a = manager.create_session(workspace=str(short))
    b = manager.create_session(workspace=str(plain))
    assert manager.engine(a.id).max_iterations == 2
    assert manager.engine(b.id).max_iterations == 25
    end = [e async for e in manager.run(a.id, "go")][-1]
    assert isinstance(end, ev.TurnEnded) and end.status == "max_iterations"


def test_config_for_is_cached_and_follows_edits(
    runtime: Runtime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = folder(tmp_path, "ws", '[permissions]\nmode = "plan"\n')
    settings = ws / ".openworker" / "config.toml"
    first = runtime.config_for(ws)
    assert first.get("permissions.mode") == "plan"
    assert runtime.config_for(str(ws)) is first  # cached: no stat, no parse
    settings.write_text('[permissions]\nmode = "discuss"\n')
    os.utime(settings, ns=(1, 1))  # another modification time, whatever the clock says
    assert runtime.config_for(ws) is first  # not looked at again within RECHECK_EVERY
    monkeypatch.setattr(workspace_configs, "RECHECK_EVERY", 0.0)
    second = runtime.config_for(ws)
    assert second.get("permissions.mode") == "discuss"
    assert runtime.config_for(ws) is second  # unchanged file: stat'ed, not parsed again
    settings.unlink()
    assert runtime.config_for(ws).get("permissions.mode") == "interactive"
    assert runtime.config_for(None) is runtime.config


def test_a_broken_folder_file_lets_its_sessions_only_read(
    runtime: Runtime, tmp_path: Path
) -> None:
    ws = folder(tmp_path, "ws", "[permissions\n")
    config = runtime.config_for(ws)
    assert config.error is not None and "invalid TOML" in config.error
    assert config.get("permissions.mode") == "discuss"
