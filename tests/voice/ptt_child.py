"""Child process for the push-to-talk test: the real app on the xcb platform.

argv: the ggml model, a spoken WAV, a time limit in seconds. Builds a
:class:`DesktopApp`, installs the global voice hotkey (Ctrl+Alt+V) with the real
transcriber and a recorder that "captures" the WAV, prints ``READY <status>``,
then reports ``LISTENING <meter>`` while the indicator shows and
``QUICK_ASK <text>`` when the transcript is in the quick ask (exit 0), or gives up
(exit 3). Run with ``QT_QPA_PLATFORM=xcb`` and ``DISPLAY`` set.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import qasync
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from openworker_qt.app import DesktopApp
from openworker_qt.qt.audio_capture import peak_level
from openworker_qt.runtime import open_runtime
from openworker_qt.voice.audio import Recording
from openworker_qt.voice.transcribe import Transcriber


class FileRecorder:
    """The recorder interface over a WAV file (the source the voice tests use)."""

    def __init__(self, wav: Path) -> None:
        self.recording = Recording.from_wav(wav)

    def start(self) -> None:
        pass

    def level(self) -> float:
        return peak_level(self.recording.data, self.recording.kind)

    def stop(self) -> Recording:
        return self.recording


def main() -> int:
    model, wav, limit = Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3])
    qapp = QApplication([sys.argv[0]])
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    runtime = open_runtime()
    desktop = DesktopApp(runtime, enable_tray=False)
    desktop.window.show()
    ptt = desktop.install_voice_hotkey()
    ptt.transcriber = Transcriber(str(model))
    ptt.recorder_factory = lambda: FileRecorder(wav)
    print(f"READY {qapp.platformName()} {ptt.hotkey.sequence or '-'} {ptt.status}", flush=True)
    done: asyncio.Future[str] = loop.create_future()
    reported: set[str] = set()

    def check() -> None:
        indicator = ptt.indicator
        if indicator.isVisible() and ptt.state == "listening" and "listening" not in reported:
            if indicator.meter.value() > 0:
                reported.add("listening")
                print(f"LISTENING {indicator.meter.value()}", flush=True)
        popup = desktop.quick_ask
        if popup is not None and popup.isVisible() and popup.edit.text() and not done.done():
            done.set_result(popup.edit.text())

    poll = QTimer()
    poll.timeout.connect(check)
    poll.start(20)
    ptt.problem.connect(lambda text: print(f"PROBLEM {text}", flush=True))

    async def scenario() -> int:
        try:
            text = await asyncio.wait_for(done, limit)
        except TimeoutError:
            return 3
        print(f"QUICK_ASK {text}", flush=True)
        return 0

    code = loop.run_until_complete(scenario())
    poll.stop()
    loop.run_until_complete(desktop.shutdown())
    runtime.close()
    loop.close()
    return code


if __name__ == "__main__":
    sys.exit(main())
