"""A tiny OpenAI-compatible chat server for bench/ui_stall.py (a process of its own).

``POST /v1/chat/completions`` streams ``--words`` text deltas as the real API
does (SSE ``chat.completion.chunk`` events, then ``[DONE]``), ``--pace`` seconds
apart; ``GET /v1/models`` lists one model. Prints ``port <n>`` once listening.
"""

from __future__ import annotations

import argparse
import asyncio
import json

from aiohttp import web


def chunk(delta: dict[str, object], finish: str | None = None) -> bytes:
    body = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1,
            "model": "gpt-4o-mini", "choices": [{"index": 0, "delta": delta,
                                                 "finish_reason": finish}]}
    return f"data: {json.dumps(body)}\n\n".encode()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--words", type=int, default=300)
    parser.add_argument("--pace", type=float, default=0.002)
    args = parser.parse_args()

    async def completions(request: web.Request) -> web.StreamResponse:
        await request.read()
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(chunk({"role": "assistant", "content": ""}))
        words = ["lorem ", "ipsum ", "dolor ", "sit ", "amet, ", "**bold** ", "`code` ", "\n\n"]
        for i in range(args.words):
            await response.write(chunk({"content": words[i % len(words)]}))
            if args.pace:
                await asyncio.sleep(args.pace)
        await response.write(chunk({}, "stop"))
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response

    async def models(_request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [
            {"id": "gpt-4o-mini", "object": "model", "created": 1, "owned_by": "bench"}]})

    app = web.Application()
    app.router.add_post("/v1/chat/completions", completions)
    app.router.add_get("/v1/models", models)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    print(f"port {port}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
