"""Child process for the X11 hotkey test: the real app on the xcb platform.

Builds a :class:`DesktopApp` (state in ``OPENWORKER_HOME``), sets the configured
quick-ask hotkey (argv[1]), installs it, prints ``READY <status>`` and waits for
the quick-ask popup to appear (``QUICK_ASK_SHOWN``, exit 0) or gives up after
argv[2] seconds (exit 3). Run with ``QT_QPA_PLATFORM=xcb`` and ``DISPLAY`` set.
"""

from __future__ import annotations

import asyncio
import sys

import qasync
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from openworker_qt.app import DesktopApp
from openworker_qt.runtime import open_runtime


def main() -> int:
    sequence, limit = sys.argv[1], float(sys.argv[2])
    qapp = QApplication([sys.argv[0]])
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    runtime = open_runtime()
    runtime.config.data.setdefault("ui", {})["quick_ask_hotkey"] = sequence
    desktop = DesktopApp(runtime, enable_tray=False)
    desktop.window.show()
    hotkey = desktop.install_hotkey()
    print(f"READY {qapp.platformName()} {hotkey.sequence or '-'} {hotkey.status}", flush=True)
    shown: asyncio.Future[bool] = loop.create_future()

    def check() -> None:
        if desktop.quick_ask is not None and desktop.quick_ask.isVisible() and not shown.done():
            shown.set_result(True)

    poll = QTimer()
    poll.timeout.connect(check)
    poll.start(20)

    async def scenario() -> int:
        try:
            await asyncio.wait_for(shown, limit)
        except TimeoutError:
            return 3
        print("QUICK_ASK_SHOWN", flush=True)
        return 0

    code = loop.run_until_complete(scenario())
    poll.stop()
    hotkey.close()
    loop.run_until_complete(desktop.shutdown())
    runtime.close()
    loop.close()  # joins qasync's worker threads: a QThread alive at exit aborts Python
    return code


if __name__ == "__main__":
    sys.exit(main())
