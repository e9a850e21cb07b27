"""`openworker-qt tools`: what a new session would be offered, with risk, origin and
what the mode's real permission engine does with each tool."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openworker_qt.agents.personas import BUILTIN_NAMES
from openworker_qt.cli import main


def listing(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, dict[str, object]]:
    assert main(["tools", "--json", *args]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return {str(r["name"]): r for r in rows}


@pytest.fixture(autouse=True)
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    monkeypatch.chdir(ws)
    return ws


def test_lists_every_session_tool_with_risk_origin_and_verdict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = listing(capsys, "--mode", "interactive")
    assert {"read_file", "list_files", "write_file", "ask_user"} <= set(rows)
    assert {r["origin"] for r in rows.values()} == {"builtin"}
    # Reads are fenced too: allowed inside the read roots, asked outside them.
    read = rows["read_file"]
    assert (read["risk"], read["decision"]) == ("read", "depends on target")
    assert read["by_target"]["inside the workspace"] == "allow"
    assert read["by_target"]["outside its folders"] == "ask"
    assert (rows["write_file"]["risk"], rows["write_file"]["decision"]) == ("write_local", "ask")
    assert rows["ask_user"]["interaction"] == "question"


def test_modes_change_the_verdict_and_say_when_it_depends_on_the_target(
    capsys: pytest.CaptureFixture[str],
) -> None:
    plan = listing(capsys, "--mode", "plan")
    assert plan["write_file"]["decision"] == "refuse"
    # read-only: no memory saved either (reading them works)
    assert {plan[n]["decision"] for n in ("remember", "memory_update", "memory_forget")} == {
        "refuse"}
    assert plan["memory_read"]["decision"] == "allow"
    auto = listing(capsys, "--mode", "auto")
    write = auto["write_file"]
    assert write["decision"] == "depends on target"
    assert write["by_target"] == {
        "no target": "ask", "inside the workspace": "allow", "outside its folders": "refuse",
    }


@pytest.mark.parametrize("where", ["temp folder in the workspace", "writable root"])
def test_auto_mode_says_outside_writes_are_refused_wherever_the_temp_folder_is(
    capsys: pytest.CaptureFixture[str], workspace: Path, isolated_state: Path,
    monkeypatch: pytest.MonkeyPatch, where: str,
) -> None:
    # The probe "outside" used to be a file in the temporary folder: with the temp
    # folder inside the workspace (or a writable root) it said "allow" for writes
    # the fence refuses anywhere outside the session's folders.
    import tempfile

    if where == "writable root":
        elsewhere = workspace.parent / "scratch"
        elsewhere.mkdir()
        config = isolated_state / "config" / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(f'[permissions]\nwritable_roots = ["{elsewhere}"]\n')
        monkeypatch.setattr(tempfile, "tempdir", str(elsewhere))
    else:
        (workspace / "tmp").mkdir()
        monkeypatch.setattr(tempfile, "tempdir", str(workspace / "tmp"))
    rows = listing(capsys, "--mode", "auto")
    for name in ("write_file", "replace_in_file", "apply_patch", "create_deliverable"):
        assert rows[name]["by_target"]["inside the workspace"] == "allow", name
        assert rows[name]["by_target"]["outside its folders"] == "refuse", name
    assert rows["read_file"]["by_target"]["outside its folders"] == "refuse"
    # Scheduling a task asks, in auto mode too.
    for name in ("create_automation", "update_automation", "delete_automation"):
        assert rows[name]["decision"] == "ask", name
    assert main(["tools", "--mode", "auto", "--no-mcp"]) == 0
    out = capsys.readouterr().out
    assert f"Its folders: writable {workspace}" in out
    line = next(x for x in out.splitlines() if x.startswith("write_file "))
    assert "inside the workspace: allow; outside its folders: refuse" in line


def test_the_users_override_shows(capsys: pytest.CaptureFixture[str], isolated_state: Path) -> None:
    config = isolated_state / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[permissions]\nmode = "plan"\n[permissions.risk_overrides]\n'
                      'read_file = "external"\n')
    rows = listing(capsys)  # mode from the config
    assert rows["read_file"]["mode"] == "plan"
    assert (rows["read_file"]["risk"], rows["read_file"]["decision"]) == ("external", "refuse")


def test_text_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", "--mode", "auto"]) == 0
    out = capsys.readouterr().out
    assert "mode: auto · persona: cowork" in out
    line = next(x for x in out.splitlines() if x.startswith("write_file"))
    assert "write_local" in line and "builtin" in line and "depends on target" in line


def test_each_persona_lists_exactly_its_tools(capsys: pytest.CaptureFixture[str]) -> None:
    from openworker_qt.agents.families import family_of
    from openworker_qt.agents.personas import builtin_personas
    from openworker_qt.runtime import open_runtime

    rt = open_runtime()
    try:
        every = {t.name: family_of(t) for t in rt.tools_with_explorer("")(
            rt.conversations.create_session(workspace=str(Path.cwd())))}
    finally:
        rt.close()
    assert "explore" in every and "create_deliverable" in every
    for name, persona in builtin_personas().items():
        rows = listing(capsys, "--persona", name)
        assert all(r["persona"] == name for r in rows.values())
        assert set(rows) == {t for t, family in every.items() if family in persona.tools}, name
    code = listing(capsys, "--persona", "code")
    assert {"run_shell", "git_status", "explore"} <= set(code)
    assert "create_deliverable" not in code
    assert "create_deliverable" in listing(capsys)  # the default: cowork
    assert listing(capsys, "--persona", "chat") == {}
    assert main(["tools", "--persona", "chat"]) == 0
    assert "offered no tools" in capsys.readouterr().out


def test_an_unknown_or_disabled_persona_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", "--persona", "nobody"]) == 2
    err = capsys.readouterr().err
    assert "unknown persona 'nobody'" in err
    assert f"enabled personas: {', '.join(BUILTIN_NAMES)})" in err
    assert main(["personas", "disable", "ops"]) == 0
    capsys.readouterr()
    assert main(["tools", "--persona", "ops"]) == 2
    err = capsys.readouterr().err
    assert "persona 'ops' cannot be used: it is disabled" in err
    assert "openworker-qt personas enable ops" in err
    others = [n for n in BUILTIN_NAMES if n != "ops"]
    assert f"enabled personas: {', '.join(others)})" in err


def test_each_allowlisted_command_shows_what_it_really_gets(
    capsys: pytest.CaptureFixture[str], isolated_state: Path
) -> None:
    config = isolated_state / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[permissions]\nshell_allowlist = ["ls", "make", "env", "cd", "printf"]\n')
    shell = listing(capsys, "--mode", "auto")["run_shell"]
    assert shell["decision"] == "depends on target"
    got = shell["by_target"]
    assert got["allowlisted 'ls'"] == "allow" and got["allowlisted 'printf'"] == "allow"
    for entry in ("make", "env", "cd"):  # they run other programs or change the shell
        assert got[f"allowlisted '{entry}'"] == "ask", entry
