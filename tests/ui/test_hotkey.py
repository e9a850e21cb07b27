"""The global quick-ask hotkey: X11 for real under Xvfb + xdotool (a child process on
the xcb platform), the Windows and macOS implementations through their API seams,
and the clear "unavailable" path (Wayland, offscreen)."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openworker_qt.qt.hotkey import (
    _MSG,
    CMD_KEY,
    DEFAULT_HOTKEY,
    MOD_ALT,
    MOD_CONTROL,
    MOD_NOREPEAT,
    MOD_SHIFT,
    OPTION_KEY,
    WM_HOTKEY,
    MacHotkey,
    UnavailableHotkey,
    WindowsHotkey,
    X11Hotkey,
    create_hotkey,
    mac_keycode,
    parse_sequence,
    windows_vk,
    x_keysym_name,
    x_modifiers,
)

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def test_sequences_map_to_x11_keys() -> None:
    combo = parse_sequence("Ctrl+Alt+Space")
    assert combo is not None
    assert x_keysym_name(combo.key()) == "space"
    assert x_modifiers(combo.keyboardModifiers()) == 4 | 8  # ControlMask | Mod1Mask
    k = parse_sequence("Meta+Shift+K")
    assert k is not None and x_keysym_name(k.key()) == "k"
    assert x_modifiers(k.keyboardModifiers()) == 1 | 64
    f9 = parse_sequence("Ctrl+F9")
    assert f9 is not None and x_keysym_name(f9.key()) == "F9"
    assert parse_sequence("") is None and parse_sequence("Ctrl+Nope") is None


def test_bad_sequence_is_reported(qapp) -> None:
    hotkey = WindowsHotkey(api=object())
    assert not hotkey.register("Ctrl+Nope")
    assert "not a key combination" in hotkey.status


class FakeUser32:
    def __init__(self, ok: bool = True) -> None:
        self.ok = ok
        self.calls: list[tuple[Any, ...]] = []

    def RegisterHotKey(self, hwnd: Any, ident: int, mods: int, vk: int) -> int:  # noqa: N802
        self.calls.append(("RegisterHotKey", hwnd, ident, mods, vk))
        return int(self.ok)

    def UnregisterHotKey(self, hwnd: Any, ident: int) -> int:  # noqa: N802
        self.calls.append(("UnregisterHotKey", hwnd, ident))
        return 1


def test_windows_registers_and_answers_wm_hotkey(qtbot) -> None:
    api = FakeUser32()
    hotkey = WindowsHotkey(api=api)
    assert hotkey.register("Ctrl+Alt+Space")
    assert api.calls == [("RegisterHotKey", None, WindowsHotkey.HOTKEY_ID,
                          MOD_CONTROL | MOD_ALT | MOD_NOREPEAT, 0x20)]
    assert windows_vk(Qt.Key.Key_K) == ord("K") and windows_vk(Qt.Key.Key_F5) == 0x74
    msg = _MSG(None, WM_HOTKEY, WindowsHotkey.HOTKEY_ID, 0, 0)
    with qtbot.wait_signal(hotkey.activated, timeout=1000):
        assert hotkey.handle_native(b"windows_generic_MSG", ctypes.addressof(msg))
    other = _MSG(None, 0x0100, 0, 0, 0)  # WM_KEYDOWN
    assert not hotkey.handle_native(b"windows_generic_MSG", ctypes.addressof(other))
    hotkey.unregister()
    assert api.calls[-1] == ("UnregisterHotKey", None, WindowsHotkey.HOTKEY_ID)
    busy = FakeUser32(ok=False)
    taken = WindowsHotkey(api=busy)
    assert not taken.register("Ctrl+Shift+K")
    assert busy.calls[0][3] == MOD_CONTROL | MOD_SHIFT | MOD_NOREPEAT
    assert "already uses" in taken.status and taken.sequence == ""


class FakeCarbon:
    def __init__(self) -> None:
        self.handler: Any = None
        self.calls: list[tuple[Any, ...]] = []

    def install_handler(self, handler: Any) -> int:
        self.handler = handler
        return 0

    def register(self, keycode: int, modifiers: int, hotkey_id: int) -> tuple[int, Any]:
        self.calls.append(("register", keycode, modifiers, hotkey_id))
        return 0, "ref-1"

    def unregister(self, ref: Any) -> None:
        self.calls.append(("unregister", ref))


def test_macos_registers_a_carbon_hotkey(qtbot) -> None:
    api = FakeCarbon()
    hotkey = MacHotkey(api=api)
    assert hotkey.register("Ctrl+Alt+Space")
    # Qt's Ctrl is Command on macOS; Space is kVK_Space
    assert api.calls == [("register", 0x31, CMD_KEY | OPTION_KEY, MacHotkey.HOTKEY_ID)]
    assert mac_keycode(Qt.Key.Key_K) == 0x28
    with qtbot.wait_signal(hotkey.activated, timeout=1000):
        api.handler(None, None, None)  # what Carbon calls on kEventHotKeyPressed
    hotkey.unregister()
    assert api.calls[-1] == ("unregister", "ref-1")


def test_wayland_and_offscreen_say_the_hotkey_is_unavailable(qapp) -> None:
    wayland = create_hotkey(platform="wayland")
    assert isinstance(wayland, UnavailableHotkey) and not wayland.available
    assert not wayland.register("Ctrl+Alt+Space")
    assert "not available on Wayland" in wayland.status and "Ctrl+Alt+Space" in wayland.status
    assert not wayland.register("Ctrl+Shift+K")
    assert "Ctrl+Shift+K" in wayland.status  # names the in-app shortcut actually bound
    assert isinstance(create_hotkey(platform="xcb"), X11Hotkey)
    assert isinstance(create_hotkey(platform="windows"), WindowsHotkey)
    assert isinstance(create_hotkey(platform="cocoa"), MacHotkey)
    assert "offscreen" in create_hotkey(platform="offscreen").status


def test_quick_ask_key_is_the_same_everywhere(qtbot, make_desktop) -> None:
    """README, config default, global hotkey, in-app shortcut and tray name one key."""
    import re

    from openworker_qt.storage.config import DEFAULTS
    from openworker_qt.ui.tray import Tray

    assert DEFAULTS["ui"]["quick_ask_hotkey"] == DEFAULT_HOTKEY
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"(?:Ctrl|Alt|Shift|Meta)\+(?:Ctrl\+|Alt\+|Shift\+|Meta\+)*Space", readme))
    assert named == {DEFAULT_HOTKEY}
    desktop = make_desktop()
    action = desktop.window.findChild(type(desktop.window.new_action), "quickAsk")
    assert action.shortcut().toString() == DEFAULT_HOTKEY
    tray = Tray(desktop.inbox, desktop.bridge, desktop.answers, desktop.settings, available=False)
    assert tray.quick_ask_action.shortcut().toString() == DEFAULT_HOTKEY
    # a configured key moves the in-app shortcut with it
    from openworker_qt.storage.config import update_global

    update_global({"ui": {"quick_ask_hotkey": "Ctrl+Shift+K"}})
    configured = make_desktop()
    action = configured.window.findChild(type(configured.window.new_action), "quickAsk")
    assert action.shortcut().toString() == "Ctrl+Shift+K"


def test_app_without_a_global_hotkey_keeps_the_in_app_shortcut(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "ok"}])
    hotkey = desktop.install_hotkey()  # offscreen: no global hotkey
    assert not hotkey.available
    assert "not available" in desktop.window.statusBar().currentMessage()
    action = desktop.window.findChild(type(desktop.window.new_action), "quickAsk")
    assert action.shortcut().toString() == DEFAULT_HOTKEY == "Ctrl+Alt+Space"
    action.trigger()
    assert desktop.quick_ask is not None and desktop.quick_ask.isVisible()


# ------------------------------------------------------------- X11, for real


@pytest.fixture
def xvfb() -> Iterator[str]:
    if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
        pytest.fail("Xvfb and xdotool are needed (scripts/dev installs them)")
    read_fd, write_fd = os.pipe()
    # -displayfd: Xvfb picks a free display number itself and writes it when ready
    log = tempfile.TemporaryFile()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=log)
    os.close(write_fd)
    try:
        number = _read_line(read_fd, timeout=30)  # (a loaded machine: seen over 10 s)
        if not number.isdigit():
            log.seek(0)
            said = log.read().decode(errors="replace")[-600:]
            pytest.fail(f"Xvfb did not start ({number!r}; exit {server.poll()}): {said}")
        yield f":{number}"
    finally:
        os.close(read_fd)
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)
        log.close()


def _read_line(fd: int, timeout: float) -> str:
    out: list[bytes] = []

    def read() -> None:
        while not out or not out[-1].endswith(b"\n"):
            chunk = os.read(fd, 64)
            if not chunk:
                return
            out.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    return b"".join(out).decode().strip()


@pytest.mark.parametrize(("configured", "pressed"), [("Ctrl+Alt+Space", "ctrl+alt+space"),
                                                     ("Ctrl+Shift+F9", "ctrl+shift+F9")])
def test_x11_hotkey_opens_quick_ask(xvfb: str, configured: str, pressed: str) -> None:
    env = {**os.environ, "DISPLAY": xvfb, "QT_QPA_PLATFORM": "xcb",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    child = subprocess.Popen([sys.executable, str(HERE / "hotkey_child.py"), configured, "20"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=str(REPO))
    try:
        assert child.stdout is not None
        ready = _read_stdout_line(child, timeout=20)
        assert ready.startswith(f"READY xcb {configured} "), ready
        subprocess.run(["xdotool", "key", pressed], env=env, check=True, timeout=10)
        shown = _read_stdout_line(child, timeout=10)
        assert shown == "QUICK_ASK_SHOWN"
        assert child.wait(20) == 0, child.stderr.read() if child.stderr else ""
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(5)
        for stream in (child.stdout, child.stderr):
            if stream is not None:
                stream.close()


def _read_stdout_line(child: subprocess.Popen[str], timeout: float) -> str:
    line: list[str] = []
    assert child.stdout is not None
    reader = threading.Thread(target=lambda: line.append(child.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if not line or not line[0]:
        child.kill()
        err = child.stderr.read() if child.stderr else ""
        raise AssertionError(f"child said nothing in {timeout}s; stderr:\n{err[-2000:]}")
    return line[0].strip()
