"""The system prompt: one assembly per persona and mode, read by eye in golden/.

Regenerate the golden files after an intended change with
``OPENWORKER_REGEN_GOLDEN=1 pytest tests/agents/test_prompt.py`` and review the diff.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from openworker_qt.agents.personas import BUILTIN_NAMES, builtin_personas
from openworker_qt.agents.prompt import (
    MAX_NOTES_CHARS,
    ProjectNotes,
    assemble_system_prompt,
    current_environment,
    read_project_notes,
    render_reminders,
)
from openworker_qt.agents.skills import Skill
from openworker_qt.core.permissions import MODE_NAMES

GOLDEN = Path(__file__).parent / "golden"
NOW = dt.datetime(2026, 3, 5, 14, 37, 12, tzinfo=dt.timezone(dt.timedelta(hours=1), "CET"))
NOTES = ProjectNotes("AGENTS.md", "Run `make test` before every commit.\nUse British spelling.")
MEMORY = "# Memory\n- [#3] The user prefers short answers. (2026-02-11)"
SKILLS = (Skill("pdf", "Extract text and tables from PDF files", Path("/skills/pdf")),
          Skill("brand", "The company's colours, fonts and tone of voice",
                Path("/work/.openworker/skills/brand"), origin="workspace"))


def environment(mode: str) -> object:
    return current_environment(
        workspace="/home/ada/project", read_roots=["/home/ada/project", "/home/ada/Reference"],
        write_roots=["/home/ada/project"], mode=mode, now=NOW, os_name="Linux",
    )


def prompt(persona: str, mode: str) -> str:
    return assemble_system_prompt(builtin_personas()[persona], environment(mode),
                                  notes=NOTES, memory=MEMORY, skills=SKILLS)


@pytest.mark.parametrize("mode", MODE_NAMES)
@pytest.mark.parametrize("persona", BUILTIN_NAMES)
def test_golden_prompt(persona: str, mode: str) -> None:
    text = prompt(persona, mode)
    path = GOLDEN / f"{persona}-{mode}.md"
    if os.environ.get("OPENWORKER_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs: review and regenerate"


def test_the_prompt_is_stable_within_a_day_and_says_the_date_not_the_time() -> None:
    persona = builtin_personas()["cowork"]
    later = NOW.replace(hour=23, minute=59, second=59)
    a = assemble_system_prompt(persona, current_environment(workspace="/w", now=NOW, os_name="Linux"))
    b = assemble_system_prompt(persona, current_environment(workspace="/w", now=later, os_name="Linux"))
    assert a == b
    assert "Thursday, 2026-03-05 (CET, UTC+01:00)" in a
    assert "14:37" not in a


def test_sections_follow_what_the_persona_offers() -> None:
    chat = prompt("chat", "interactive")
    assert "no tools" in chat and "create_deliverable" not in chat
    assert "AGENTS.md" not in chat and "load_skill" not in chat and "/home/ada" not in chat
    cowork = prompt("cowork", "interactive")
    order = [cowork.index(s) for s in ("# How you work", "# Delivering files", "# Environment",
                                       "# Project instructions (AGENTS.md)", "# Memory",
                                       "# Skills")]
    assert order == sorted(order)
    assert "- pdf: Extract text and tables from PDF files" in cowork
    code = prompt("code", "plan")
    assert "create_deliverable" not in code and "# Files" in code
    assert "Permission mode: plan: read-only" in code
    assert "Folders you may only read: /home/ada/Reference" in code


def test_memory_is_a_section_only_when_there_is_some() -> None:
    persona = builtin_personas()["cowork"]
    env = current_environment(workspace="/w", now=NOW, os_name="Linux")
    for empty in (None, "", "  \n"):
        assert "# Memory" not in assemble_system_prompt(persona, env, memory=empty)
    assert "# Memory\n- likes tea" in assemble_system_prompt(persona, env, memory="- likes tea")


def test_agents_md_is_read_with_claude_md_as_fallback_and_capped(tmp_path: Path) -> None:
    assert read_project_notes(tmp_path) is None
    assert read_project_notes(None) is None
    (tmp_path / "CLAUDE.md").write_text("Use tabs.\n", encoding="utf-8")
    notes = read_project_notes(tmp_path)
    assert notes == ProjectNotes("CLAUDE.md", "Use tabs.")
    (tmp_path / "AGENTS.md").write_text("x" * (MAX_NOTES_CHARS + 500), encoding="utf-8")
    notes = read_project_notes(tmp_path)
    assert notes is not None and notes.name == "AGENTS.md" and notes.truncated
    assert len(notes.text) == MAX_NOTES_CHARS
    text = assemble_system_prompt(builtin_personas()["code"],
                                  current_environment(workspace=str(tmp_path), now=NOW),
                                  notes=notes)
    assert "AGENTS.md is longer than this" in text


def test_reminders_say_only_what_changed() -> None:
    assert render_reminders() == ""
    assert render_reminders(todos=[("done", "write the report")]) == ""  # all done: nothing
    text = render_reminders(mode="plan", granted=[("/data", False), ("/out", True)],
                            todos=[("done", "read"), ("in_progress", "write"), ("pending", "send")])
    assert text.startswith("<system-reminder>\n") and text.endswith("</system-reminder>")
    assert "The permission mode is now plan: read-only" in text
    assert "/data (read only), /out (read and change)" in text
    assert "[x] read\n[>] write\n[ ] send" in text


def test_agents_md_linking_out_of_the_workspace_is_not_read(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    secret = tmp_path / "credentials"
    secret.write_text("aws_secret_access_key = abc\n")
    (ws / "AGENTS.md").symlink_to(secret)
    assert read_project_notes(ws) is None


def test_agents_md_in_a_private_folder_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "config").write_text("Host work\n  IdentityFile ~/.ssh/work\n")
    monkeypatch.setenv("HOME", str(home))
    (home / "AGENTS.md").symlink_to(home / ".ssh" / "config")  # the workspace is the home folder
    assert read_project_notes(home) is None
    (home / "AGENTS.md").unlink()
    (home / "AGENTS.md").write_text("Be brief.\n")
    assert read_project_notes(home) == ProjectNotes("AGENTS.md", "Be brief.")
