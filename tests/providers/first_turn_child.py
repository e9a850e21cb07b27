"""Run by test_first_turn_off_loop.py in a fresh interpreter: a first turn through
the real OpenAI SDK (against the stub server, on a thread of its own), recording
every module imported on the loop thread while the turn runs."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from pathlib import Path
from typing import Any

from tests.providers.stubs import Reply, StubServer, sse


def serve(ready: list[StubServer], started: threading.Event) -> None:
    loop = asyncio.new_event_loop()
    server = StubServer()
    loop.run_until_complete(server.start())

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    server.add("POST", "/v1/chat/completions", Reply(content_type="text/event-stream", body=sse(
        chunk({"role": "assistant", "content": "Hello"}), chunk({"content": " there."}),
        chunk({}, "stop"), "[DONE]")))
    ready.append(server)
    started.set()
    loop.run_forever()


class Recorder:
    """A meta-path finder that notes the modules the loop thread imports."""

    def __init__(self, thread: int) -> None:
        self.thread = thread
        self.on = False
        self.seen: list[str] = []

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if self.on and threading.get_ident() == self.thread:
            self.seen.append(name)
        return None


async def main(warm: bool) -> dict[str, Any]:
    from openworker_qt.runtime import open_runtime
    from openworker_qt.storage.paths import app_paths

    ready: list[StubServer] = []
    started = threading.Event()
    threading.Thread(target=serve, args=(ready, started), daemon=True).start()
    started.wait(30)
    home = Path(sys.argv[1])
    config = app_paths().ensure().config_file
    config.write_text(f'[providers.openai]\nbase_url = "{ready[0].url}/v1"\n')
    rt = open_runtime(home)
    manager = rt.session_manager()
    info = manager.create_session(model="openai:gpt-4o-mini", workspace=str(home))
    if warm:
        await asyncio.to_thread(rt.warm_in_background(info.model).join)
    recorder = Recorder(threading.get_ident())
    sys.meta_path.insert(0, recorder)
    recorder.on = True
    events = [e.type async for e in manager.run(info.id, "hi")]
    recorder.on = False
    stored = rt.conversations.load(info.id)
    await rt.stop()
    rt.close()
    return {"events": events, "reply": stored[-1].get("content"), "imported": recorder.seen}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[2] == "warm"))))
