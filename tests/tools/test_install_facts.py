"""The install card's size and licence, asked of the package's registry before the
approval: a local PyPI (its JSON API and its /simple index, which the real pip
installs from) and a local npm registry, served here; never the network."""

from __future__ import annotations

import hashlib
import json
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from openworker_qt.core import events as ev
from openworker_qt.runtime import Runtime, open_runtime
from openworker_qt.tools import install_facts, installs
from openworker_qt.tools.installs import request_from
from tests.tools.test_installs import manager, run, script, wheel


class Registry:
    """A PyPI and an npm registry in one local server, speaking their real protocols."""

    def __init__(self, folder: Path) -> None:
        self.wheel = wheel(folder)
        self.asked: list[str] = []
        self.url = ""
        self._runner: web.AppRunner | None = None

    async def _pypi(self, request: web.Request) -> web.Response:
        self.asked.append(request.path)
        name = request.match_info["name"]
        if name != "ow-hello":
            return web.json_response({"message": "Not Found"}, status=404)
        data = self.wheel.read_bytes()
        return web.json_response({
            "info": {"name": "ow-hello", "version": "0.1.0", "license": "",
                     "license_expression": "MIT", "classifiers": [
                         "License :: OSI Approved :: MIT License"],
                     "requires_dist": ["colorama>=0.4", "rich; extra == \"fancy\""]},
            "urls": [
                {"filename": "ow_hello-0.1.0-cp99-cp99-nowhere_x86.whl", "packagetype":
                 "bdist_wheel", "size": 999_999, "url": f"{self.url}/files/other.whl"},
                {"filename": self.wheel.name, "packagetype": "bdist_wheel", "size": len(data),
                 "url": f"{self.url}/files/{self.wheel.name}",
                 "digests": {"sha256": hashlib.sha256(data).hexdigest()}},
                {"filename": "ow_hello-0.1.0.tar.gz", "packagetype": "sdist", "size": 4_000,
                 "url": f"{self.url}/files/ow_hello-0.1.0.tar.gz"}]})

    async def _simple(self, request: web.Request) -> web.Response:
        """PEP 503: the links pip downloads from."""
        self.asked.append(request.path)
        if request.match_info["name"] != "ow-hello":
            return web.Response(status=404)
        digest = hashlib.sha256(self.wheel.read_bytes()).hexdigest()
        href = f"{self.url}/files/{self.wheel.name}#sha256={digest}"
        return web.Response(content_type="text/html",
                            text=f'<html><body><a href="{href}">{self.wheel.name}</a></body></html>')

    async def _file(self, request: web.Request) -> web.Response:
        return web.Response(body=self.wheel.read_bytes(), content_type="application/octet-stream")

    async def _npm(self, request: web.Request) -> web.Response:
        self.asked.append(request.raw_path)
        if request.match_info["name"] != "@acme/md-tool":
            return web.json_response({"error": "Not found"}, status=404)
        return web.json_response({"name": "@acme/md-tool", "version": "2.1.0",
                                  "license": {"type": "Apache-2.0"},
                                  "dependencies": {"a": "^1", "b": "^2"},
                                  "dist": {"unpackedSize": 2_621_440, "fileCount": 12}})

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/pypi/{name}/json", self._pypi)
        app.router.add_get("/pypi/{name}/{version}/json", self._pypi)
        app.router.add_get("/simple/{name}/", self._simple)
        app.router.add_get("/files/{file}", self._file)
        app.router.add_get("/npm/{name}/{version}", self._npm)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


@pytest_asyncio.fixture
async def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Registry]:
    folder = tmp_path / "served"
    folder.mkdir()
    served = Registry(folder)
    await served.start()
    monkeypatch.delenv("PIP_NO_INDEX", raising=False)
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    monkeypatch.setenv("PIP_INDEX_URL", f"{served.url}/simple/")
    monkeypatch.setenv("npm_config_registry", f"{served.url}/npm/")
    try:
        yield served
    finally:
        await served.stop()


@pytest.fixture
def rt(isolated_state: Path) -> Iterator[Runtime]:
    runtime = open_runtime()
    yield runtime
    runtime.close()


async def test_pypi_facts_come_from_the_index_pip_uses(registry: Registry) -> None:
    facts = await install_facts.lookup(request_from({"package": "ow-hello"}))
    assert facts == {"version": "0.1.0", "licence": "MIT", "size": registry.wheel.stat().st_size,
                     "size_kind": "download", "needs": 1}  # the wheel that fits; extras left out
    assert registry.asked == ["/pypi/ow-hello/json"]
    await install_facts.lookup(request_from({"package": "ow-hello", "version": "0.1.0"}))
    assert registry.asked[-1] == "/pypi/ow-hello/0.1.0/json"


async def test_npm_facts_come_from_the_registry(registry: Registry) -> None:
    facts = await install_facts.lookup(request_from({"package": "@acme/md-tool", "source": "npm"}))
    assert facts == {"version": "2.1.0", "licence": "Apache-2.0", "size": 2_621_440,
                     "size_kind": "unpacked", "needs": 2}
    assert registry.asked == ["/npm/@acme%2Fmd-tool/latest"]
    text = installs.facts_text(facts)
    assert text == "2.5 MB unpacked, plus 2 other packages it needs; licence Apache-2.0"


async def test_a_folder_pip_installs_from_is_read_without_a_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = wheel(tmp_path)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))
    facts = await install_facts.lookup(request_from({"package": "OW_Hello"}))
    assert facts == {"version": "0.1.0", "size": built.stat().st_size, "size_kind": "download",
                     "needs": 0, "licence": "MIT"}


async def _asked(rt: Runtime, tmp_path: Path, package: str, purpose: str) -> tuple[Any, str, Any]:
    """An unattended session whose model asks to install ``package``: its manager,
    its id and the install card parked in the inbox."""
    s = script(tmp_path, [
        {"tool_calls": [{"id": "i1", "name": "install_tool", "arguments": {
            "package": package, "purpose": purpose}}]},
        {"text": "Done."},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(tmp_path), mode="auto", unattended=True)
    await run(m, info.id, "go")
    [ask] = rt.inbox.pending()
    return m, info.id, ask


async def test_the_card_shows_size_and_licence_before_approval_and_pip_installs_that_package(
    rt: Runtime, tmp_path: Path, registry: Registry
) -> None:
    m, sid, ask = await _asked(rt, tmp_path, "ow-hello", "greet the team")
    assert "Install ow-hello 0.1.0 from PyPI (pip)" in ask.reason
    assert "A 1 KB download, plus 1 other package it needs; licence MIT. It runs" in ask.reason
    assert not (tmp_path / "owhome" / "data" / "tools").exists()  # nothing installed yet
    rt.inbox.respond(ask.id, "approve")
    events = await run(m, sid)
    done = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert done.status == "ok", done.result
    assert "/simple/ow-hello/" in registry.asked  # the real pip, from the same index


async def test_a_registry_that_does_not_know_it_leaves_the_facts_out(
    rt: Runtime, tmp_path: Path, registry: Registry
) -> None:
    _m, _sid, ask = await _asked(rt, tmp_path, "unknown-tool", "x")
    assert "Install unknown-tool (latest) from PyPI (pip)" in ask.reason
    assert "Its size and licence could not be looked up. It runs" in ask.reason
    assert json.dumps(registry.asked) == '["/pypi/unknown-tool/json"]'


def test_a_licence_pasted_in_full_is_not_shown_as_its_name() -> None:
    facts = install_facts._pypi_facts(request_from({"package": "x"}), {"info": {
        "version": "1", "license": "Copyright (c) 2024 Someone\n\nPermission is hereby granted, "
        "free of charge, to any person obtaining a copy",
        "classifiers": ["License :: OSI Approved :: BSD License"]}, "urls": []})
    assert facts["licence"] == "Copyright (c) 2024 Someone"
    long = install_facts._pypi_facts(request_from({"package": "x"}), {"info": {
        "version": "1", "license": "x" * 200, "classifiers": [
            "License :: OSI Approved :: BSD License"]}, "urls": []})
    assert long["licence"] == "BSD License"
    none: dict[str, Any] = install_facts._pypi_facts(request_from({"package": "x"}), {})
    assert "licence" not in none and "size" not in none
