"""A system-wide hotkey (quick ask) behind one interface, per windowing system.

Why our own and not ``pynput.keyboard.GlobalHotKeys`` (weighed with pynput 1.8.2
under Xvfb + xdotool): pynput *listens* (X RECORD, a Windows low-level keyboard
hook, a macOS event tap) where this module *grabs* the key (``XGrabKey``,
``RegisterHotKey``, Carbon hot keys). Listening lets the keystroke also reach the
focused application (xev in the focused window saw Ctrl+Alt+Space with pynput,
not with the grab), cannot tell that another program already owns the combination
(the grab reports it), sees every keystroke the user types, needs the macOS
accessibility permission and a thread of its own whose callback must be handed
back to the GUI thread. On Wayland it only hears XWayland windows, silently; here
it says "unavailable".

:func:`create_hotkey` picks the implementation for the running Qt platform:

* **X11** (``xcb``): :class:`X11Hotkey` opens its own Xlib connection (ctypes to
  libX11, no extra package), ``XGrabKey`` on the root window for the key with
  every Caps Lock / Num Lock combination, and reads key presses on the Qt loop
  from a ``QSocketNotifier`` on the connection's fd — no thread, nothing blocks.
  A key another client already grabbed is reported (BadAccess), not fatal: the
  Xlib error handler is replaced by one that records errors instead of exiting.
* **Windows**: :class:`WindowsHotkey`, ``RegisterHotKey`` for the GUI thread and a
  native event filter that sees ``WM_HOTKEY``.
* **macOS**: :class:`MacHotkey`, Carbon ``RegisterEventHotKey`` with an
  application event handler (Carbon events still reach Cocoa apps).
* **Wayland** and anything else: :class:`UnavailableHotkey`, whose ``status``
  says why; the in-app shortcut and the tray keep working.

The sequence is a Qt portable string (``"Ctrl+Alt+Space"``, config key
``ui.quick_ask_hotkey``). The OS calls sit behind small ``api`` seams so the
macOS and Windows code can be checked for the calls it would make.

Press and release: the same classes serve the voice key (``ui.voice_hotkey``), which
is *held*. ``released`` follows ``activated`` when the key comes up: on X11 the grab
delivers the KeyRelease (detectable auto-repeat is switched on for our connection,
so holding the key does not send release/press pairs); on Windows, where
``WM_HOTKEY`` only says "pressed", a short timer polls ``GetAsyncKeyState`` until
the key is up; on macOS Carbon sends ``kEventHotKeyReleased``.

Signals:
    activated(): the hotkey was pressed (on the GUI thread); not repeated while held.
    released(): the held hotkey came up.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from typing import Any

from PySide6.QtCore import (
    QAbstractNativeEventFilter,
    QCoreApplication,
    QKeyCombination,
    QObject,
    QSocketNotifier,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QGuiApplication, QKeySequence

log = logging.getLogger(__name__)

#: Quick ask's key, global (where the platform allows) and inside the window alike;
#: the README names it too (tests/ui/test_hotkey.py checks they agree).
DEFAULT_HOTKEY = "Ctrl+Alt+Space"


def quick_ask_sequence(config: Any) -> str:
    """The quick-ask key in force: ``ui.quick_ask_hotkey`` or :data:`DEFAULT_HOTKEY`."""
    value = config.get("ui.quick_ask_hotkey") if config is not None else None
    return str(value or "").strip() or DEFAULT_HOTKEY


def parse_sequence(sequence: str) -> QKeyCombination | None:
    """The first key combination of ``sequence`` (``None`` if it does not parse)."""
    keys = QKeySequence.fromString(sequence.strip(), QKeySequence.SequenceFormat.PortableText)
    if keys.isEmpty():
        return None
    combo: QKeyCombination = keys[0]  # type: ignore[index]  # the stubs lack operator[]
    return None if combo.key() == Qt.Key.Key_unknown else combo


class GlobalHotkey(QObject):
    """The interface (see module docstring). ``register`` returns False with a ``status``."""

    activated = Signal()
    released = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.sequence = ""
        self.status = ""
        self.held = False

    def _pressed(self) -> None:
        if not self.held:
            self.held = True
            self.activated.emit()

    def _released(self) -> None:
        if self.held:
            self.held = False
            self.released.emit()

    @property
    def available(self) -> bool:
        return True

    def register(self, sequence: str) -> bool:
        self.unregister()
        combo = parse_sequence(sequence)
        if combo is None:
            self.status = self.tr("“{sequence}” is not a key combination").format(sequence=sequence)
            return False
        try:
            ok = self._register(combo)
        except Exception as exc:  # a platform library missing or misbehaving
            log.warning("global hotkey %s failed", sequence, exc_info=True)
            self.status = self.tr("The global hotkey could not be set: {error}").format(error=exc)
            return False
        if ok:
            self.sequence = sequence
            self.status = self.tr("Global hotkey {sequence} is active").format(sequence=sequence)
        return ok

    def unregister(self) -> None:
        if self.sequence:
            self._unregister()
        self.sequence = ""

    def _register(self, combo: QKeyCombination) -> bool:
        raise NotImplementedError

    def _unregister(self) -> None:
        raise NotImplementedError


class UnavailableHotkey(GlobalHotkey):
    """No global hotkey here (Wayland, offscreen): ``status`` says so."""

    def __init__(self, reason: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.reason = reason  # may name the in-app shortcut as "{sequence}"
        self.status = reason.replace("{sequence}", DEFAULT_HOTKEY)

    @property
    def available(self) -> bool:
        return False

    def register(self, sequence: str) -> bool:
        self.status = self.reason.replace("{sequence}", sequence.strip() or DEFAULT_HOTKEY)
        return False


# ------------------------------------------------------------------------ X11

X_KEY_PRESS = 2
X_KEY_RELEASE = 3
X_BAD_ACCESS = 10
SHIFT_MASK, LOCK_MASK, CONTROL_MASK, MOD1_MASK, MOD2_MASK, MOD4_MASK = 1, 2, 4, 8, 16, 64
GRAB_MODE_ASYNC = 1

# Qt keys whose X keysym name differs from QKeySequence's text.
_X_KEYSYM_NAMES = {
    Qt.Key.Key_Space: "space", Qt.Key.Key_Return: "Return", Qt.Key.Key_Enter: "KP_Enter",
    Qt.Key.Key_Escape: "Escape", Qt.Key.Key_Tab: "Tab", Qt.Key.Key_Backspace: "BackSpace",
    Qt.Key.Key_Insert: "Insert", Qt.Key.Key_Delete: "Delete", Qt.Key.Key_Home: "Home",
    Qt.Key.Key_End: "End", Qt.Key.Key_PageUp: "Prior", Qt.Key.Key_PageDown: "Next",
    Qt.Key.Key_Left: "Left", Qt.Key.Key_Right: "Right", Qt.Key.Key_Up: "Up",
    Qt.Key.Key_Down: "Down", Qt.Key.Key_Period: "period", Qt.Key.Key_Comma: "comma",
    Qt.Key.Key_Slash: "slash", Qt.Key.Key_Minus: "minus", Qt.Key.Key_Equal: "equal",
    Qt.Key.Key_Semicolon: "semicolon", Qt.Key.Key_Apostrophe: "apostrophe",
    Qt.Key.Key_QuoteLeft: "grave", Qt.Key.Key_BracketLeft: "bracketleft",
    Qt.Key.Key_BracketRight: "bracketright", Qt.Key.Key_Backslash: "backslash",
}


def x_keysym_name(key: Qt.Key) -> str:
    if key in _X_KEYSYM_NAMES:
        return _X_KEYSYM_NAMES[key]
    text = QKeySequence(key).toString(QKeySequence.SequenceFormat.PortableText)
    return text.lower() if len(text) == 1 else text  # "a", "5", "F5"


def x_modifiers(mods: Qt.KeyboardModifier) -> int:
    out = 0
    for qt_mod, mask in ((Qt.KeyboardModifier.ShiftModifier, SHIFT_MASK),
                         (Qt.KeyboardModifier.ControlModifier, CONTROL_MASK),
                         (Qt.KeyboardModifier.AltModifier, MOD1_MASK),
                         (Qt.KeyboardModifier.MetaModifier, MOD4_MASK)):
        if mods & qt_mod:
            out |= mask
    return out


class _XKeyEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("root", ctypes.c_ulong),
                ("subwindow", ctypes.c_ulong), ("time", ctypes.c_ulong), ("x", ctypes.c_int),
                ("y", ctypes.c_int), ("x_root", ctypes.c_int), ("y_root", ctypes.c_int),
                ("state", ctypes.c_uint), ("keycode", ctypes.c_uint), ("same_screen", ctypes.c_int)]


class _XEvent(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("xkey", _XKeyEvent), ("pad", ctypes.c_long * 24)]


class _XErrorEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("display", ctypes.c_void_p), ("resourceid", ctypes.c_ulong),
                ("serial", ctypes.c_ulong), ("error_code", ctypes.c_ubyte),
                ("request_code", ctypes.c_ubyte), ("minor_code", ctypes.c_ubyte)]


_X_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_XErrorEvent))


def _load_xlib() -> Any:
    name = ctypes.util.find_library("X11") or "libX11.so.6"
    x = ctypes.CDLL(name)
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XDefaultRootWindow.restype = ctypes.c_ulong
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XStringToKeysym.restype = ctypes.c_ulong
    x.XStringToKeysym.argtypes = [ctypes.c_char_p]
    x.XKeysymToKeycode.restype = ctypes.c_ubyte
    x.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x.XGrabKey.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_ulong,
                           ctypes.c_int, ctypes.c_int, ctypes.c_int]
    x.XUngrabKey.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_ulong]
    x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x.XConnectionNumber.argtypes = [ctypes.c_void_p]
    x.XPending.argtypes = [ctypes.c_void_p]
    x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.POINTER(_XEvent)]
    x.XCloseDisplay.argtypes = [ctypes.c_void_p]
    x.XSetErrorHandler.restype = ctypes.c_void_p
    x.XSetErrorHandler.argtypes = [ctypes.c_void_p]
    x.XkbSetDetectableAutoRepeat.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    return x


class X11Hotkey(GlobalHotkey):
    """XGrabKey on the root window of our own X connection (see module docstring)."""

    def __init__(self, parent: QObject | None = None, display_name: str | None = None) -> None:
        super().__init__(parent)
        self.display_name = display_name
        self._x: Any = None
        self._display: int | None = None
        self._root = 0
        self._keycode = 0
        self._mods = 0
        self._notifier: QSocketNotifier | None = None
        self._errors: list[int] = []
        self._previous_handler: Any = None
        self._handler = _X_ERROR_HANDLER(self._on_x_error)  # kept alive with self

    def _on_x_error(self, display: int, error: Any) -> int:
        if display == self._display:
            self._errors.append(int(error.contents.error_code))
            return 0
        if self._previous_handler:  # someone else's connection: their handler decides
            return int(_X_ERROR_HANDLER(self._previous_handler)(display, error))
        return 0

    def _open(self) -> bool:
        if self._display is not None:
            return True
        self._x = _load_xlib()
        name = (self.display_name or "").encode() or None
        display = self._x.XOpenDisplay(name)
        if not display:
            self.status = self.tr("Cannot connect to the X display for the global hotkey")
            return False
        self._display = display
        self._root = self._x.XDefaultRootWindow(display)
        # A held key then sends presses only, and one release when it comes up.
        self._x.XkbSetDetectableAutoRepeat(display, 1, None)
        self._previous_handler = self._x.XSetErrorHandler(
            ctypes.cast(self._handler, ctypes.c_void_p))
        self._notifier = QSocketNotifier(self._x.XConnectionNumber(display),
                                         QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._on_x_readable)
        return True

    def _register(self, combo: QKeyCombination) -> bool:
        if not self._open():
            return False
        x, display = self._x, self._display
        keysym = x.XStringToKeysym(x_keysym_name(combo.key()).encode())
        keycode = x.XKeysymToKeycode(display, keysym) if keysym else 0
        if not keycode:
            self.status = self.tr("This keyboard has no key for {key}").format(
                key=QKeySequence(combo.key()).toString())
            return False
        mods = x_modifiers(combo.keyboardModifiers())
        self._errors.clear()
        for extra in (0, LOCK_MASK, MOD2_MASK, LOCK_MASK | MOD2_MASK):  # Caps / Num Lock on
            x.XGrabKey(display, keycode, mods | extra, self._root, 0, GRAB_MODE_ASYNC, GRAB_MODE_ASYNC)
        x.XSync(display, 0)
        self._keycode, self._mods = keycode, mods
        if X_BAD_ACCESS in self._errors:
            self._ungrab()
            self.status = self.tr("Another application already uses this key combination")
            return False
        self._drain()
        return True

    def _ungrab(self) -> None:
        if self._display is None or not self._keycode:
            return
        for extra in (0, LOCK_MASK, MOD2_MASK, LOCK_MASK | MOD2_MASK):
            self._x.XUngrabKey(self._display, self._keycode, self._mods | extra, self._root)
        self._x.XSync(self._display, 0)
        self._keycode = 0

    def _unregister(self) -> None:
        self._ungrab()

    def close(self) -> None:
        """Ungrab and close our X connection."""
        self.unregister()
        if self._notifier is not None:
            self._notifier.setEnabled(False)
            self._notifier.deleteLater()
            self._notifier = None
        if self._display is not None:
            self._x.XCloseDisplay(self._display)
            self._display = None
            self._x.XSetErrorHandler(self._previous_handler)

    def _on_x_readable(self) -> None:
        self._drain()

    def _drain(self) -> None:
        """Read every queued X event (XPending reads the socket without blocking)."""
        if self._display is None:
            return
        event = _XEvent()
        while self._x.XPending(self._display):
            self._x.XNextEvent(self._display, ctypes.byref(event))
            if event.xkey.keycode != self._keycode:
                continue
            if event.type == X_KEY_PRESS:
                self._pressed()
            elif event.type == X_KEY_RELEASE:
                self._released()


# -------------------------------------------------------------------- Windows

WM_HOTKEY = 0x0312
MOD_ALT, MOD_CONTROL, MOD_SHIFT, MOD_WIN, MOD_NOREPEAT = 0x1, 0x2, 0x4, 0x8, 0x4000
_WIN_VK = {Qt.Key.Key_Space: 0x20, Qt.Key.Key_Return: 0x0D, Qt.Key.Key_Escape: 0x1B,
           Qt.Key.Key_Tab: 0x09, Qt.Key.Key_Insert: 0x2D, Qt.Key.Key_Delete: 0x2E,
           Qt.Key.Key_Home: 0x24, Qt.Key.Key_End: 0x23, Qt.Key.Key_PageUp: 0x21,
           Qt.Key.Key_PageDown: 0x22, Qt.Key.Key_Left: 0x25, Qt.Key.Key_Up: 0x26,
           Qt.Key.Key_Right: 0x27, Qt.Key.Key_Down: 0x28}


def windows_vk(key: Qt.Key) -> int:
    value = int(key.value) if hasattr(key, "value") else int(key)
    if Qt.Key.Key_A.value <= value <= Qt.Key.Key_Z.value or Qt.Key.Key_0.value <= value <= Qt.Key.Key_9.value:
        return value  # VK codes for letters and digits are their ASCII codes
    if Qt.Key.Key_F1.value <= value <= Qt.Key.Key_F24.value:
        return 0x70 + value - Qt.Key.Key_F1.value
    return _WIN_VK.get(key, 0)


def windows_modifiers(mods: Qt.KeyboardModifier) -> int:
    out = MOD_NOREPEAT
    for qt_mod, flag in ((Qt.KeyboardModifier.AltModifier, MOD_ALT),
                         (Qt.KeyboardModifier.ControlModifier, MOD_CONTROL),
                         (Qt.KeyboardModifier.ShiftModifier, MOD_SHIFT),
                         (Qt.KeyboardModifier.MetaModifier, MOD_WIN)):
        if mods & qt_mod:
            out |= flag
    return out


class _POINT(ctypes.Structure):
    _fields_ = [("x", ctypes.c_long), ("y", ctypes.c_long)]


class _MSG(ctypes.Structure):
    _fields_ = [("hwnd", ctypes.c_void_p), ("message", ctypes.c_uint), ("wParam", ctypes.c_size_t),
                ("lParam", ctypes.c_ssize_t), ("time", ctypes.c_ulong), ("pt", _POINT)]


class _WinApi:
    """user32, loaded on first use (the seam tests replace)."""

    def __init__(self) -> None:
        user32 = ctypes.windll.user32  # type: ignore[attr-defined]
        self.RegisterHotKey = user32.RegisterHotKey
        self.UnregisterHotKey = user32.UnregisterHotKey
        self.GetAsyncKeyState = user32.GetAsyncKeyState


class _WinFilter(QAbstractNativeEventFilter):
    def __init__(self, owner: WindowsHotkey) -> None:
        super().__init__()
        self.owner = owner

    def nativeEventFilter(self, event_type: Any, message: Any) -> Any:
        return self.owner.handle_native(bytes(event_type), int(message)), 0


class WindowsHotkey(GlobalHotkey):
    """``RegisterHotKey(NULL, id, …)``: WM_HOTKEY arrives in the GUI thread's queue."""

    HOTKEY_ID = 0x4F57  # "OW"

    RELEASE_POLL_MS = 30

    def __init__(self, parent: QObject | None = None, api: Any = None) -> None:
        super().__init__(parent)
        self._api = api
        self._filter: _WinFilter | None = None
        self._vk = 0
        self._poll = QTimer(self)
        self._poll.setInterval(self.RELEASE_POLL_MS)
        self._poll.timeout.connect(self._check_release)

    def _register(self, combo: QKeyCombination) -> bool:
        vk = windows_vk(combo.key())
        if not vk:
            self.status = self.tr("This key cannot be used as a global hotkey")
            return False
        api = self._api = self._api or _WinApi()
        if not api.RegisterHotKey(None, self.HOTKEY_ID, windows_modifiers(combo.keyboardModifiers()), vk):
            self.status = self.tr("Another application already uses this key combination")
            return False
        self._vk = vk
        if self._filter is None:
            self._filter = _WinFilter(self)
            app = QCoreApplication.instance()
            if app is not None:
                app.installNativeEventFilter(self._filter)
        return True

    def _unregister(self) -> None:
        self._poll.stop()
        self.held = False
        if self._api is not None:
            self._api.UnregisterHotKey(None, self.HOTKEY_ID)

    def handle_native(self, event_type: bytes, address: int) -> bool:
        if event_type not in (b"windows_generic_MSG", b"windows_dispatcher_MSG") or not address:
            return False
        msg = _MSG.from_address(address)
        if msg.message == WM_HOTKEY and msg.wParam == self.HOTKEY_ID and self.sequence:
            self._pressed()
            self._poll.start()  # WM_HOTKEY says nothing of the release: watch the key
            return True
        return False

    def _check_release(self) -> None:
        # The high bit of GetAsyncKeyState is set while the key is down.
        state = getattr(self._api, "GetAsyncKeyState", None)
        if state is None or not (int(state(self._vk)) & 0x8000):
            self._poll.stop()
            self._released()


# ---------------------------------------------------------------------- macOS

K_EVENT_CLASS_KEYBOARD = 0x6B657962  # 'keyb'
K_EVENT_HOTKEY_PRESSED = 5
K_EVENT_HOTKEY_RELEASED = 6
CMD_KEY, SHIFT_KEY, OPTION_KEY, CONTROL_KEY = 0x100, 0x200, 0x800, 0x1000
_MAC_KEYCODES = {
    "A": 0x00, "S": 0x01, "D": 0x02, "F": 0x03, "H": 0x04, "G": 0x05, "Z": 0x06, "X": 0x07,
    "C": 0x08, "V": 0x09, "B": 0x0B, "Q": 0x0C, "W": 0x0D, "E": 0x0E, "R": 0x0F, "Y": 0x10,
    "T": 0x11, "1": 0x12, "2": 0x13, "3": 0x14, "4": 0x15, "6": 0x16, "5": 0x17, "9": 0x19,
    "7": 0x1A, "8": 0x1C, "0": 0x1D, "O": 0x1F, "U": 0x20, "I": 0x22, "P": 0x23, "L": 0x25,
    "J": 0x26, "K": 0x28, "N": 0x2D, "M": 0x2E, "Space": 0x31, "Return": 0x24, "Tab": 0x30,
    "Esc": 0x35, "F1": 0x7A, "F2": 0x78, "F3": 0x63, "F4": 0x76, "F5": 0x60, "F6": 0x61,
    "F7": 0x62, "F8": 0x64, "F9": 0x65, "F10": 0x6D, "F11": 0x67, "F12": 0x6F,
}


def mac_keycode(key: Qt.Key) -> int | None:
    return _MAC_KEYCODES.get(QKeySequence(key).toString(QKeySequence.SequenceFormat.PortableText))


def mac_modifiers(mods: Qt.KeyboardModifier) -> int:
    """Qt's Ctrl is the Command key on macOS and Meta is Control (Qt's convention)."""
    out = 0
    for qt_mod, flag in ((Qt.KeyboardModifier.ControlModifier, CMD_KEY),
                         (Qt.KeyboardModifier.ShiftModifier, SHIFT_KEY),
                         (Qt.KeyboardModifier.AltModifier, OPTION_KEY),
                         (Qt.KeyboardModifier.MetaModifier, CONTROL_KEY)):
        if mods & qt_mod:
            out |= flag
    return out


class _EventTypeSpec(ctypes.Structure):
    _fields_ = [("eventClass", ctypes.c_uint32), ("eventKind", ctypes.c_uint32)]


class _EventHotKeyID(ctypes.Structure):
    _fields_ = [("signature", ctypes.c_uint32), ("id", ctypes.c_uint32)]


_CARBON_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)


class _CarbonApi:
    """Carbon.framework, loaded on first use (the seam tests replace)."""

    def __init__(self) -> None:
        carbon = ctypes.CDLL("/System/Library/Frameworks/Carbon.framework/Carbon")
        carbon.GetApplicationEventTarget.restype = ctypes.c_void_p
        carbon.InstallEventHandler.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32,
                                               ctypes.POINTER(_EventTypeSpec), ctypes.c_void_p,
                                               ctypes.c_void_p]
        carbon.RegisterEventHotKey.argtypes = [ctypes.c_uint32, ctypes.c_uint32, _EventHotKeyID,
                                               ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
        carbon.UnregisterEventHotKey.argtypes = [ctypes.c_void_p]
        carbon.GetEventKind.argtypes = [ctypes.c_void_p]
        carbon.GetEventKind.restype = ctypes.c_uint32
        self.carbon = carbon

    def install_handler(self, handler: Any) -> int:
        specs = (_EventTypeSpec * 2)(_EventTypeSpec(K_EVENT_CLASS_KEYBOARD, K_EVENT_HOTKEY_PRESSED),
                                     _EventTypeSpec(K_EVENT_CLASS_KEYBOARD, K_EVENT_HOTKEY_RELEASED))
        return int(self.carbon.InstallEventHandler(
            self.carbon.GetApplicationEventTarget(), ctypes.cast(handler, ctypes.c_void_p), 2,
            specs, None, None))

    def event_kind(self, event: Any) -> int:
        return int(self.carbon.GetEventKind(event))

    def register(self, keycode: int, modifiers: int, hotkey_id: int) -> tuple[int, Any]:
        ref = ctypes.c_void_p()
        status = self.carbon.RegisterEventHotKey(
            keycode, modifiers, _EventHotKeyID(0x4F574B51, hotkey_id),  # 'OWKQ'
            self.carbon.GetApplicationEventTarget(), 0, ctypes.byref(ref))
        return int(status), ref

    def unregister(self, ref: Any) -> None:
        self.carbon.UnregisterEventHotKey(ref)


class MacHotkey(GlobalHotkey):
    """Carbon ``RegisterEventHotKey``; the handler runs on the main (GUI) thread."""

    HOTKEY_ID = 1

    def __init__(self, parent: QObject | None = None, api: Any = None) -> None:
        super().__init__(parent)
        self._api = api
        self._ref: Any = None
        self._handler: Any = None

    def _register(self, combo: QKeyCombination) -> bool:
        keycode = mac_keycode(combo.key())
        if keycode is None:
            self.status = self.tr("This key cannot be used as a global hotkey")
            return False
        api = self._api = self._api or _CarbonApi()
        if self._handler is None:
            self._handler = _CARBON_HANDLER(self._on_carbon_event)
            api.install_handler(self._handler)
        status, ref = api.register(keycode, mac_modifiers(combo.keyboardModifiers()), self.HOTKEY_ID)
        if status != 0:
            self.status = self.tr("Another application already uses this key combination")
            return False
        self._ref = ref
        return True

    def _on_carbon_event(self, _call_ref: Any, event: Any, _data: Any) -> int:
        if not self.sequence:
            return 0
        if event and hasattr(self._api, "event_kind"):
            if self._api.event_kind(event) == K_EVENT_HOTKEY_RELEASED:
                self._released()
            else:
                self._pressed()
        else:  # the kind cannot be read: a press that is over at once
            self._pressed()
            self._released()
        return 0

    def _unregister(self) -> None:
        if self._ref is not None and self._api is not None:
            self._api.unregister(self._ref)
        self._ref = None


# -------------------------------------------------------------------- factory


def create_hotkey(parent: QObject | None = None, platform: str | None = None) -> GlobalHotkey:
    """The implementation for this Qt platform (``platform``: Qt's platform name)."""
    name = platform if platform is not None else QGuiApplication.platformName()
    if name == "xcb":
        return X11Hotkey(parent)
    if name == "windows":
        return WindowsHotkey(parent)
    if name == "cocoa":
        return MacHotkey(parent)
    if name.startswith("wayland"):
        reason = QCoreApplication.translate(
            "GlobalHotkey", "Global hotkeys are not available on Wayland: use the tray, "
            "or {sequence} while the OpenWorker window is active, for quick ask.")
    else:
        reason = QCoreApplication.translate(
            "GlobalHotkey", "Global hotkeys are not available on this display ({name}).").format(name=name)
    return UnavailableHotkey(reason, parent)
