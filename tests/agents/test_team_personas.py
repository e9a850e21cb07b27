"""Team personas: the ``team:`` section, the built-in leads and workers, and the consent
gate for an installed persona that leads a team."""

from __future__ import annotations

from pathlib import Path

import pytest

from openworker_qt.agents.personas import (
    BUILTIN_NAMES,
    TEAM_BUILTINS,
    PersonaError,
    PersonaRegistry,
    builtin_personas,
    capabilities,
    parse_persona,
)
from openworker_qt.agents.team_section import TeamSection, TeamWorker
from openworker_qt.teams.model import WorkerSpec
from tests.agents.test_personas import persona_folder

LEADER = """---
name: board-pack
description: Prepares the board pack with a small team
family: knowledge
tools: [files, deliverables]
team:
  role: lead
  claim: true
  max_parallel: 2
  workers:
    - {name: numbers, persona: analyst, mode: plan}
    - {name: prose, persona: writer}
---
You lead the board pack team.
"""


def test_the_section_is_parsed() -> None:
    persona = parse_persona(LEADER)
    assert persona.team == TeamSection(
        "lead", (TeamWorker("numbers", "analyst", "plan"), TeamWorker("prose", "writer")),
        claim=True, max_parallel=2)
    plain = parse_persona(LEADER.split("team:")[0] + "---\nNo team.\n")
    assert plain.team is None


@pytest.mark.parametrize(("section", "message"), [
    ("team:\n  role: lead\n  grants: [shell]\n", r"cannot change permissions or budgets \('grants'\)"),
    ("team:\n  role: lead\n  budget_usd: 100\n", "cannot change permissions or budgets"),
    ("team:\n  role: lead\n  workers:\n    - {name: a, persona: writer, allow: [shell]}\n",
     "cannot change permissions"),
    ("team:\n  role: lead\n  workers:\n    - {name: a, persona: writer, folders: [/]}\n",
     "cannot change permissions"),
    ("team:\n  role: lead\n  colour: blue\n", "unknown setting 'colour'"),
    ("team:\n  role: boss\n", "'role' must be lead or worker"),
    ("team: lead\n", "must be a set of 'key: value' lines"),
    ("team:\n  role: worker\n  workers:\n    - {name: a, persona: writer}\n",
     "only a lead has default workers"),
    ("team:\n  workers:\n    - {name: a, persona: writer, mode: yolo}\n", "'mode' must be one of"),
    ("team:\n  workers:\n    - {name: 'a b', persona: writer}\n", "'name' is a short id"),
    ("team:\n  workers:\n    - {name: a}\n", "needs a 'persona'"),
    ("team:\n  workers:\n    - {name: a, persona: writer}\n    - {name: a, persona: analyst}\n",
     "two workers share a name"),
    ("team:\n  workers: [writer]\n", "each worker is a set"),
    ("team:\n  max_parallel: 99\n", "from 1 to 16"),
    ("team:\n  claim: maybe\n", "true or false"),
])
def test_a_bad_section_is_refused(section: str, message: str) -> None:
    text = LEADER.split("team:")[0] + section + "---\nBody.\n"
    with pytest.raises(PersonaError, match=message):
        parse_persona(text)


def test_the_builtin_team_personas() -> None:
    personas = builtin_personas()
    assert set(TEAM_BUILTINS) <= set(BUILTIN_NAMES)
    leads = [p for p in personas.values() if p.team is not None and p.team.role == "lead"]
    assert {p.name for p in leads} == {"team", "software-team", "devops-team"}
    workers = {p.name for p in personas.values() if p.team is not None and p.team.role == "worker"}
    assert workers == {"researcher", "analyst", "writer", "reviewer"}
    for lead in leads:
        assert lead.team is not None and lead.team.workers
        for worker in lead.team.workers:
            assert worker.persona in personas, (lead.name, worker.persona)
            WorkerSpec(worker.name, worker.persona, worker.mode or "interactive").check()
        assert any("Leads a team" in line for line in capabilities(lead))
    # Reviewing and researching read only: their default mode is plan.
    assert personas["reviewer"].mode == personas["researcher"].mode == "plan"
    assert personas["team"].team.workers[3] == TeamWorker("reviewer", "reviewer", "plan")  # type: ignore[union-attr]
    # No built-in persona a lead staffs asks the user questions itself: workers ask the lead.
    assert all("ask" not in personas[name].tools for name in workers)


def test_an_installed_team_persona_waits_for_consent(tmp_path: Path) -> None:
    registry = PersonaRegistry(tmp_path / "personas")
    installed = registry.install_folder(persona_folder(tmp_path, LEADER))
    assert installed.team is not None
    assert not installed.enabled and not installed.consented
    assert registry.get("board-pack").name == "cowork"  # a session naming it runs as the default
    with pytest.raises(PersonaError, match="needs your consent"):
        registry.enable("board-pack")
    with pytest.raises(PersonaError, match="waits for your consent"):
        registry.require("board-pack")
    words = capabilities(installed)
    assert any("Leads a team of coworkers" in w and "for your approval" in w for w in words)
    assert "Proposes these workers by default: numbers (analyst, plan mode), prose (writer) " \
        "(you accept or change them with the plan)" in words
    assert "Lets its workers take open items themselves" in words
    enabled = registry.consent("board-pack", installed.fingerprint)
    assert enabled.enabled and registry.get("board-pack").team == installed.team
    # Changing the staffing is a new version: disabled again until the user agrees.
    copy = tmp_path / "personas" / "board-pack" / "PERSONA.md"
    copy.write_text(LEADER.replace("persona: writer}", "persona: code, mode: auto}"))
    again = PersonaRegistry(tmp_path / "personas").load()["board-pack"]
    assert not again.enabled and not again.consented
    assert again.team is not None and again.team.workers[1] == TeamWorker("prose", "code", "auto")


def test_a_team_persona_with_permissions_is_not_installed(tmp_path: Path) -> None:
    bad = LEADER.replace("  claim: true\n", "  claim: true\n  grant_roots: [/]\n")
    registry = PersonaRegistry(tmp_path / "personas")
    with pytest.raises(PersonaError, match="cannot change permissions"):
        registry.install_folder(persona_folder(tmp_path, bad))
    assert set(registry.load()) == set(BUILTIN_NAMES)
