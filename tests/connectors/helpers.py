"""Shared pieces of the connector tests: a runtime on the test's state, the
stub HTTP server of the provider tests (real HTTP on 127.0.0.1), a recording
sleep (the waits a connector asked for, without spending them), a turn
driver that parks a call in the inbox and answers it, and :class:`Case`: one
HTTP connector as a small table of the routes its tools use, which
test_every_connector.py puts through the same checks (the tables are in
test_services.py, test_catalog_a.py and test_catalog_b.py)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openworker_qt.connectors.base import RetryPolicy
from openworker_qt.core.approvers import InboxApprover
from openworker_qt.core.inbox import InboxItem
from openworker_qt.core.tool_api import ToolContext, ToolResult
from openworker_qt.runtime import Runtime, open_runtime
from tests.providers.stubs import Reply, StubServer

#: method, path, the answer: a JSON body, a text body (str), a Reply as it is, or
#: None (204 No Content). "{token}" in a path is the case's token (Telegram's).
Route = tuple[str, str, Any]


def json_reply(body: Any, status: int = 200, **headers: str) -> Reply:
    return Reply(status=status, body=json.dumps(body), headers=dict(headers))


@dataclass
class Sleeps:
    """A sleep that records what was asked (and yields once)."""

    asked: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        await asyncio.sleep(0)


def runtime(sleeps: Sleeps) -> Runtime:
    rt = open_runtime()
    rt.connectors.policy = RetryPolicy(sleep=sleeps)
    return rt


def script(folder: Path, turns: list[dict[str, Any]]) -> str:
    path = folder / "script.json"
    path.write_text(json.dumps({"advance": "history", "turns": turns}), encoding="utf-8")
    return f"scripted:{path}"


async def wait_for(predicate: Any, *, within: float = 10.0) -> Any:
    """Poll ``predicate`` until it returns something truthy (fails after ``within`` s)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while True:
        value = predicate()
        if value:
            return value
        if loop.time() > end:
            raise AssertionError("the condition was not met in time")
        await asyncio.sleep(0.02)


async def park_and_approve(
    rt: Runtime, tmp_path: Path, tool: str, arguments: dict[str, Any],
) -> tuple[InboxItem, list[Any]]:
    """A session whose model calls ``tool``: the call parks in the inbox; approve it.

    Returns the parked item and the session's messages after the turn."""
    model = script(tmp_path, [
        {"tool_calls": [{"name": tool, "arguments": arguments, "id": "c1"}]},
        {"text": "done"},
    ])
    manager = rt.session_manager(
        approver_for=lambda _i: InboxApprover(rt.inbox, poll=0.02), default_model=model)
    info = manager.create_session(workspace=str(tmp_path), mode="interactive")
    task = manager.send(info.id, "go")
    assert task is not None
    item: InboxItem = await wait_for(lambda: next(iter(rt.inbox.pending(info.id)), None))
    assert rt.inbox.respond(item.id, "approve", by="test")
    await asyncio.wait_for(task, 30)
    return item, rt.conversations.load(info.id)


async def run_tool(rt: Runtime, name: str, arguments: dict[str, Any], tmp_path: Path) -> ToolResult:
    tool = next(t for t in rt.connectors.tools() if t.name == name)
    out = await tool.handler(arguments, ToolContext(session_id="s", workspace=tmp_path))
    return out if isinstance(out, ToolResult) else ToolResult(out)


@dataclass
class Case:
    """One HTTP connector against the stub: how it connects, one read tool, one action."""

    id: str
    values: dict[str, str]  # "{url}" is replaced by the stub's address, "{token}" by the token
    validate: list[Route]  # the calls of the validation, in order
    identity: str
    read: tuple[str, dict[str, Any], list[Route], str]  # tool, arguments, routes, text expected
    # tool, arguments, routes (the last one is the write), target expected, and what the
    # write sent (None: not checked)
    action: tuple[str, dict[str, Any], list[Route], str, dict[str, Any] | None]
    expired: Reply = field(default_factory=lambda: json_reply({"message": "Invalid token"}, 401))
    always: list[Route] = field(default_factory=list)  # answered at every step (an OAuth token)
    token: str = "tok-abcdef-123456"


def reply(body: Any) -> Reply:
    if isinstance(body, Reply):
        return body
    if body is None:
        return Reply(status=204)
    if isinstance(body, str):
        return Reply(body=body, content_type="text/plain")
    return json_reply(body)


def values(case: Case, stub: StubServer, token: str | None = None) -> dict[str, str]:
    return {k: v.replace("{url}", stub.url).replace("{token}", token or case.token)
            for k, v in case.values.items()}


def at(path: str, case: Case, token: str | None = None) -> str:
    """A route's path (Telegram puts the token in it)."""
    return path.replace("{token}", token or case.token)


def reset(stub: StubServer, case: Case) -> None:
    """No routes but the ones answered at every step; nothing seen."""
    stub.routes.clear()
    stub.seen.clear()
    for method, path, body in case.always:
        stub.add(method, at(path, case), reply(body))


def add(stub: StubServer, case: Case, routes: list[Route]) -> None:
    for method, path, body in routes:
        stub.add(method, at(path, case), reply(body))


async def connect(rt: Runtime, case: Case, stub: StubServer) -> None:
    """``case`` connected through the registry; the stub reset after."""
    reset(stub, case)
    add(stub, case, case.validate)
    identity = await rt.connectors.connect(case.id, values(case, stub))
    assert identity.text() == case.identity
    reset(stub, case)
