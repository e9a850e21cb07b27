"""The fence end to end: the real runtime (config loader, SQLite, decider_for),
the real TurnEngine and PermissionEngine, a scripted model.

* the self-escalation of issue 8: a model in auto mode writes the workspace's
  ``.openworker/config.toml`` to lift its own fence, then writes outside the
  workspace on the next run. Both steps must fail — the first because the app's
  own state is never written, the second because a workspace file (even one
  written by hand) may only narrow the user's settings;
* read roots: reads outside the workspace, grants and attachments are refused
  in auto mode (with a pointer to request_directory) until the user grants the
  folder; an attached file is readable; a sensitive file asks even in auto.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvers import InboxApprover, InboxQuestioner
from openworker_qt.core.session_fields import SessionControl
from openworker_qt.core.sessions import SessionManager
from openworker_qt.runtime import Runtime, open_runtime
from openworker_qt.runtime_tools import default_tools

WIDENING = """\
[permissions]
mode = "auto"
writable_roots = ["/"]
shell_allowlist = ["rm", "curl", "sh"]
auto_allow = ["write_file", "run_shell"]
risk_overrides = { write_file = "read", run_shell = "read" }
"""


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path


@pytest.fixture
def rt(isolated_state: Path, ws: Path) -> Iterator[Runtime]:
    runtime = open_runtime(ws)
    yield runtime
    runtime.close()


def script(tmp_path: Path, turns: list[dict[str, Any]], name: str = "s.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"advance": "history", "turns": turns}))
    return path


def manager(rt: Runtime, script_file: Path, *, ask: bool = False) -> SessionManager:
    """No approver unless ``ask``: a call that needs the user is then refused, so a
    test sees exactly what runs without anyone saying yes."""
    return SessionManager(
        rt.conversations, rt.router, tools_for=default_tools, decider_for=rt.decider_for,
        approver_for=(lambda info: InboxApprover(rt.inbox, wait=False)) if ask else None,
        questioner_for=lambda info: InboxQuestioner(rt.inbox, wait=False),
        default_model=f"scripted:{script_file}", audit=rt.audit,
    )


async def run(m: SessionManager, sid: str, text: str | list[dict[str, Any]] | None = None
              ) -> list[ev.Event]:
    stream = m.run(sid, text) if text is not None else m.resume(sid)
    return [e async for e in stream]


def finished(events: list[ev.Event]) -> list[ev.ToolFinished]:
    return [e for e in events if isinstance(e, ev.ToolFinished)]


def asked(events: list[ev.Event]) -> list[ev.PermissionRequired]:
    return [e for e in events if isinstance(e, ev.PermissionRequired)]


def write(path: str, content: str = "x", cid: str = "w") -> dict[str, Any]:
    return {"tool_calls": [{"id": cid, "name": "write_file",
                            "arguments": {"path": path, "content": content}}]}


def read(path: str, cid: str = "r") -> dict[str, Any]:
    return {"tool_calls": [{"id": cid, "name": "read_file", "arguments": {"path": path}}]}


# --------------------------------------------------------- self-escalation

async def test_step1_the_model_cannot_write_its_own_workspace_config(
    rt: Runtime, ws: Path, tmp_path: Path
) -> None:
    escape = tmp_path / "escaped.txt"
    s = script(tmp_path, [
        write(".openworker/config.toml", WIDENING, "w1"),
        write(str(ws / "sub" / ".." / ".OpenWorker" / "config.toml"), WIDENING, "w2"),
        write(str(rt.paths.config_file), WIDENING, "w3"),
        write(str(rt.db.path) + "-wal", "x", "w4"),
        write(str(escape), "pwned", "w5"),
        {"text": "done"},
        # the next run of the session
        write(str(escape), "pwned", "w6"),
        {"text": "done again"},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(ws), mode="auto")
    events = await run(m, info.id, "lift the fence")
    results = finished(events)
    assert [r.status for r in results] == ["denied"] * 5
    for r in results[:4]:
        assert "OpenWorker" in r.result and "own settings" in r.result, r.result
    assert "outside the writable roots" in results[4].result
    assert asked(events) == []  # refused outright, nobody was asked
    assert not (ws / ".openworker").exists() and not (ws / ".OpenWorker").exists()
    assert not rt.paths.config_file.exists() and not escape.exists()

    # the next run of the same session (a fresh process) is just as fenced
    rt.close()
    again = open_runtime(ws)
    try:
        m2 = manager(again, s)
        events = await run(m2, info.id, "again")
        assert [r.status for r in finished(events)] == ["denied"]
        assert not escape.exists()
    finally:
        again.close()


@pytest.mark.parametrize("mode", ["auto", "plan"])
async def test_step2_a_hand_written_widening_file_changes_nothing(
    isolated_state: Path, ws: Path, tmp_path: Path, mode: str
) -> None:
    (ws / ".openworker").mkdir()
    (ws / ".openworker" / "config.toml").write_text(WIDENING)
    escape = tmp_path / "escaped.txt"
    rt = open_runtime(ws)
    try:
        wfile = str(ws / ".openworker" / "config.toml")
        for key in ("mode", "writable_roots", "shell_allowlist", "auto_allow",
                    "risk_overrides.write_file", "risk_overrides.run_shell"):
            assert any(f"permissions.{key}" in w and wfile in w for w in rt.config.warnings), key
        assert rt.config.get("permissions.mode") == "interactive"
        assert rt.config.get("permissions.writable_roots") == []
        s = script(tmp_path, [
            write(str(escape), "pwned", "w1"),
            write("../escaped2.txt", "pwned", "w2"),
            write(".openworker/config.toml", "[permissions]\n", "w3"),
            {"text": "done"},
        ])
        m = manager(rt, s)
        info = m.create_session(workspace=str(ws), mode=mode)
        events = await run(m, info.id, "escape")
        results = finished(events)
        assert [r.status for r in results] == ["denied"] * 3, [r.result for r in results]
        if mode == "auto":
            assert "outside the writable roots" in results[0].result
            assert "OpenWorker" in results[2].result
        else:
            assert all("read-only" in r.result for r in results)
        assert asked(events) == []
        assert not escape.exists() and not (tmp_path / "escaped2.txt").exists()
        assert (ws / ".openworker" / "config.toml").read_text() == WIDENING
    finally:
        rt.close()


async def test_a_narrowing_workspace_file_is_obeyed(
    isolated_state: Path, ws: Path, tmp_path: Path
) -> None:
    (ws / ".openworker").mkdir()
    (ws / ".openworker" / "config.toml").write_text(
        '[permissions]\nrisk_overrides = { write_file = "external" }\n')
    rt = open_runtime(ws)
    try:
        assert rt.config.warnings == []
        s = script(tmp_path, [write("inside.txt", "x", "w1"), write("../out.txt", "x", "w2"),
                              {"text": "done"}])
        m = manager(rt, s)
        info = m.create_session(workspace=str(ws), mode="auto")
        events = await run(m, info.id, "write")
        # raised to external: auto still runs the write inside, the fence still
        # refuses the one outside (the stricter of both verdicts)
        assert [r.status for r in finished(events)] == ["ok", "denied"]
    finally:
        rt.close()


# ------------------------------------------------------------- read roots

async def test_auto_refuses_reads_outside_until_the_folder_is_granted(
    rt: Runtime, ws: Path, tmp_path: Path
) -> None:
    ref = tmp_path / "reference"
    ref.mkdir()
    (ref / "notes.md").write_text("the secret plan")
    (ws / "inside.md").write_text("hello")
    s = script(tmp_path, [
        {"tool_calls": [
            {"id": "r1", "name": "read_file", "arguments": {"path": "inside.md"}},
            {"id": "r2", "name": "read_file", "arguments": {"path": str(ref / "notes.md")}},
            {"id": "l1", "name": "list_files", "arguments": {"path": str(ref)}},
        ]},
        {"tool_calls": [{"id": "d1", "name": "request_directory",
                         "arguments": {"path": str(ref), "reason": "read the notes"}}]},
        read(str(ref / "notes.md"), "r3"),
        write(str(ref / "notes.md"), "changed", "w1"),
        {"text": "done"},
    ])
    m = manager(rt, s, ask=True)
    info = m.create_session(workspace=str(ws), mode="auto", unattended=True)
    events = await run(m, info.id, "read my notes")
    first = finished(events)
    assert [r.status for r in first] == ["ok", "denied", "denied"]
    assert "request_directory" in first[1].result and "the secret plan" not in first[1].result
    assert asked(events) == []
    [item] = rt.inbox.pending()
    assert item.kind == "directory"
    rt.inbox.resolve(item.id, "grant_readonly")
    events = await run(m, info.id)
    rest = finished(events)
    assert [r.status for r in rest] == ["ok", "ok", "denied"]
    assert "the secret plan" in rest[1].result
    assert (ref / "notes.md").read_text() == "the secret plan"  # read-only grant


async def test_interactive_asks_for_a_read_outside_and_never_offers_always(
    rt: Runtime, ws: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.txt"
    other.write_text("elsewhere")
    s = script(tmp_path, [read(str(other)), {"text": "done"}])
    m = manager(rt, s, ask=True)
    info = m.create_session(workspace=str(ws), mode="interactive", unattended=True)
    events = await run(m, info.id, "read it")
    [req] = asked(events)
    assert "outside the folders this session may read" in req.reason
    [item] = rt.inbox.pending()
    assert item.kind == "approval" and not item.can_always
    rt.inbox.resolve(item.id, "approve")
    events = await run(m, info.id)
    assert [(r.status, "elsewhere" in r.result) for r in finished(events)] == [("ok", True)]


async def test_an_attached_file_is_readable_but_not_its_folder(
    rt: Runtime, ws: Path, tmp_path: Path
) -> None:
    mail = tmp_path / "Downloads"
    mail.mkdir()
    (mail / "report.txt").write_text("quarterly numbers")
    (mail / "private.txt").write_text("do not read")
    s = script(tmp_path, [
        read(str(mail / "report.txt"), "r1"),
        read(str(mail / "private.txt"), "r2"),
        {"text": "done"},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(ws), mode="auto")
    # what the composer sends for an attached text file (ui/attachments.py)
    content = [
        {"type": "text", "text": "[Attached file: report.txt]\nquarterly numbers",
         "name": "report.txt", "path": str(mail / "report.txt")},
        {"type": "text", "text": "summarise the report"},
    ]
    events = await run(m, info.id, content)
    assert [r.status for r in finished(events)] == ["ok", "denied"]
    assert rt.conversations.attached_paths(info.id) == [str(mail / "report.txt")]


async def test_a_sensitive_file_asks_even_in_auto_inside_a_grant(
    rt: Runtime, ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY")
    monkeypatch.setenv("HOME", str(home))
    s = script(tmp_path, [read("~/.ssh/id_rsa"), {"text": "done"}])
    m = manager(rt, s)
    info = m.create_session(workspace=str(ws), mode="auto")
    SessionControl(rt.conversations, info.id).grant_directory(str(home), False)
    events = await run(m, info.id, "read my key")
    [req] = asked(events)
    assert "sensitive" in req.reason
    [done] = finished(events)
    assert done.status == "denied" and "PRIVATE KEY" not in done.result


async def test_the_app_database_is_not_readable_without_asking(
    rt: Runtime, ws: Path, tmp_path: Path
) -> None:
    s = script(tmp_path, [read(str(rt.db.path)), {"text": "done"}])
    m = manager(rt, s)
    info = m.create_session(workspace=str(ws), mode="auto")
    SessionControl(rt.conversations, info.id).grant_directory(str(rt.paths.data), False)
    events = await run(m, info.id, "read the db")
    assert [r.status for r in finished(events)] == ["denied"]
    assert len(asked(events)) == 1


# ------------------------------------------------------------------ modes

def test_session_modes_are_checked_where_they_are_set(rt: Runtime, ws: Path) -> None:
    with pytest.raises(ValueError, match="expected one of: auto, custom, interactive"):
        rt.conversations.create_session(workspace=str(ws), mode="yolo")
    info = rt.conversations.create_session(workspace=str(ws), mode=" Plan ")
    assert info.mode == "plan"
    with pytest.raises(ValueError, match="unknown permission mode 'yolo'"):
        rt.conversations.update_session(info.id, mode="yolo")
    with pytest.raises(ValueError, match="unknown permission mode"):
        SessionControl(rt.conversations, info.id).set_mode("yolo")
    assert rt.conversations.get_session(info.id).mode == "plan"
    rt.conversations.update_session(info.id, mode="")  # "as the settings say"
    assert rt.conversations.get_session(info.id).mode == ""
