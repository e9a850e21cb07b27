"""The browser connector's thread closes its event loop when it stops (no loop, and
none of its sockets, left for the garbage collector)."""

from __future__ import annotations

import asyncio

from openworker_qt.connectors.browser_host import BrowserHost


async def test_closing_the_browser_thread_closes_its_loop() -> None:
    host = BrowserHost()

    async def where() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    loop = await host.call(where())  # starts the thread and its loop
    assert host.running and loop is not asyncio.get_running_loop()
    await host.close_all()
    assert not host.running
    assert loop.is_closed()
