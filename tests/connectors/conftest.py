"""Fixtures the connector tests share: a local HTTP stub of a service, a runtime
whose back-off sleeps are recorded instead of waited, the sleeps themselves, and
no Zoom access token kept from one test to the next."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from openworker_qt.connectors.services import zoom
from tests.connectors.helpers import Sleeps, runtime
from tests.providers.stubs import StubServer


@pytest_asyncio.fixture
async def stub() -> AsyncIterator[StubServer]:
    server = StubServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def rt(sleeps: Sleeps) -> Any:
    runtime_ = runtime(sleeps)
    yield runtime_
    runtime_.close()


@pytest.fixture(autouse=True)
def no_kept_zoom_tokens() -> Any:
    zoom._ZOOM_TOKENS.clear()
    yield
    zoom._ZOOM_TOKENS.clear()
