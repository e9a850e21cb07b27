"""A scripted team for the engine tests and bench/teams.py: a lead and workers whose
answers follow from what their sessions were told (so any order of parallel work,
and a team resumed by another process, gets the right answer).

The model ``teamtest:lead`` plans (``team_plan`` with the plan of the script),
reviews (accepts an item's result, or sends back the first version of the items
named in ``send_back``) and assembles; ``teamtest:worker`` answers its item with
``Result for <title> v<n>`` (n: how many times it was asked), first calling the
tool the script names for it (``tools``: worker name → a tool call), once.

The script (a dict, or the JSON file named by ``OPENWORKER_TEAMTEST``): ``plan``,
``send_back`` (item titles), ``tools``, ``delay`` (seconds per call), ``usage``
(tokens per call), ``delays`` (per model: ``lead``, ``worker``), ``review_tool`` (the board tool the lead moves items with:
name and how its arguments are spelled).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from openworker_qt.core.messages import Capabilities
from openworker_qt.core.provider_api import (
    FinishChunk,
    ModelRequest,
    StreamChunk,
    TextChunk,
    ToolCallChunk,
)

LEAD_START = re.compile(r"You lead team (\S+)\.")
REVIEW = re.compile(r"Item (\S+) is in review")
WORKER = re.compile(r"You are (\S+), a worker of team (\S+) .*?Your item is (\S+):\n\[title[^\]]*\]\n> ([^\n]*)",
                    re.S)


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content or "")


class TeamTestProvider:
    name = "teamtest"

    def __init__(self, script: dict[str, Any] | None = None) -> None:
        if script is None:
            script = json.loads(Path(os.environ["OPENWORKER_TEAMTEST"]).read_text())
        self.script = script
        self.calls = 0

    def capabilities(self, model: str) -> Capabilities:
        return Capabilities(vision=False, pdf=False, reasoning=False)

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        self.calls += 1
        delays = self.script.get("delays") or {}
        await asyncio.sleep(float(delays.get(request.model, self.script.get("delay", 0.0))))
        reply = (self._lead(request.messages) if request.model == "lead"
                 else self._worker(request.messages))
        if reply.get("text"):
            yield TextChunk(str(reply["text"]))
        for n, call in enumerate(reply.get("tool_calls") or []):
            yield ToolCallChunk(id=f"c{self.calls}_{n}", name=call["name"],
                                arguments=json.dumps(call["arguments"]))
        usage = self.script.get("usage") or {"input_tokens": 100, "output_tokens": 10}
        yield FinishChunk(reason="tool_calls" if reply.get("tool_calls") else "stop",
                          usage={k: int(v) for k, v in usage.items()})

    # ------------------------------------------------------------ the lead

    def _lead(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        talk = [m for m in messages if m.get("role") in ("user", "assistant", "tool")
                and not _text(m).startswith("<system-reminder>")]
        if talk[-1].get("role") == "tool":
            return {"text": "Noted."}
        text = _text(next(m for m in reversed(talk) if m.get("role") == "user"))
        start = LEAD_START.search(text)
        if start or "propose it again" in text:
            return {"text": "Here is my plan.",
                    "tool_calls": [{"name": "team_plan", "arguments": {"plan": self.script["plan"]}}]}
        if "Assemble the final deliverable" in text:
            results = re.findall(r"> (Result for .*)", text)
            return {"text": "DELIVERABLE\n" + "\n".join(sorted(results))}
        calls = []
        for item_id in REVIEW.findall(text):
            block = text.split(f"Item {item_id} is in review", 1)[1]
            result = re.search(r"> (Result for (.*) v(\d+))", block)
            title, version = (result.group(2), int(result.group(3))) if result else ("", 1)
            back = title in self.script.get("send_back", []) and version == 1
            calls.append(self._move(item_id, "in_progress" if back else "done",
                                    "Add the sources, please." if back else "Accepted."))
        if calls:
            return {"text": "Reviewing.", "tool_calls": calls}
        return {"text": "OK."}

    def _move(self, item_id: str, to: str, comment: str) -> dict[str, Any]:
        spec = self.script.get("review_tool") or {}
        name = spec.get("name", "board_transition")
        args = {spec.get("item", "item"): item_id, spec.get("to", "to"): to,
                spec.get("comment", "comment"): comment}
        return {"name": name, "arguments": args}

    # ------------------------------------------------------------ a worker

    def _worker(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        users = [m for m in messages if m.get("role") == "user"
                 and not _text(m).startswith("<system-reminder>")]
        brief = WORKER.search(_text(users[0])) if users else None
        name, title = (brief.group(1), brief.group(4).strip()) if brief else ("?", "?")
        tool = (self.script.get("tools") or {}).get(name)
        talk = [m for m in messages if m.get("role") in ("user", "assistant", "tool")
                and not _text(m).startswith("<system-reminder>")]
        last = talk[-1]
        asked_tool = any(m.get("role") == "assistant" and m.get("tool_calls") for m in messages)
        if tool and not asked_tool and last.get("role") == "user":
            return {"text": "Working.", "tool_calls": [tool]}
        extra = self.script.get("comment", {}).get(name)
        calls = [extra] if extra and last.get("role") == "user" and len(users) == 1 else []
        if calls:
            return {"text": "A note first.", "tool_calls": calls}
        return {"text": f"Result for {title} v{len(users)}"}


def register(router: Any, script: dict[str, Any] | None = None) -> TeamTestProvider:
    provider = TeamTestProvider(script)
    router.register("teamtest", lambda: provider)
    return provider
