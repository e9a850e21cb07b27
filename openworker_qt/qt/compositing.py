"""Whether the desktop composites translucent windows (the quick ask draws its own
shadow and rounded corners only where it does)."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QGuiApplication


@lru_cache(maxsize=1)
def composited() -> bool:
    """Whether translucent windows are composited (always, except on an X11 desktop
    without a compositor: the ``_NET_WM_CM_S<screen>`` selection has no owner)."""
    if QGuiApplication.platformName() != "xcb":
        return True
    import ctypes
    import ctypes.util
    import os

    name = ctypes.util.find_library("X11")
    if not name:
        return True
    try:
        x11 = ctypes.CDLL(name)
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XInternAtom.restype = ctypes.c_ulong
        x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        x11.XGetSelectionOwner.restype = ctypes.c_ulong
        x11.XGetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        x11.XDefaultScreen.argtypes = [ctypes.c_void_p]
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        display = x11.XOpenDisplay(os.environ.get("DISPLAY", "").encode() or None)
        if not display:
            return True
        try:
            screen = x11.XDefaultScreen(display)
            atom = x11.XInternAtom(display, f"_NET_WM_CM_S{screen}".encode(), 0)
            return bool(x11.XGetSelectionOwner(display, atom))
        finally:
            x11.XCloseDisplay(display)
    except (OSError, AttributeError):
        return True
