"""Each installed persona's own allowlist of connectors: a persona that names the
services it may use (``connectors:``) is offered only their tools."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.agents.minds import SessionMinds
from openworker_qt.agents.personas import PersonaRegistry
from openworker_qt.core.tool_api import Tool, ToolContext, ToolRegistry
from openworker_qt.runtime_tools import default_tools
from tests.agents.test_personas import HELPER, info


async def _noop(args: dict[str, Any], ctx: ToolContext) -> str:
    return "ok"


def registry() -> ToolRegistry:
    tools = default_tools(info())
    schema = {"type": "object", "properties": {}}
    tools.add(Tool.from_connector("github", name="github_issues", description="d",
                                  parameters=schema, handler=_noop))
    tools.add(Tool.from_mcp("tickets", name="tickets_list", description="d", parameters=schema,
                            handler=_noop))
    tools.add(Tool.from_mcp("bank", name="bank_transfer", description="d", parameters=schema,
                            handler=_noop))
    return tools


class _Roots:
    mode = "interactive"

    def writable_roots(self) -> list[Path]:
        return []

    def read_roots(self) -> list[Path]:
        return []


def minds(tmp_path: Path, persona_text: str) -> SessionMinds:
    personas = PersonaRegistry(tmp_path / "personas")
    src = tmp_path / "src"
    src.mkdir()
    (src / "PERSONA.md").write_text(persona_text)
    installed = personas.install_folder(src)
    personas.consent(installed.name, installed.fingerprint)
    personas.load()
    return SessionMinds(personas, user_skills=None, decider_for=lambda _i: _Roots())  # type: ignore[arg-type,return-value]


def test_an_installed_persona_gets_only_the_services_it_names(tmp_path: Path) -> None:
    text = HELPER.replace("tools: [files, git, shell]", "tools: [files, connectors]").replace(
        "connectors: [github]", "connectors: [github, tickets]")
    offered = set(minds(tmp_path, text).tools(info("release-helper"), registry()).names())
    assert {"github_issues", "tickets_list", "read_file"} <= offered
    assert "bank_transfer" not in offered and "run_shell" not in offered


def test_a_persona_naming_no_service_and_the_builtins_keep_every_connected_one(
    tmp_path: Path
) -> None:
    text = HELPER.replace("tools: [files, git, shell]", "tools: [files, connectors]").replace(
        "connectors: [github]\n", "")
    m = minds(tmp_path, text)
    every = {"github_issues", "tickets_list", "bank_transfer"}
    assert every <= set(m.tools(info("release-helper"), registry()).names())
    assert every <= set(m.tools(info("cowork"), registry()).names())
    assert every <= set(m.tools(info("ops"), registry()).names())  # a built-in's are suggestions
