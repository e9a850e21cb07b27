"""``OPENWORKER_SMOKE_TEST=1``: start the app normally, quit with 0 after the first paint.

Packaging smoke-starts a build with it (``tests/packaging``, ``installer/*``),
frozen or not. Right after the main window's first paint it prints one line::

    smoke: window shown in 0.31 s

(seconds since the process started where the OS says so, else since the app
module was imported), checks that the bundled resources load — every SVG icon
renders (so the Qt SVG icon engine is there) and every ``.qm`` translation
loads — that voice input's libraries load (numpy resamples, pywhispercpp's
binding, QtMultimedia: the build leaves parts of each out) and that what Qt asks of
ICU still answers (the Linux build cuts ICU's data), and quits through the
normal shutdown. A missing resource prints ``smoke: missing resource: …`` to stderr
and makes the exit status 3.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

ENV = "OPENWORKER_SMOKE_TEST"
MISSING_RESOURCE_STATUS = 3


def enabled() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def seconds_since_start(fallback_t0: float) -> float:
    """Wall seconds since this process started (Linux /proc), else since ``fallback_t0``."""
    fallback = time.perf_counter() - fallback_t0
    if sys.platform.startswith("linux"):
        try:
            fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
            started = int(fields[19]) / os.sysconf("SC_CLK_TCK")
            uptime = float(Path("/proc/uptime").read_text().split()[0])
            since = uptime - started
            if fallback <= since < fallback + 60:  # a container's virtualised uptime
                return since
        except (OSError, ValueError, IndexError):
            pass
    return fallback


def missing_resources() -> list[str]:
    """Bundled resources that are absent or do not load (empty when all is well)."""
    from PySide6.QtCore import QTranslator
    from PySide6.QtGui import QIcon

    from openworker_qt.ui.resources import resource

    problems: list[str] = []
    icons = resource("icons")
    svgs = sorted(icons.glob("*.svg")) if icons.is_dir() else []
    if not (icons / "openworker.svg").is_file():
        problems.append(f"icon {icons / 'openworker.svg'}")
    for svg in svgs:
        if QIcon(str(svg)).pixmap(32, 32).isNull():
            problems.append(f"icon {svg} does not render (Qt's SVG icon engine missing?)")
    translations = resource("translations")
    qms = sorted(translations.glob("*.qm")) if translations.is_dir() else []
    if not qms:
        problems.append(f"translations: no .qm file in {translations}")
    for qm in qms:
        if not QTranslator().load(str(qm)):
            problems.append(f"translation {qm} does not load")
    demo = resource("demo", "demo-session.json")  # onboarding's offline demo
    if not demo.is_file():
        problems.append(f"demo script {demo}")
    return problems


def voice_stack_problems() -> list[str]:
    """Voice input's libraries that do not load or work (empty when all is well):
    numpy turns a 44.1 kHz stereo recording into 16 kHz mono samples (the build leaves
    numpy's unused parts out), pywhispercpp's binding and libwhisper load, and so does
    QtMultimedia (without its FFmpeg backend in the Linux build; no device is opened)."""
    problems: list[str] = []
    try:
        import numpy as np

        from openworker_qt.voice.audio import to_mono_16k

        samples = to_mono_16k(np.zeros((4410, 2), np.float32), 44100)
        if samples.shape != (1600,) or samples.dtype != np.float32:
            problems.append(f"voice: resampling gave {samples.shape} {samples.dtype}")
    except Exception as exc:  # whatever a half-bundled numpy raises
        problems.append(f"voice: numpy does not work ({exc!r})")
    for module in ("pywhispercpp.model", "PySide6.QtMultimedia"):
        try:
            __import__(module)
        except Exception as exc:  # ImportError, OSError from a library that does not load
            problems.append(f"voice: {module} does not load ({exc!r})")
    return problems


def icu_problems() -> list[str]:
    """What Qt asks of ICU that does not answer (the Linux build keeps only the root,
    English and Chinese locales of ICU's data, installer/icu_data.py): Chinese
    collation (pinyin order: 北京 before 上海; code point order would swap them),
    time zone names, a legacy converter, locale-aware case mapping."""
    from PySide6.QtCore import QCollator, QLocale, QStringDecoder, QTimeZone

    problems: list[str] = []
    collator = QCollator(QLocale("zh_CN"))
    names = sorted(["上海", "北京"], key=collator.sortKey)
    if names != ["北京", "上海"]:
        problems.append(f"ICU: Chinese collation sorts {names}")
    zone = QTimeZone(b"Europe/Berlin")
    for locale in ("en_US", "zh_CN"):
        name = zone.displayName(QTimeZone.TimeType.StandardTime,
                                QTimeZone.NameType.LongName, QLocale(locale))
        if not name or "Berlin" in name or "GMT" in name:
            problems.append(f"ICU: no {locale} time zone name (got {name!r})")
    if not QStringDecoder("Shift_JIS").isValid():
        problems.append("ICU: the Shift_JIS converter is missing")
    if QLocale("de_DE").toUpper("straße") != "STRASSE":
        problems.append("ICU: case mapping is missing")
    return problems


def arm(desktop: Any, t0: float) -> None:
    """Quit ``desktop`` right after its main window's first paint (see module doc)."""
    from openworker_qt.ui.first_paint import after_first_paint

    def on_first_paint() -> None:
        print(f"smoke: window shown in {seconds_since_start(t0):.2f} s", flush=True)
        problems = missing_resources() + voice_stack_problems() + icu_problems()
        for problem in problems:
            print(f"smoke: missing resource: {problem}", file=sys.stderr, flush=True)
        if problems:
            desktop.smoke_status = MISSING_RESOURCE_STATUS
        desktop.quit()

    after_first_paint(desktop.window, on_first_paint)
