"""Builders shared by the engine tests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import (
    ApprovalOutcome,
    ApprovalRequest,
    Decision,
    ToolCallInfo,
)
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.history import HistoryStore, MemoryHistory
from openworker_qt.core.messages import Capabilities
from openworker_qt.core.provider_api import ModelProvider
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolRegistry, ToolResult
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.tools.files import file_tools


class StaticResolver:
    """Resolves every model string to providers registered by name."""

    def __init__(self, provider: ModelProvider, **others: ModelProvider) -> None:
        self.default = provider
        self.others = others

    def resolve(self, model: str) -> tuple[ModelProvider, str]:
        head, _, tail = model.partition(":")
        if head in self.others:
            return self.others[head], tail
        return self.default, model


class AllowAll:
    def evaluate(self, call: ToolCallInfo) -> Decision:
        return Decision(allowed=True, rule="test:allow-all")

    def remember(self, call: ToolCallInfo, outcome: ApprovalOutcome) -> None:
        return None


def answering(outcome: ApprovalOutcome) -> Callable[[ApprovalRequest], Awaitable[ApprovalOutcome]]:
    seen: list[ApprovalRequest] = []

    async def approver(request: ApprovalRequest) -> ApprovalOutcome:
        seen.append(request)
        return outcome

    approver.seen = seen
    return approver


def make_engine(
    turns: Sequence[dict[str, Any]],
    tmp_path: Path,
    *,
    tools: list[Tool] | None = None,
    store: HistoryStore | None = None,
    caps: Capabilities | None = None,
    session_id: str = "s1",
    **kwargs: Any,
) -> tuple[TurnEngine, ScriptedProvider]:
    provider = ScriptedProvider(turns, caps=caps)
    engine = TurnEngine(
        session_id=session_id,
        store=store or MemoryHistory(),
        resolver=StaticResolver(provider),
        model=kwargs.pop("model", "scripted-model"),
        tools=ToolRegistry(tools if tools is not None else file_tools()),
        workspace=tmp_path,
        **kwargs,
    )
    return engine, provider


async def collect(stream: AsyncIterator[ev.Event]) -> list[ev.Event]:
    return [event async for event in stream]


def types(events: Sequence[ev.Event]) -> list[str]:
    return [e.type for e in events]


def fake_tool(
    name: str,
    handler: Callable[[dict[str, Any], ToolContext], Awaitable[ToolResult | str]],
    *,
    risk: RiskClass = RiskClass.READ,
    concurrent: bool = True,
    **kw: Any,
) -> Tool:
    return Tool(
        name=name,
        description=f"test tool {name}",
        parameters={"type": "object", "properties": {}},
        handler=handler,
        risk=risk,
        concurrency_safe=concurrent,
        **kw,
    )


def call(name: str, args: dict[str, Any] | None = None, cid: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "arguments": args or {}}
    if cid:
        out["id"] = cid
    return out


async def forever() -> None:
    await asyncio.Event().wait()
