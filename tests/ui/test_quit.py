"""The real desktop app always exits after SIGTERM, and what it stored stays stored.

The app runs as ``openworker-qt app`` does, in a subprocess (offscreen, its own
state dir, the tests' in-memory keyring); each test signals it right after its
window's first paint — when the satellites, the services and the workers all
start — and waits generously for the exit (a hang is a timeout, not a figure).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from openworker_qt.quit_watchdog import DEFAULT_TIMEOUT, TEST_STUCK_THREAD_ENV, QuitWatchdog
from openworker_qt.quit_watchdog import ENV as QUIT_TIMEOUT_ENV
from openworker_qt.runtime import open_runtime

REPO_ROOT = Path(__file__).resolve().parents[2]
EXIT_WITHIN = 60.0  # seconds: generous (a loaded machine), a hang is far longer


def _stored_state(home: Path) -> tuple[str, int]:
    """A session with a finished exchange and a pending approval in the inbox."""
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text(
        '[general]\ndefault_model = "scripted:hello"\n', encoding="utf-8")
    runtime = open_runtime()
    try:
        store = runtime.conversations
        info = store.create_session(title="Renewal brief", model="scripted:hello")
        store.append(info.id, {"role": "user", "content": "Prepare the ACME renewal brief"})
        store.append(info.id, {"role": "assistant", "content": "Here it is — 中文也可以"})
        item = runtime.inbox.add("approval", info.id, tool_call_id="call-1", tool="write_file",
                                 arguments={"path": "brief.md"}, title="Write brief.md")
        return info.id, item.id
    finally:
        runtime.close()


def _run_and_signal(home: Path, **env_extra: str) -> tuple[int, str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", OPENWORKER_HOME=str(home),
               OPENWORKER_BENCH_STARTUP="1",
               PYTHONPATH=os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]),
               **env_extra)
    proc = subprocess.Popen([sys.executable, "-m", "openworker_qt", "app", "--new-instance"],
                            cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    lines = []
    try:
        for line in proc.stdout:  # the app prints this line right after its first paint
            lines.append(line)
            if line.startswith("window-exposed"):
                proc.send_signal(signal.SIGTERM)
                break
        else:
            raise AssertionError("the app ended before painting: " + "".join(lines))
        try:
            _, err = proc.communicate(timeout=EXIT_WITHIN)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the app did not exit within {EXIT_WITHIN:g} s of SIGTERM"
                                 ) from None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, err


def _assert_intact(session_id: str, item_id: int) -> None:
    runtime = open_runtime()
    try:
        info = runtime.conversations.get_session(session_id)
        assert info is not None and info.title == "Renewal brief"
        texts = [m.get("content") for m in runtime.conversations.load(session_id)]
        assert texts[:2] == ["Prepare the ACME renewal brief", "Here it is — 中文也可以"]
        item = runtime.inbox.get(item_id)
        assert item is not None and item.status == "pending"  # still waiting for an answer
    finally:
        runtime.close()


def test_sigterm_at_the_first_paint_ends_the_app_cleanly(isolated_state: Path) -> None:
    session_id, item_id = _stored_state(isolated_state)
    code, err = _run_and_signal(isolated_state)
    assert code == 0, err
    # Nothing was left pending for the interpreter's exit to destroy (that is where
    # the app hung: the destroyed task's report waited on a lock no thread would free).
    assert "Task was destroyed but it is pending" not in err, err
    assert "Logging error" not in err, err
    _assert_intact(session_id, item_id)


def test_a_thread_that_never_ends_cannot_keep_the_app_alive(isolated_state: Path) -> None:
    session_id, item_id = _stored_state(isolated_state)
    # The hook starts a non-daemon thread holding a lock for ever: the interpreter's
    # exit waits for such a thread; the quit watchdog ends the process instead.
    code, err = _run_and_signal(isolated_state, **{TEST_STUCK_THREAD_ENV: "1",
                                                   QUIT_TIMEOUT_ENV: "3"})
    assert code == 0, err  # the code the app would have returned
    assert "Threads still alive" in err and "test-stuck-thread" in err, err
    log = (isolated_state / "logs" / "openworker-qt.log").read_text(encoding="utf-8")
    assert "test-stuck-thread" in log  # the log says what was still running
    _assert_intact(session_id, item_id)


def test_the_watchdog_reports_the_threads_alive_and_exits_with_the_apps_code(
        monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    exits: list[int] = []
    fired = threading.Event()

    def exit_(code: int) -> None:  # (os._exit in the app)
        exits.append(code)
        fired.set()

    stuck = threading.Event()
    worker = threading.Thread(target=stuck.wait, name="slow-reader", daemon=True)
    worker.start()
    try:
        watchdog = QuitWatchdog(timeout=0.01, exit_code=lambda: 3, exit=exit_)
        watchdog.arm()
        watchdog.arm()  # (once only)
        assert fired.wait(30)
    finally:
        stuck.set()
    assert exits == [3]
    err = capfd.readouterr().err
    assert "thread 'slow-reader' (daemon)" in err and "Threads still alive" in err
    for raw, expected in (("2.5", 2.5), ("", DEFAULT_TIMEOUT), ("soon", DEFAULT_TIMEOUT),
                          ("-1", DEFAULT_TIMEOUT)):
        monkeypatch.setenv(QUIT_TIMEOUT_ENV, raw)
        assert QuitWatchdog().timeout == expected
