"""Fixtures for provider tests: a stub server per test (see ``stubs.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.providers.helpers import close_providers
from tests.providers.stubs import StubServer


@pytest_asyncio.fixture
async def stub() -> AsyncIterator[StubServer]:
    server = StubServer()
    await server.start()
    try:
        yield server
    finally:
        await close_providers()
        await server.stop()
