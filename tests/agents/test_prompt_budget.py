"""What rides with every call counts in the context budget: the persona's system
prompt and the tool schemas it is offered bring compaction forward; a catalogue of
many skills stays bounded in the prompt (the rest are one load_skill call away)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from openworker_qt.agents.personas import builtin_personas
from openworker_qt.agents.prompt import assemble_system_prompt, current_environment
from openworker_qt.agents.skills import (
    CATALOGUE_MAX_CHARS,
    CATALOGUE_MAX_SKILLS,
    discover,
    load_skill_tool,
)
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.messages import Capabilities
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolRegistry, ToolResult
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from tests.core.helpers import StaticResolver, collect
from tests.core.test_compaction import main_requests, summariser, summary_requests
from tests.core.test_context import history

CAPS = Capabilities(context_window=32_000)  # compaction from ~17,300 tokens on
ENV = current_environment(workspace="/work/project", read_roots=("/work/project",),
                          write_roots=("/work/project",), mode="interactive")


def long_persona_prompt() -> str:
    """The Code persona with long instructions (~10,000 tokens), as a user might write."""
    code = builtin_personas()["code"]
    body = code.body + "\n\n" + "Follow the house style for every change. " * 1_000
    return assemble_system_prompt(replace(code, body=body), ENV)


def many_tools() -> ToolRegistry:
    async def handler(args: dict, ctx: ToolContext) -> ToolResult:
        return ToolResult("ok")

    return ToolRegistry([Tool(name=f"service_{i}", description="Does one thing. " * 70,
                              parameters={"type": "object", "properties": {}},
                              handler=handler, risk=RiskClass.READ) for i in range(40)])


async def one_turn(tmp_path: Path, *, system_prompt: str = "",
                   tools: ToolRegistry | None = None) -> ScriptedProvider:
    """A session of 8 exchanges (~9,000 tokens of history) takes one more turn."""
    store = ConversationStore(Database(tmp_path / f"app-{len(system_prompt)}-{bool(tools)}.db"))
    sid = store.create_session(model="anthropic:claude-sonnet-4-5").id
    for msg in history(8):
        store.append(sid, msg)
    provider = ScriptedProvider([{"text": "done"}], caps=CAPS, by_system=summariser())
    engine = TurnEngine(session_id=sid, store=store, resolver=StaticResolver(provider),
                        model="anthropic:claude-sonnet-4-5", tools=tools or ToolRegistry(),
                        workspace=tmp_path, system_prompt=system_prompt, compaction=True)
    events = await collect(engine.run("and now?"))
    assert events[-1].status == "completed"
    return provider


async def test_a_long_persona_prompt_counts_in_the_budget(tmp_path: Path) -> None:
    short = await one_turn(tmp_path, system_prompt=assemble_system_prompt(
        builtin_personas()["code"], ENV))
    assert summary_requests(short) == []  # the history alone fits
    long = await one_turn(tmp_path, system_prompt=long_persona_prompt())
    assert len(summary_requests(long)) == 1  # with the prompt it nears the window
    [sent] = main_requests(long)
    assert len(sent.messages) < len(history(8))


async def test_the_offered_tools_count_in_the_budget(tmp_path: Path) -> None:
    assert summary_requests(await one_turn(tmp_path)) == []
    provider = await one_turn(tmp_path, tools=many_tools())  # ~10,000 tokens of schemas
    assert len(summary_requests(provider)) == 1
    [sent] = main_requests(provider)
    assert len(sent.tools) == 40


def skills_folder(root: Path, n: int) -> Path:
    for i in range(n):
        folder = root / f"skill-{i:03}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{i:03}\ndescription: {'Handles one kind of document well. ' * 8}"
            f"\n---\nStep by step.\n", encoding="utf-8")
    return root


async def test_two_hundred_skills_stay_bounded_in_the_prompt(tmp_path: Path) -> None:
    user = skills_folder(tmp_path / "skills", 200)
    skills = discover(None, user)
    assert len(skills) == 200
    prompt = assemble_system_prompt(builtin_personas()["cowork"], ENV, skills=skills)
    section = prompt[prompt.index("# Skills"):]
    listed = [line for line in section.splitlines() if line.startswith("- skill-")]
    assert 0 < len(listed) <= CATALOGUE_MAX_SKILLS
    assert len(section) < CATALOGUE_MAX_CHARS + 1_000
    more = 200 - len(listed)
    assert f"- … {more} more skills — use load_skill with the name \"*\" to list them all" in section
    # The bound holds for any number of skills: the prompt of 200 is the prompt of 100.
    fewer = assemble_system_prompt(builtin_personas()["cowork"], ENV, skills=skills[:100])
    assert abs(len(prompt) - len(fewer)) < 10
    # load_skill("*") names every one of them, and each loads by name.
    tool = load_skill_tool(lambda: user)
    ctx = ToolContext(session_id="s", workspace=tmp_path)
    every = await tool.handler({"name": "*"}, ctx)
    assert not every.is_error and every.content.count("\n- skill-") == 200
    last = await tool.handler({"name": "skill-199"}, ctx)
    assert not last.is_error and "Step by step." in last.content
