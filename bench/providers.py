"""Provider overhead per call against a local stub (no network).

For each wire protocol, a stub on 127.0.0.1 streams N text deltas; the real SDK
talks to it through our provider. Printed per provider:

* ``first``: median time from ``stream()`` to the first chunk, client built;
* ``per-chunk``: (time of the last chunk - time of the first) / (N - 1);
* ``raw``: the same two figures reading the bytes with a bare aiohttp client,
  so the difference is what the SDK + adapter + retry guard cost.

Then the failure table of issue 24 §A (``tests/providers/failure_matrix.py``, the
same cases the test suite asserts): per vendor × failure (a stream cut before its
end marker, an empty stream, a web page as a 200 streaming and not, one empty event
then silence), what the user is shown. Printed, not asserted.

Run: ``.venv/bin/python bench/providers.py [--calls 30] [--chunks 200] [--failures-only]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

from openworker_qt.core.provider_api import ModelRequest, TextChunk
from openworker_qt.providers.anthropic import AnthropicProvider
from openworker_qt.providers.gemini import GeminiProvider
from openworker_qt.providers.openai_chat import OpenAIChatProvider
from tests.providers.stubs import Reply, StubServer, sse


def openai_body(n: int) -> str:
    ev = [{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, "delta": {"content": f"w{i} "}, "finish_reason": None}]} for i in range(n)]
    ev.append({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    return sse(*ev) + "data: [DONE]\n\n"


def anthropic_body(n: int) -> str:
    ev: list[dict[str, Any]] = [
        {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "claude-haiku-4-5", "content": [], "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    ]
    ev += [{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": f"w{i} "}} for i in range(n)]
    ev += [{"type": "content_block_stop", "index": 0}, {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": n}}, {"type": "message_stop"}]
    return sse(*ev, event_names=True)


def gemini_body(n: int) -> str:
    ev = [{"candidates": [{"content": {"role": "model", "parts": [{"text": f"w{i} "}]}, "index": 0}]} for i in range(n)]
    ev[-1]["candidates"][0]["finishReason"] = "STOP"
    return sse(*ev, sep="\r\n\r\n")


async def measure(provider: Any, model: str, calls: int, n: int) -> tuple[float, float]:
    firsts, per = [], []
    request = ModelRequest(model, [{"role": "user", "content": "go"}])
    for _ in range(calls):
        start = time.perf_counter()
        first = last = 0.0
        count = 0
        async for chunk in provider.stream(request):
            if isinstance(chunk, TextChunk):
                now = time.perf_counter()
                if not count:
                    first = now
                last = now
                count += 1
        assert count == n, count
        firsts.append(first - start)
        per.append((last - first) / (n - 1))
    return statistics.median(firsts), statistics.median(per)


async def measure_raw(url: str, path: str, calls: int) -> tuple[float, float]:
    firsts, per = [], []
    async with aiohttp.ClientSession() as session:
        for _ in range(calls):
            start = time.perf_counter()
            first = last = 0.0
            count = 0
            async with session.post(url + path, json={"x": 1}) as resp:
                async for line in resp.content:
                    if line.startswith(b"data: {"):
                        json.loads(line[6:])
                        now = time.perf_counter()
                        if not count:
                            first = now
                        last = now
                        count += 1
            firsts.append(first - start)
            per.append((last - first) / max(1, count - 1))
    return statistics.median(firsts), statistics.median(per)


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=30)
    ap.add_argument("--chunks", type=int, default=200)
    ap.add_argument("--failures-only", action="store_true", help="print only the failure table")
    args = ap.parse_args()
    if not args.failures_only:
        await timings(args.calls, args.chunks)
    await failures()


async def failures() -> None:
    import logging

    from tests.providers.failure_matrix import FAILURES, VENDOR_CASES, applies, run_case, table_rows

    logging.disable(logging.ERROR)  # the engine logs each failed turn; the table says it
    print("\nWhat the user is shown, per vendor x failure (issue 24 A; stub on 127.0.0.1)")
    outcomes = {}
    for vendor in VENDOR_CASES:
        for failure in FAILURES:
            if applies(vendor, failure):
                outcomes[(vendor, failure)] = await run_case(vendor, failure)
    for line in table_rows(outcomes):
        print(line)


async def timings(calls: int, n: int) -> None:
    stub = StubServer()
    await stub.start()
    stub.add("POST", "/v1/chat/completions", Reply(body=openai_body(n), content_type="text/event-stream"))
    stub.add("POST", "/v1/messages", Reply(body=anthropic_body(n), content_type="text/event-stream"))
    stub.add("POST", "/v1beta/models/gemini-2.5-flash:streamGenerateContent", Reply(body=gemini_body(n), content_type="text/event-stream"))
    cases = [
        ("openai-chat", OpenAIChatProvider(api_key="k", base_url=stub.url + "/v1"), "gpt-4o", "/v1/chat/completions"),
        ("anthropic", AnthropicProvider(api_key="k", base_url=stub.url, thinking_budget=None), "claude-haiku-4-5", "/v1/messages"),
        ("gemini", GeminiProvider(api_key="k", base_url=stub.url, include_thoughts=False), "gemini-2.5-flash", "/v1beta/models/gemini-2.5-flash:streamGenerateContent"),
    ]
    print(f"{calls} calls x {n} text deltas per call, stub on 127.0.0.1 (medians)")
    print(f"{'provider':<12} {'first (ms)':>11} {'per-chunk (us)':>15} {'raw first (ms)':>15} {'raw per-chunk (us)':>19}")
    for name, provider, model, path in cases:
        await measure(provider, model, 2, n)  # warm-up: client built, connection open
        first, per = await measure(provider, model, calls, n)
        raw_first, raw_per = await measure_raw(stub.url, path, calls)
        print(f"{name:<12} {first * 1e3:>11.2f} {per * 1e6:>15.1f} {raw_first * 1e3:>15.2f} {raw_per * 1e6:>19.1f}")
        await provider.aclose()
    await stub.stop()


if __name__ == "__main__":
    asyncio.run(main())
