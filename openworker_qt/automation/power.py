"""Is the computer on battery, and how full is it? For deferring runs.

:func:`read_power` answers from the platform (Linux: ``/sys/class/power_supply``;
macOS: ``pmset -g batt``; Windows: ``GetSystemPowerStatus``) and ``None`` when it
cannot tell (a desktop without a battery counts as on mains power). It may
block (a file read, a subprocess): the scheduler calls it from its worker
thread, never on the loop. No Qt here.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PowerState", "read_power"]

SYS_POWER = Path("/sys/class/power_supply")


@dataclass(frozen=True, slots=True)
class PowerState:
    on_battery: bool
    percent: int | None  # None: unknown

    def below(self, floor: int | None) -> bool:
        """On battery with less than ``floor`` percent left (``None``: never)."""
        return (floor is not None and self.on_battery and self.percent is not None
                and self.percent < floor)


def read_power(root: Path = SYS_POWER) -> PowerState | None:
    try:
        if sys.platform == "darwin":  # pragma: no cover - macOS only
            return _macos()
        if sys.platform == "win32":  # pragma: no cover - Windows only
            return _windows()
        return _linux(root)
    except Exception:
        return None


def _linux(root: Path) -> PowerState | None:
    if not root.is_dir():
        return None
    batteries, mains = [], []
    for supply in root.iterdir():
        kind = _read(supply / "type")
        if kind == "Battery" and _read(supply / "scope") != "Device":  # not a mouse
            batteries.append(supply)
        elif kind == "Mains":
            mains.append(supply)
    if not batteries:
        return None
    online = any(_read(m / "online") == "1" for m in mains)
    statuses = {_read(b / "status") for b in batteries}
    on_battery = not online and "Discharging" in statuses
    levels = [int(v) for b in batteries if (v := _read(b / "capacity")).isdigit()]
    percent = min(levels) if levels else None
    return PowerState(on_battery, percent)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return ""


def _macos() -> PowerState | None:  # pragma: no cover - macOS only
    out = subprocess.run(["pmset", "-g", "batt"], capture_output=True, text=True,
                         timeout=5).stdout
    match = re.search(r"(\d+)%", out)
    if match is None:
        return None
    return PowerState("Battery Power" in out, int(match.group(1)))


def _windows() -> PowerState | None:  # pragma: no cover - Windows only
    import ctypes

    class Status(ctypes.Structure):
        _fields_ = [("ACLineStatus", ctypes.c_byte), ("BatteryFlag", ctypes.c_byte),
                    ("BatteryLifePercent", ctypes.c_byte), ("SystemStatusFlag", ctypes.c_byte),
                    ("BatteryLifeTime", ctypes.c_ulong), ("BatteryFullLifeTime", ctypes.c_ulong)]

    status = Status()
    if not ctypes.windll.kernel32.GetSystemPowerStatus(ctypes.byref(status)):  # type: ignore[attr-defined]
        return None
    if status.BatteryFlag & 128:  # no battery
        return None
    percent = status.BatteryLifePercent & 0xFF
    return PowerState(status.ACLineStatus == 0, None if percent == 255 else percent)
