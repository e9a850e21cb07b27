"""The headless CLI, run as a real subprocess like a user would."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest


def script(tmp_path: Path, turns: list[dict]) -> Path:
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"turns": turns}))
    return path


def owq(*args: str, cwd: Path, stdin: object = subprocess.DEVNULL, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "openworker_qt", *args],
        cwd=cwd,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=os.environ.copy(),
    )


WRITE_TURNS = [
    {"text": "Writing it.", "tool_calls": [{"name": "write_file", "arguments": {"path": "out.md", "content": "# Brief\n"}}]},
    {"text": "Done."},
]


def test_run_streams_and_exits_zero(tmp_path: Path) -> None:
    s = script(tmp_path, [{"chunks": ["Hello", ", ", "world"]}])
    res = owq("run", "--model", f"scripted:{s}", "say hello", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "Hello, world" in res.stdout
    assert "completed" in res.stderr


def test_yes_approves_and_writes(tmp_path: Path) -> None:
    s = script(tmp_path, WRITE_TURNS)
    res = owq("run", "-y", "--model", f"scripted:{s}", "write the brief", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "out.md").read_text() == "# Brief\n"
    assert "write_file" in res.stdout


def test_nobody_at_the_terminal_means_denied(tmp_path: Path) -> None:
    s = script(tmp_path, WRITE_TURNS)
    res = owq("run", "--model", f"scripted:{s}", "write the brief", cwd=tmp_path)
    assert res.returncode == 0
    assert not (tmp_path / "out.md").exists()
    assert "nobody is at the terminal" in res.stderr
    assert "denied" in res.stdout


@pytest.mark.parametrize(("answer", "written"), [("y", True), ("n", False)])
def test_terminal_prompt(tmp_path: Path, answer: str, written: bool) -> None:
    s = script(tmp_path, WRITE_TURNS)
    master, slave = pty.openpty()
    try:
        os.write(master, f"{answer}\n".encode())
        res = owq("run", "--model", f"scripted:{s}", "write the brief", cwd=tmp_path, stdin=slave)
    finally:
        os.close(slave)
        os.close(master)
    assert res.returncode == 0, res.stderr
    assert "Allow?" in res.stderr
    assert (tmp_path / "out.md").exists() is written


def test_exit_status_reflects_error_and_cap(tmp_path: Path) -> None:
    err = script(tmp_path, [{"chunks": ["par"], "error": "boom", "error_kind": "server"}])
    res = owq("run", "--model", f"scripted:{err}", "x", cwd=tmp_path)
    assert res.returncode == 1
    assert "boom" in res.stdout
    loop = tmp_path / "loop.json"
    loop.write_text(json.dumps([{"tool_calls": [{"name": "list_files", "arguments": {}}], "repeat": True}]))
    res = owq("run", "--max-iterations", "2", "--model", f"scripted:{loop}", "x", cwd=tmp_path)
    assert res.returncode == 3
    # (the same call after its result: the model may not see tool results, issue 31)
    assert "the model kept asking for the same thing (list_files" in res.stdout
    steps = tmp_path / "steps.json"
    steps.write_text(json.dumps([{"tool_calls": [{"name": "list_files", "arguments": {"path": p}}]}
                                 for p in (".", "sub")]))
    (tmp_path / "sub").mkdir()
    res = owq("run", "--max-iterations", "2", "--model", f"scripted:{steps}", "x", cwd=tmp_path)
    assert res.returncode == 3
    assert "iteration limit (2)" in res.stdout


def test_an_empty_answer_is_an_error_not_a_completed_turn(tmp_path: Path) -> None:
    # A local server that answered HTTP 200 and then nothing (issue 31): the user is told,
    # and a script running the command sees it failed.
    s = script(tmp_path, [{"text": ""}])
    res = owq("run", "--model", f"scripted:{s}", "x", cwd=tmp_path)
    assert res.returncode == 1, (res.stdout, res.stderr)
    assert "without saying anything" in res.stdout + res.stderr
    assert "completed" not in res.stderr


def test_an_iteration_limit_out_of_range_is_refused(tmp_path: Path) -> None:
    ok = script(tmp_path, [{"text": "hi"}])
    for bad in ("0", "-5"):
        res = owq("run", "--max-iterations", bad, "--model", f"scripted:{ok}", "x", cwd=tmp_path)
        assert res.returncode == 2 and "from 1 to 1000" in res.stderr
    cfg = Path(os.environ["OPENWORKER_HOME"]) / "config" / "config.toml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text("[general]\nmax_iterations = 0\n")
    res = owq("run", "--model", f"scripted:{ok}", "x", cwd=tmp_path)
    assert res.returncode == 2
    assert "'general.max_iterations' = 0 is out of range" in res.stderr and "1 to 1000" in res.stderr


def test_bad_script_and_missing_model_are_clear(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"turns": [ {"text": "x"}, ]}')
    res = owq("run", "--model", f"scripted:{bad}", "x", cwd=tmp_path)
    assert res.returncode == 2
    assert "bad.json" in res.stderr and "invalid JSON" in res.stderr
    res = owq("run", "x", cwd=tmp_path)
    assert res.returncode == 2
    assert "no model chosen" in res.stderr


def test_malformed_config_is_a_clear_error(tmp_path: Path) -> None:
    cfg = Path(os.environ["OPENWORKER_HOME"]) / "config" / "config.toml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text("[general\n")
    res = owq("sessions", cwd=tmp_path)
    assert res.returncode == 2
    assert "config.toml" in res.stderr and "line 1" in res.stderr


def test_sessions_show_and_continue(tmp_path: Path) -> None:
    s = script(tmp_path, [{"text": "First answer."}, {"text": "Second answer."}])
    assert owq("run", "--model", f"scripted:{s}", "first question", cwd=tmp_path).returncode == 0
    listing = owq("sessions", cwd=tmp_path)
    assert "first question" in listing.stdout
    sid = listing.stdout.split()[0]
    # A new process: the scripted provider starts from the first turn again.
    s2 = script(tmp_path, [{"text": "Second answer."}])
    cont = owq("run", "--session", sid[:6], "--model", f"scripted:{s2}", "second question", cwd=tmp_path)
    assert cont.returncode == 0, cont.stderr
    shown = owq("show", sid, cwd=tmp_path)
    out = shown.stdout
    assert out.index("first question") < out.index("First answer.") < out.index("second question")
    assert "Second answer." in out
    as_json = owq("show", sid, "--json", cwd=tmp_path)
    roles = [json.loads(line)["role"] for line in as_json.stdout.splitlines()]
    assert roles == ["user", "assistant", "user", "assistant"]


def test_json_event_stream(tmp_path: Path) -> None:
    s = script(tmp_path, [{"chunks": ["a", "b"]}])
    res = owq("run", "--json", "--model", f"scripted:{s}", "x", cwd=tmp_path)
    kinds = [json.loads(line)["type"] for line in res.stdout.splitlines()]
    assert kinds == ["turn_start", "user_message", "assistant_delta", "assistant_delta", "assistant_message", "turn_end"]


def test_ctrl_c_stops_the_turn_cleanly(tmp_path: Path) -> None:
    import signal
    import time

    s = script(tmp_path, [{"chunks": ["tick "] * 400, "delay": 0.02}])
    proc = subprocess.Popen(
        [sys.executable, "-m", "openworker_qt", "run", "--model", f"scripted:{s}", "count"],
        cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    proc.stdout.read(10)  # wait until the stream has begun
    time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Stopped." in out


def test_keys_set_list_delete_never_print_values(tmp_path: Path) -> None:
    # The subprocess gets its own in-memory keyring, so this checks the plumbing and
    # that values are never echoed; persistence is covered in tests/security.
    res = subprocess.run(
        [sys.executable, "-m", "openworker_qt", "keys", "set", "openai"],
        input="sk-abc123456789\n", capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    assert "OPENAI_API_KEY stored" in res.stdout
    assert "sk-abc" not in res.stdout + res.stderr
    res = owq("keys", "set", "ollama", cwd=tmp_path)
    assert res.returncode == 2 and "needs no key" in res.stderr


def test_modes_from_the_command_line(tmp_path: Path) -> None:
    s = script(tmp_path, WRITE_TURNS)
    res = owq("run", "--mode", "auto", "--model", f"scripted:{s}", "write", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "out.md").exists()  # auto: a write inside the workspace needs no approval
    (tmp_path / "out.md").unlink()
    res = owq("run", "--mode", "discuss", "--model", f"scripted:{s}", "write", cwd=tmp_path)
    assert not (tmp_path / "out.md").exists()
    assert "read-only" in res.stdout
    outside = script(tmp_path, [
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "../escape.md", "content": "x"}}]},
        {"text": "ok"},
    ])
    ws = tmp_path / "ws"
    ws.mkdir()
    res = owq("run", "--mode", "auto", "--model", f"scripted:{outside}", "write", cwd=ws)
    assert not (tmp_path / "escape.md").exists()
    assert "outside" in res.stdout


def test_app_without_a_display_says_so_clearly(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    res = subprocess.run([sys.executable, "-m", "openworker_qt"], capture_output=True, text=True,
                         timeout=60, env=env, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert res.returncode == 2
    assert "needs a graphical session" in res.stderr and "openworker-qt run" in res.stderr


WIDENING = (
    '[permissions]\nmode = "auto"\nwritable_roots = ["/"]\n'
    'risk_overrides = { write_file = "read" }\n'
)


def test_self_escalation_fails_through_the_cli(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    # step 1: in auto mode the model writes the workspace's own config, then escapes
    s = script(tmp_path, [
        {"tool_calls": [{"name": "write_file",
                         "arguments": {"path": ".openworker/config.toml", "content": WIDENING}}]},
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "../escape.md", "content": "x"}}]},
        {"text": "done"},
    ])
    res = owq("run", "--mode", "auto", "--model", f"scripted:{s}", "lift the fence", cwd=ws)
    assert res.returncode == 0, res.stderr
    assert not (ws / ".openworker").exists() and not (tmp_path / "escape.md").exists()
    assert "own settings" in res.stdout and "outside" in res.stdout
    # step 2: the same file written by hand widens nothing, in auto and plan mode
    (ws / ".openworker").mkdir()
    (ws / ".openworker" / "config.toml").write_text(WIDENING)
    escape = script(tmp_path, [
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "../escape.md", "content": "x"}}]},
        {"text": "done"},
    ])
    for mode in ("auto", "plan"):
        res = owq("run", "--mode", mode, "--model", f"scripted:{escape}", "escape", cwd=ws)
        assert res.returncode == 0, res.stderr
        assert not (tmp_path / "escape.md").exists()
        warnings = [line for line in res.stderr.splitlines() if line.startswith("warning:")]
        wfile = str(ws / ".openworker" / "config.toml")
        for key in ("permissions.mode", "permissions.writable_roots",
                    "permissions.risk_overrides.write_file"):
            assert any(key in w and wfile in w for w in warnings), (key, res.stderr)


def test_unknown_modes_are_errors_naming_the_valid_ones(tmp_path: Path) -> None:
    s = script(tmp_path, [{"text": "hi"}])
    res = owq("run", "--mode", "yolo", "--model", f"scripted:{s}", "x", cwd=tmp_path)
    assert res.returncode == 2
    assert "yolo" in res.stderr and "interactive" in res.stderr and "discuss" in res.stderr
    cfg = Path(os.environ["OPENWORKER_HOME"]) / "config" / "config.toml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text('[permissions]\nmode = "yolo"\n')
    res = owq("run", "--model", f"scripted:{s}", "x", cwd=tmp_path)
    assert res.returncode == 2
    assert "'yolo'" in res.stderr and "permissions.mode" in res.stderr
    for name in ("discuss", "plan", "interactive", "auto", "custom"):
        assert name in res.stderr


def test_retry_runs_the_failed_turn_again(tmp_path: Path) -> None:
    s = script(tmp_path, [{"chunks": ["par"], "error": "boom", "error_kind": "server"}])
    first = owq("run", "--model", f"scripted:{s}", "do it", cwd=tmp_path)
    assert first.returncode == 1
    sid = first.stderr.split("[session ")[1].split(" ")[0]
    script(tmp_path, [{"text": "Worked this time."}])  # the provider recovers
    again = owq("retry", cwd=tmp_path)  # the latest session by default
    assert again.returncode == 0, again.stderr
    assert "Worked this time." in again.stdout and f"[session {sid} · completed]" in again.stderr
    shown = owq("show", "--json", sid, cwd=tmp_path).stdout.splitlines()
    assert [json.loads(m)["role"] for m in shown][-2:] == ["notice", "assistant"]
    nothing = owq("retry", sid[:6], cwd=tmp_path)
    assert nothing.returncode == 0 and "Nothing to retry" in nothing.stdout
    assert owq("retry", "nosuch", cwd=tmp_path).returncode == 2


def test_output_closed_early_exits_quietly(tmp_path: Path) -> None:
    s = script(tmp_path, [{"text": "hi"}])
    for _ in range(3):
        assert owq("run", "--model", f"scripted:{s}", "x", cwd=tmp_path).returncode == 0
    read_end, write_end = os.pipe()
    os.close(read_end)  # like `| head -1` after its line: the reader is gone
    try:
        done = subprocess.run(
            [sys.executable, "-m", "openworker_qt", "sessions"], cwd=tmp_path,
            stdin=subprocess.DEVNULL, stdout=write_end, stderr=subprocess.PIPE, text=True,
            timeout=60, env=os.environ.copy(),
        )
    finally:
        os.close(write_end)
    assert done.stderr == ""  # no BrokenPipeError traceback, no "Exception ignored"
    assert done.returncode == 141


def test_run_s_applies_the_sessions_folder_settings_not_the_current_ones(tmp_path: Path) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    s = tmp_path / "script.json"
    s.write_text(json.dumps({"advance": "history", "turns": [{"text": "Noted."}, *WRITE_TURNS]}))
    first = owq("run", "--model", f"scripted:{s}", "hello", cwd=there)
    assert first.returncode == 0, first.stderr
    sid = first.stderr.split("[session ")[1].split(" ")[0]
    # The session's folder gets settings afterwards; the command runs from another folder.
    (there / ".openworker").mkdir()
    (there / ".openworker" / "config.toml").write_text(
        '[permissions]\nmode = "discuss"\n[general]\ndefault_model = "openai:gpt-5"\n')
    res = owq("run", "-s", sid, "--yes", "write the brief", cwd=here)
    assert res.returncode == 0, res.stderr
    assert "denied" in res.stdout and not (there / "out.md").exists()
    assert "keep its sessions in discuss mode" in res.stderr
    assert "'general.default_model' cannot be set by a workspace" in res.stderr
    # Settings in the current folder do not apply to a session elsewhere.
    (here / ".openworker").mkdir()
    (here / ".openworker" / "config.toml").write_text("[permissions\n")  # broken, and not its
    (there / ".openworker" / "config.toml").unlink()
    s.write_text(json.dumps({"turns": WRITE_TURNS}))
    res = owq("run", "-s", sid, "--yes", "now write it", cwd=here)
    assert res.returncode == 0, res.stderr
    assert (there / "out.md").read_text() == "# Brief\n"


def test_show_streams_a_long_session_page_by_page(tmp_path: Path) -> None:
    """``show`` of a session longer than one page prints every message, in order,
    read a page at a time (constant memory)."""
    from openworker_qt.storage.conversations import OLDER_CHUNK, ConversationStore
    from openworker_qt.storage.db import Database
    from openworker_qt.storage.paths import app_paths

    paths = app_paths().ensure()
    db = Database(paths.database)
    store = ConversationStore(db)
    sid = store.create_session(title="long one").id
    total = OLDER_CHUNK * 2 + 7
    with store.batch():
        for i in range(total):
            role = "user" if i % 2 == 0 else "assistant"
            store.append(sid, {"role": role, "content": f"message {i}"})
    queries: list[str] = []
    db._home.conn.set_trace_callback(queries.append)
    assert [m["content"] for m in store.iter_messages(sid)] == [f"message {i}" for i in range(total)]
    assert sum("FROM messages" in q for q in queries) == 3  # a page per query
    db.close()
    shown = owq("show", "--json", sid, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert [json.loads(line)["content"] for line in shown.stdout.splitlines()] == [
        f"message {i}" for i in range(total)]
    text = owq("show", sid, cwd=tmp_path).stdout
    assert text.startswith("# long one") and text.rstrip().endswith(f"message {total - 1}")
