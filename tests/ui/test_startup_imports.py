"""Start-up: what the first paint does not need is imported after it, on a worker;
PySide's per-import check gives the answers it always gave (bench/startup.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import ModuleType

from openworker_qt.qt import feature_check

REPO_ROOT = Path(__file__).resolve().parents[2]

#: Imported after the main window's first paint, on a worker thread (openworker_qt/deferred.py).
DEFERRED = ("tomlkit", "openworker_qt.tools.web", "openworker_qt.tools.deliverables",
            "openworker_qt.providers.pricing", "openworker_qt.core.engine")

# The real app, started as `openworker-qt app` is; a finder reports each first import
# of a watched module with its thread and whether the main window has painted yet
# (an application-wide event filter sees the window's first Paint event).
CHILD = textwrap.dedent("""
    import sys, threading
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication, QMainWindow

    WATCHED = set(sys.argv[1:])
    painted = []

    class Watch:
        def find_spec(self, name, path=None, target=None):
            if name in WATCHED:
                print(f"import {name} thread={threading.current_thread().name} "
                      f"painted={bool(painted)}", flush=True)
            return None

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and isinstance(obj, QMainWindow):
                painted.append(True)
            return False

    sys.meta_path.insert(0, Watch())
    qapp = QApplication([sys.argv[0]])
    watcher = FirstPaint()
    qapp.installEventFilter(watcher)
    from openworker_qt.__main__ import main
    sys.exit(main(["app", "--new-instance"]))
""")


def test_deferred_modules_are_imported_after_the_first_paint_on_a_worker(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text(
        '[general]\ndefault_model = "scripted:hello"\n', encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", OPENWORKER_HOME=str(tmp_path),
               OPENWORKER_BENCH_STARTUP="1", PYTHONPATH=str(REPO_ROOT))
    proc = subprocess.Popen([sys.executable, "-c", CHILD, *DEFERRED], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: dict[str, str] = {}
    lines: list[str] = []
    assert proc.stdout is not None
    try:
        deadline = time.monotonic() + 60
        while set(seen) != set(DEFERRED) and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("import "):
                _, name, rest = line.split(" ", 2)
                seen[name] = rest.strip()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert any(line.startswith("window-exposed") for line in lines), "".join(lines) + err
    for name in DEFERRED:
        assert name in seen, f"{name} was never imported: {''.join(lines)}{err}"
        thread, painted = seen[name].split()
        assert painted == "painted=True", f"{name} imported before the first paint"
        assert thread != "thread=MainThread", f"{name} imported on the loop thread"


def test_the_feature_check_answers_as_pyside_does(qapp: object) -> None:
    import openworker_qt.app  # noqa: F401  (installs the check, imports ~270 modules)

    feature = sys.modules["shibokensupport.feature"]
    assert feature_check.install()  # (idempotent)
    original = feature._mod_uses_pyside.original  # PySide's own
    assert not getattr(original, "_openworker_bytes_check", False)
    modules = [m for m in list(sys.modules.values()) if isinstance(m, ModuleType)]
    qt_users = [m for m in modules if m.__name__.startswith("openworker_qt.ui.")]
    assert qt_users and len(modules) > 200
    for module in modules:
        assert feature_check.uses_pyside(module, original) == original(module), module.__name__
    assert all(feature_check.uses_pyside(m, original) for m in qt_users
               if "PySide6" in Path(m.__file__ or "").read_text(encoding="utf-8"))


# The real app up to its first paint: a filter on the main window reports what is
# loaded at that moment (tests/test_startup_modules.py checks the plain imports).
AT_PAINT = textwrap.dedent("""
    import json, os, sys
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication, QMainWindow

    qapp = QApplication([sys.argv[0]])

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and isinstance(obj, QMainWindow):
                print("MODULES " + json.dumps(sorted(sys.modules)), flush=True)
                os._exit(0)
            return False

    watcher = FirstPaint()
    qapp.installEventFilter(watcher)
    from openworker_qt.__main__ import main
    sys.exit(main(["app", "--new-instance"]))
""")


def test_the_first_paint_loads_no_connector_mcp_pricing_pdf_or_sdk(tmp_path: Path) -> None:
    from tests.test_startup_modules import NOT_AT_START

    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text(
        '[general]\ndefault_model = "scripted:hello"\n', encoding="utf-8")
    (tmp_path / "config" / "mcp.json").write_text(  # (a server set up: read after the paint)
        '{"mcpServers": {"later": {"command": "true"}}}', encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", OPENWORKER_HOME=str(tmp_path),
               PYTHONPATH=str(REPO_ROOT), PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring")
    done = subprocess.run([sys.executable, "-c", AT_PAINT], cwd=tmp_path, env=env, timeout=120,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    lines = [line for line in done.stdout.splitlines() if line.startswith("MODULES ")]
    assert lines, done.stdout + done.stderr
    import json

    modules = set(json.loads(lines[0].removeprefix("MODULES ")))
    assert "openworker_qt.ui.main_window" in modules
    loaded = sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in NOT_AT_START))
    assert loaded == []
