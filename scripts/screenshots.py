#!/usr/bin/env python3
"""Render the desktop app's main surfaces to PNGs under docs/screenshots/.

Runs the real app (scripted provider, temp state dir) on a virtual X screen:
if there is no DISPLAY it starts its own ``Xvfb`` on a free display and stops
it at the end. Shots: the main window mid-conversation (reasoning, a tool
card, an approval card), the approval dialog, the inbox window, quick ask, the
main window in the dark scheme, settings (providers, permissions) and
onboarding — the last two also in Simplified Chinese.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONVERSATION = [
    {
        "reasoning": "The user wants a renewal brief. First look at what notes exist.",
        "chunks": ["Let me look at ", "the account notes first."],
        "tool_calls": [{"name": "list_files", "arguments": {"path": "."}}],
    },
    {
        "chunks": [
            "I found **two** notes for ACME. Here is the plan:\n\n",
            "1. Summarise usage and open tickets\n",
            "2. Draft the renewal brief as `brief.md`\n\n",
            "Writing the brief now — this needs your approval.",
        ],
        "tool_calls": [{
            "name": "write_file",
            "arguments": {
                "path": "brief.md",
                "content": "# ACME renewal brief\n\n- Seats: 120 → 150\n- Risk: two open P2 tickets\n"
                           "- Ask: 2-year term at list price\n",
            },
        }],
    },
    {"text": "Done: `brief.md` is ready."},
]

QUICK = [{"chunks": ["Your next meeting is **ACME renewal** at 14:00 ", "in Room 3 (45 min)."]}]


@contextlib.contextmanager
def virtual_display() -> Iterator[None]:
    if os.environ.get("DISPLAY") or os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        yield
        return
    if shutil.which("Xvfb") is None:
        raise SystemExit("Xvfb is not installed (scripts/dev install adds it)")
    display = next(n for n in range(90, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists()
                   and not Path(f"/tmp/.X{n}-lock").exists())
    screen = os.environ.get("OPENWORKER_SHOT_SCREEN", "1400x1000x24")  # e.g. 2880x1800x24 for 2×
    proc = subprocess.Popen(["Xvfb", f":{display}", "-screen", "0", screen, "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{display}").exists():
                break
            time.sleep(0.05)
        os.environ["DISPLAY"] = f":{display}"
        os.environ["QT_QPA_PLATFORM"] = "xcb"
        yield
    finally:
        proc.terminate()
        proc.wait(5)


async def until(predicate: Callable[[], object], timeout: float = 10.0) -> None:  # noqa: ASYNC109
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("screenshot scene did not settle")
        await asyncio.sleep(0.02)


async def settle(seconds: float = 0.3) -> None:
    await asyncio.sleep(seconds)


async def settings_and_onboarding(desktop: Any, save: Callable[[object, str], None], app: Any) -> None:
    """Settings (providers, permissions) and onboarding, in English then Simplified Chinese."""
    import keyring
    from keyring.backend import KeyringBackend

    from openworker_qt.storage import secrets
    from openworker_qt.ui.settings import SettingsWindow
    from openworker_qt.ui.theme import install_translator

    class DemoKeyring(KeyringBackend):
        """In memory, for the shots only (the real app uses the OS keyring)."""

        priority = 1
        values: dict[tuple[str, str], str] = {}

        def get_password(self, service: str, username: str) -> str | None:
            return self.values.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            self.values[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            self.values.pop((service, username), None)

    keyring.set_keyring(DemoKeyring())
    secrets.set_secret("ANTHROPIC_API_KEY", "sk-ant-demo-value-0000")
    permissions = desktop.runtime.config.data["permissions"]
    permissions["shell_allowlist"] = ["git status", "git diff", "ls"]
    permissions["writable_roots"] = [str(desktop.workspace)]

    async def settings_shots(suffix: str) -> None:
        settings = SettingsWindow(desktop.settings, desktop.models, desktop.manager)
        settings.show()
        await until(lambda: not settings.providers.busy())
        settings.providers.select("anthropic")
        await settle()
        save(settings, f"settings{suffix}.png")
        settings.show_page(2)
        await settle()
        save(settings, f"settings-permissions{suffix}.png")
        settings.close()

    async def onboarding_shot(suffix: str) -> None:
        onboarding = desktop.show_onboarding()
        onboarding.select_provider("anthropic")
        onboarding.key_edit.setText("sk-ant-not-a-real-key")  # shown masked
        await settle()
        save(onboarding, f"onboarding{suffix}.png")
        onboarding.close()

    await settings_shots("")
    await onboarding_shot("")
    install_translator(app, "zh_CN")  # widgets built from now on are in Chinese
    try:
        await settings_shots("-zh_CN")
        await onboarding_shot("-zh_CN")
    finally:
        install_translator(app, "en")


def single_shot(
    name: str,
    conversation: list[dict[str, Any]] | dict[str, Any],
    scene: Callable[[Any, Any], Any],
    *,
    size: tuple[int, int] = (1180, 780),
    notes: bool = False,
) -> int:
    """Render one window state to ``docs/screenshots/<name>`` (``--out`` to change):
    the real app on a scripted ``conversation`` in a temp state dir on a virtual
    screen. ``await scene(desktop, window)`` brings the window to the state to shoot;
    ``notes`` puts the two ACME notes in the workspace."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="ow-shots-"))
    os.environ["OPENWORKER_HOME"] = str(home)
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    os.environ["QT_API"] = "pyside6"
    with virtual_display():
        import qasync
        from PySide6.QtWidgets import QApplication

        from openworker_qt.app import DesktopApp
        from openworker_qt.runtime import open_runtime
        from openworker_qt.ui.theme import apply_theme

        app = QApplication.instance() or QApplication(["openworker-qt"])
        assert isinstance(app, QApplication)
        apply_theme(app, "light")
        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)
        workspace = home / "acme"
        workspace.mkdir()
        if notes:
            (workspace / "notes-q1.md").write_text("ACME: 120 seats, happy with support.\n")
            (workspace / "notes-q2.md").write_text("ACME: two P2 tickets open.\n")
        script = home / "conversation.json"
        script.write_text(json.dumps(conversation))
        rt = open_runtime()
        rt.config.data["general"]["default_model"] = f"scripted:{script}"
        desktop = DesktopApp(rt, workspace=workspace, enable_tray=False)
        window = desktop.window
        window.resize(*size)
        window.show()
        path = out / name

        async def shoot() -> None:
            await scene(desktop, window)
            await settle(0.8)
            window.grab().save(str(path))
            if desktop.manager.is_running(window.session_id or ""):
                window.stop()
                await until(lambda: not desktop.manager.is_running(window.session_id or ""))
            await desktop.shutdown()

        try:
            loop.run_until_complete(shoot())
        finally:
            rt.close()
            loop.close()
    print(path)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="ow-shots-"))
    os.environ["OPENWORKER_HOME"] = str(home)
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    os.environ["QT_API"] = "pyside6"
    with virtual_display():
        return asyncio_main(args.out, home)


def asyncio_main(out: Path, home: Path) -> int:
    import qasync
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime
    from openworker_qt.ui.theme import apply_theme

    app = QApplication.instance() or QApplication(["openworker-qt"])
    assert isinstance(app, QApplication)
    apply_theme(app, "light")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    workspace = home / "acme"
    workspace.mkdir()
    (workspace / "notes-q1.md").write_text("ACME: 120 seats, happy with support.\n")
    (workspace / "notes-q2.md").write_text("ACME: two P2 tickets open.\n")
    script = home / "conversation.json"
    script.write_text(json.dumps(CONVERSATION))
    quick = home / "quick.json"
    quick.write_text(json.dumps(QUICK))
    rt = open_runtime()
    rt.config.data["general"]["default_model"] = f"scripted:{script}"
    desktop = DesktopApp(rt, workspace=workspace, enable_tray=False)
    window = desktop.window
    window.resize(1180, 780)
    window.show()
    shots: list[Path] = []

    def save(widget: object, name: str) -> None:
        path = out / name
        widget.grab().save(str(path))  # type: ignore[attr-defined]
        shots.append(path)

    async def scene() -> None:
        # an earlier, finished session for the sidebar
        for title in ("Untangle my calendar this week", "Where does the release stand?"):
            rt.conversations.create_session(title=title, model="anthropic:claude-sonnet-4-6")
        window.refresh_sessions()
        window.composer.edit.setPlainText("Prepare the renewal brief for ACME from my notes")
        window.composer.submit()
        await until(lambda: window.view.cards())
        await settle(0.6)
        save(window, "main-window.png")  # the window in front: the card alone
        # The dialog the same ask gets when the window is not in front.
        window.cards.open_dialog(desktop.inbox.pending(kind="approval")[0])
        dialog = next(iter(window.cards.dialogs.values()))
        dialog.move(window.x() + 520, window.y() + 200)
        await settle(0.6)
        save(dialog, "approval-dialog.png")
        inbox = desktop.show_inbox()
        inbox.resize(900, 520)
        await settle()
        save(inbox, "inbox.png")
        inbox.hide()
        apply_theme(app, "dark")
        await settle(0.6)
        save(window, "main-window-dark.png")
        apply_theme(app, "light")
        dialog.panel.once.click()
        await until(lambda: not desktop.manager.is_running(window.session_id or ""))
        rt.config.data["general"]["default_model"] = f"scripted:{quick}"
        desktop.manager.default_model = f"scripted:{quick}"
        popup = desktop.show_quick_ask()
        popup.edit.setText("When is my next meeting?")
        popup.submit()
        await until(lambda: popup.status.text() == "Done")
        await settle()
        save(popup, "quick-ask.png")
        popup.hide()
        await settings_and_onboarding(desktop, save, app)
        await desktop.shutdown()

    try:
        loop.run_until_complete(scene())
    finally:
        rt.close()
        # Joins qasync's worker threads: a QThread still running at exit aborts Python.
        loop.close()
    for path in shots:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
