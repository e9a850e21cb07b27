"""Start-up imports only what the first paint (or the command) needs: a list, not a time.

A fresh interpreter imports the desktop app's module, the command line's, or runs
a cheap command (``--help``, ``sessions``, a scripted one-shot ``run``), then
prints every module it loaded. None of the modules below may be among them: they
are loaded on first use (connectors, MCP, the browser, deliverables, PDF, the
pricing tables, provider SDKs, syntax highlighting), or after the window's first
paint (bench/startup.py prints what this buys).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]

#: Never imported by a plain start: each is imported where it is first used.
NOT_AT_START = (
    "openworker_qt.connectors",  # and every connector (browser, Slack, mail, …)
    "openworker_qt.mcp",  # the MCP manager, client, config
    "mcp",  # the MCP SDK
    "openworker_qt.tools.web",
    "openworker_qt.tools.deliverables",
    "openworker_qt.deliverables",
    "openworker_qt.core.pdf",
    "openworker_qt.providers.pricing",
    "pygments",
    "pypdf",
    "docx",
    "openpyxl",
    "pptx",
    "openai",
    "anthropic",
    "google.genai",
    "boto3",
    "botocore",
    "slack_sdk",
    "aiohttp",
    "croniter",
    "markdown",
)

#: Not imported before the window's first paint either (after it, on a worker:
#: openworker_qt/deferred.py); a command that runs no turn never imports them.
NOT_BEFORE_PAINT = (
    "openworker_qt.core.engine",  # the session manager builds an engine at a first turn
    "openworker_qt.core.compaction",
    "openworker_qt.core.request_builder",
    "openworker_qt.core.permissions",  # the runtime builds one per session at its first turn
    "openworker_qt.core.shell_policy",
    "openworker_qt.providers.local_servers",  # (and urllib.request, http.client, email)
    "urllib.request",
    "http.client",
)

#: The window's parts built on first use: the team board and its dock (a team's
#: session shown), the sidebar's Teams section (the teams attached, after the paint),
#: the plan card (a team's plan shown), a file chip (a tool row that wrote a file),
#: a question's choices and the wider "Always" (the first such card).
NOT_IN_FIRST_PAINT = (
    "openworker_qt.teams",  # (the team model under all of these)
    "openworker_qt.ui.team_board",
    "openworker_qt.ui.team_sidebar",
    "openworker_qt.qt.team_board_model",
    "openworker_qt.ui.plan_card",
    "openworker_qt.ui.file_chip",
    "openworker_qt.ui.choices",
    "openworker_qt.ui.approval_always",
)

#: The command line never imports Qt.
NO_QT = ("PySide6", "shiboken6", "qasync")

#: The command line builds its whole parser for every command: the team and the
#: automation commands' modules load their stores only when one of them runs, and a
#: turn in a new session never follows a scheduled run's status (it is none).
NOT_IN_CLI = ("openworker_qt.teams", "openworker_qt.automation.service",
              "openworker_qt.automation.scheduler")

# (atexit: after a command returned, whatever it imported on the way)
CHILD = """
import atexit, json, sys
atexit.register(lambda: sys.__stdout__.write("MODULES " + json.dumps(sorted(sys.modules)) + "\\n"))
{body}
"""


def _loaded(body: str, tmp_path: Path) -> set[str]:
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text(
        '[general]\ndefault_model = "scripted:hello"\n', encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", OPENWORKER_HOME=str(home),
               PYTHONPATH=str(REPO_ROOT), PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring")
    done = subprocess.run([sys.executable, "-c", CHILD.format(body=body)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    lines = [line for line in done.stdout.splitlines() if line.startswith("MODULES ")]
    assert lines, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return set(json.loads(lines[-1].removeprefix("MODULES ")))


def _offending(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_importing_the_desktop_app_loads_nothing_the_first_paint_does_not_need(
    tmp_path: Path,
) -> None:
    modules = _loaded("import openworker_qt.launch", tmp_path)  # (and so the app)
    assert "openworker_qt.ui.main_window" in modules  # (the check sees the window's imports)
    assert _offending(modules, NOT_AT_START + NOT_BEFORE_PAINT + NOT_IN_FIRST_PAINT) == []


#: The desktop app started as a user starts it, out at its window's first paint.
FIRST_PAINT = """
import os
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QMainWindow

qapp = QApplication([sys.argv[0]])

class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and isinstance(obj, QMainWindow):
            sys.__stdout__.write("MODULES " + json.dumps(sorted(sys.modules)) + "\\n")
            sys.__stdout__.flush()
            os._exit(0)
        return False

watch = FirstPaint()
qapp.installEventFilter(watch)
from openworker_qt.__main__ import main
main(["app", "--new-instance"])
"""


def test_the_first_paint_loads_only_what_it_draws(tmp_path: Path) -> None:
    modules = _loaded(FIRST_PAINT, tmp_path)
    assert "openworker_qt.ui.team_window" in modules  # (the window was built)
    assert _offending(modules, NOT_AT_START + NOT_BEFORE_PAINT + NOT_IN_FIRST_PAINT) == []


def test_importing_the_command_line_loads_no_qt_and_nothing_heavy(tmp_path: Path) -> None:
    modules = _loaded("import openworker_qt.cli", tmp_path)
    assert _offending(modules, NOT_AT_START + NO_QT + NOT_IN_CLI
                      + ("openworker_qt.automation.store",)) == []


@pytest.mark.parametrize("argv", [["--help"], ["sessions"]], ids=["help", "sessions"])
def test_a_cheap_command_loads_no_qt_and_nothing_heavy(tmp_path: Path, argv: list[str]) -> None:
    body = ("from openworker_qt.__main__ import main\n"
            f"try:\n    code = main({argv!r})\nexcept SystemExit as exc:\n    code = exc.code\n"
            "assert not code, code\n")
    modules = _loaded(body, tmp_path)
    assert "openworker_qt.cli" in modules
    assert _offending(modules, NOT_AT_START + NOT_BEFORE_PAINT + NO_QT + NOT_IN_CLI) == []


def test_a_scripted_one_shot_run_loads_no_qt_connectors_mcp_or_sdks(tmp_path: Path) -> None:
    script = tmp_path / "hello.json"
    script.write_text('[{"text": "Hello."}]', encoding="utf-8")
    body = ("from openworker_qt.__main__ import main\n"
            f"code = main(['run', 'say hello', '--model', 'scripted:{script.as_posix()}', '--yes'])\n"
            "assert code == 0, code\n")
    modules = _loaded(body, tmp_path)
    assert "openworker_qt.core.engine" in modules  # (a turn ran)
    # The turn is offered every tool: the web and deliverable tools' definitions load
    # (what they run on loads when they are called: aiohttp, the document writers).
    offered = ("openworker_qt.tools.web", "openworker_qt.tools.deliverables")
    assert _offending(modules, tuple(n for n in NOT_AT_START if n not in offered) + NO_QT
                      + NOT_IN_CLI) == []


def test_the_warm_up_after_the_first_paint_imports_every_module_a_first_turn_s_tools_need(
    tmp_path: Path,
) -> None:
    # The window's worker imports deferred.TOOL_MODULES after the first paint; then
    # building a session's tools (on the loop thread, at its first turn) imports
    # nothing more of the package.
    body = """
from openworker_qt import deferred
from openworker_qt.runtime_tools import default_tools
from openworker_qt.storage.conversations import SessionInfo

for step in deferred.STEPS:
    step()
before = set(sys.modules)
tools = default_tools(SessionInfo("s", "", "", "", "", "", False, "idle", 0.0, 0.0))
assert "read_file" in tools.names() and "web_fetch" in tools.names(), tools.names()
print("NEW " + json.dumps(sorted(m for m in set(sys.modules) - before
                                 if m.startswith("openworker_qt"))))
"""
    home = tmp_path / "home"
    env = dict(os.environ, OPENWORKER_HOME=str(home), PYTHONPATH=str(REPO_ROOT))
    done = subprocess.run([sys.executable, "-c", "import json, sys\n" + body], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stdout.splitlines() if line.startswith("NEW ")]
    assert lines, done.stdout + done.stderr
    assert json.loads(lines[0].removeprefix("NEW ")) == []
