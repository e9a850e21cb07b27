"""The client against real servers from the registries, run as subprocesses the
way users configure them: mcp-server-time and mcp-server-git (PyPI) and
@modelcontextprotocol/server-everything (npm, installed into tests/mcp/node by
scripts/dev; run offline). Tools, resources, prompts, progress, cancellation."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from openworker_qt.domain.risk import RiskClass
from openworker_qt.mcp.config import parse_server
from openworker_qt.mcp.manager import McpManager
from openworker_qt.mcp.status import State
from tests.mcp.helpers import EVERYTHING, VENV_BIN, Card, call, context, until


async def running(name: str, raw: dict) -> McpManager:
    manager = McpManager([parse_server(name, raw)], connect_timeout=30)
    await manager.start_all()
    await manager.wait_ready(40)
    assert manager.servers[name].status.state is State.READY, manager.servers[name].status
    return manager


def npx_everything() -> dict:
    """npx runs the locally installed package (no download: offline, pinned)."""
    assert EVERYTHING.exists(), "run scripts/dev install (npm install --prefix tests/mcp/node)"
    return {"command": "npx", "args": ["--offline", "--no-install", "mcp-server-everything", "stdio"],
            "cwd": str(EVERYTHING.parents[2])}


@pytest_asyncio.fixture
async def everything() -> AsyncIterator[McpManager]:
    manager = await running("everything", npx_everything())
    try:
        yield manager
    finally:
        await manager.stop_all()


async def test_time_server_tools() -> None:
    manager = await running("time", {"command": str(VENV_BIN / "mcp-server-time"),
                                     "args": ["--local-timezone", "UTC"]})
    try:
        registry = manager.tools()
        assert {"mcp__time__get_current_time", "mcp__time__convert_time"} <= set(registry.names())
        result = await call(registry, "time", "get_current_time", {"timezone": "Europe/Paris"})
        assert not result.is_error
        assert json.loads(result.content)["timezone"] == "Europe/Paris"
        bad = await call(registry, "time", "get_current_time", {"timezone": "Mars/Olympus"})
        assert bad.is_error
    finally:
        await manager.stop_all()


async def test_git_server_tools(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    for args in (["init", "-q"], ["config", "user.email", "t@example.com"],
                 ["config", "user.name", "T"]):
        subprocess.run(["git", *args], cwd=repo, check=True)
    (repo / "a.txt").write_text("alpha\n")
    subprocess.run(["git", "add", "a.txt"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "first commit"], cwd=repo, check=True)
    manager = await running("git", {"command": str(VENV_BIN / "mcp-server-git"),
                                    "args": ["--repository", str(repo)]})
    try:
        registry = manager.tools()
        log = await call(registry, "git", "git_log", {"repo_path": str(repo)})
        assert "first commit" in log.content
        # The server says git_status only reads; that is shown, never trusted alone.
        status = registry.get("mcp__git__git_status")
        assert status is not None and status.risk_class() is RiskClass.EXTERNAL
        info = next(t for t in manager.servers["git"].tools if t.name == "git_status")
        result = await call(registry, "git", "git_status", {"repo_path": str(repo)})
        assert result.display and result.display["mcp"]["read_only_hint"] == info.read_only_hint
    finally:
        await manager.stop_all()


async def test_everything_tools_structured_and_images(everything: McpManager) -> None:
    registry = everything.tools()
    assert (await call(registry, "everything", "echo", {"message": "hi"})).content.endswith("hi")
    assert "3" in (await call(registry, "everything", "get-sum", {"a": 1, "b": 2})).content
    image = await call(registry, "everything", "get-tiny-image", {})
    assert "[image: image/png" in image.content
    assert image.display and image.display["mcp_content"][0]["type"] == "image"
    links = await call(registry, "everything", "get-resource-links", {"count": 2})
    assert "[resource: demo://" in links.content


async def test_everything_resources_and_prompts(everything: McpManager) -> None:
    srv = everything.servers["everything"]
    resources = await srv.list_resources()
    doc = next(r for r in resources if r.name == "architecture.md")
    text = await srv.read_resource(doc.uri)
    assert len(text) > 100
    prompts = {p.name: p for p in await srv.list_prompts()}
    assert ("city", True) in prompts["args-prompt"].arguments
    filled = await srv.get_prompt("args-prompt", {"city": "Lyon"})
    assert "Lyon" in filled


async def test_everything_progress_and_cancellation(everything: McpManager) -> None:
    registry = everything.tools()
    card = Card()
    result = await call(registry, "everything", "trigger-long-running-operation",
                        {"duration": 0.3, "steps": 3}, context(card))
    assert not result.is_error
    assert "(3/3)" in card.text
    # Stopped mid-way: the call ends at once and the server keeps serving.
    card = Card()
    task = asyncio.ensure_future(call(registry, "everything", "trigger-long-running-operation",
                                      {"duration": 60, "steps": 60}, context(card)))
    await until(lambda: "(1/60)" in card.text)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (await call(registry, "everything", "echo", {"message": "after"})).content.endswith("after")


async def test_the_composer_sees_resources_and_prompts_of_ready_servers(
    everything: McpManager,
) -> None:
    resources = await everything.resources()
    assert ("everything", "architecture.md") in [(s, r.name) for s, r in resources]
    uri = next(r.uri for _s, r in resources if r.name == "architecture.md")
    assert len(await everything.attachment("everything", uri)) > 100
    prompts = await everything.prompts()
    assert ("everything", "simple-prompt") in [(s, p.name) for s, p in prompts]
