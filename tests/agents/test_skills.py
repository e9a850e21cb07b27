"""Skills: SKILL.md folders found, catalogued and loaded (load_skill)."""

from __future__ import annotations

from pathlib import Path

from openworker_qt.agents.skills import catalogue, discover, load_skill_tool
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import ToolContext, ToolResult


def skill(root: Path, folder: str, front: str, body: str = "Do it well.\n") -> Path:
    path = root / folder
    path.mkdir(parents=True)
    (path / "SKILL.md").write_text(f"---\n{front}\n---\n{body}", encoding="utf-8")
    return path


def test_skills_from_the_workspace_and_the_user_folder(tmp_path: Path) -> None:
    ws, user = tmp_path / "ws", tmp_path / "user"
    skill(user, "pdf", "name: pdf\ndescription: extract text from PDFs")
    skill(user, "brand", "name: brand\ndescription: the user's own brand")
    skill(ws / ".openworker" / "skills", "brand", "name: brand\ndescription: this project's brand")
    skill(ws / ".claude" / "skills", "sql", "name: sql\ndescription: >\n  write SQL\n  queries\n"
          "allowed-tools: Read, Bash")
    skill(user, "broken", "name: broken")  # no description: skipped
    (user / "notes").mkdir()  # no SKILL.md: not a skill
    found = discover(ws, user)
    assert [(s.name, s.origin) for s in found] == [
        ("brand", "workspace"), ("pdf", "user"), ("sql", "workspace")]
    assert found[2].allowed_tools == ("Read", "Bash")
    assert catalogue(found) == ("- brand: this project's brand\n- pdf: extract text from PDFs\n"
                                "- sql: write SQL queries")
    assert discover(None, tmp_path / "absent") == []


async def test_load_skill_returns_the_body_and_its_files(tmp_path: Path) -> None:
    user = tmp_path / "user"
    folder = skill(user, "pdf", "name: pdf\ndescription: extract text from PDFs",
                   "# PDF\nRun scripts/extract.py on the file.\n")
    (folder / "scripts").mkdir()
    (folder / "scripts" / "extract.py").write_text("print('hi')\n")
    (folder / "reference.md").write_text("Tables.\n")
    tool = load_skill_tool(lambda: user)
    assert tool.risk is RiskClass.READ and tool.risk_class() is RiskClass.READ
    ctx = ToolContext(session_id="s", workspace=tmp_path / "ws")
    result = await tool.handler({"name": "pdf"}, ctx)
    assert isinstance(result, ToolResult) and not result.is_error
    assert "Run scripts/extract.py on the file." in result.content
    assert f"Folder: {folder}" in result.content
    assert "- reference.md\n- scripts/extract.py" in result.content
    assert "description:" not in result.content  # the front matter is not repeated

    unknown = await tool.handler({"name": "excel"}, ctx)
    assert isinstance(unknown, ToolResult) and unknown.is_error
    assert unknown.content == "no skill named 'excel' (known skills: pdf)"


def test_an_edited_skill_is_read_again(tmp_path: Path) -> None:
    user = tmp_path / "user"
    folder = skill(user, "pdf", "name: pdf\ndescription: extract text from PDFs")
    assert catalogue(discover(None, user)) == "- pdf: extract text from PDFs"
    (folder / "SKILL.md").write_text("---\nname: pdf\ndescription: read PDF forms too\n---\nx\n")
    assert catalogue(discover(None, user)) == "- pdf: read PDF forms too"
    (folder / "SKILL.md").write_text("---\nname: pdf\n---\nno description now\n")
    assert discover(None, user) == []


def test_a_workspace_skill_cannot_lead_out_of_the_workspace(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    elsewhere = tmp_path / "secrets"
    elsewhere.mkdir()
    (elsewhere / "creds.yaml").write_text("---\nname: creds\ndescription: token abc123\n---\nkey\n")
    linked = ws / ".claude" / "skills" / "creds"
    linked.mkdir(parents=True)
    (linked / "SKILL.md").symlink_to(elsewhere / "creds.yaml")
    (ws / ".openworker" / "skills").mkdir(parents=True)
    (ws / ".openworker" / "skills" / "all").symlink_to(elsewhere, target_is_directory=True)
    (elsewhere / "SKILL.md").write_text("---\nname: all\ndescription: everything\n---\nx\n")
    assert discover(ws, None) == []


async def test_a_skill_in_the_users_skills_folder_loads_though_the_data_folder_is_private(
        tmp_path: Path) -> None:
    # The user's skills folder is inside the app's data folder (as the runtime
    # sets it up), and that folder stays private to the model's file tools.
    from openworker_qt.core import fence
    from openworker_qt.storage.paths import app_paths

    data = app_paths().data
    user = data / "skills"
    ws = tmp_path / "ws"
    folder = skill(user, "brand", "name: brand\ndescription: the user's own brand",
                   "Use the blue logo.\n")
    (folder / "logo.txt").write_text("blue\n")
    skill(ws / ".openworker" / "skills", "sql", "name: sql\ndescription: write SQL queries")
    found = discover(ws, user)
    assert [(s.name, s.origin) for s in found] == [("brand", "user"), ("sql", "workspace")]
    tool = load_skill_tool(lambda: user)
    result = await tool.handler({"name": "brand"}, ToolContext(session_id="s", workspace=ws))
    assert isinstance(result, ToolResult) and not result.is_error
    assert "Use the blue logo." in result.content and "- logo.txt" in result.content
    # OpenWorker's own data is still private to the file tools.
    assert fence.sensitive_reason([data / "sessions.db"], fence.default_sensitive(), ws)
    # A user skill that leads out of the skills folder into a private place does not load.
    (data / "secret").mkdir()
    (data / "secret" / "SKILL.md").write_text("---\nname: leak\ndescription: x\n---\nkey\n")
    (user / "leak").symlink_to(data / "secret", target_is_directory=True)
    assert [s.name for s in discover(ws, user)] == ["brand", "sql"]


def test_the_runtimes_prompt_lists_the_users_and_the_workspaces_skills(tmp_path: Path) -> None:
    from openworker_qt.runtime import open_runtime

    ws = tmp_path / "ws"
    skill(ws / ".claude" / "skills", "sql", "name: sql\ndescription: write SQL queries")
    rt = open_runtime()
    try:
        skill(rt.skills_dir, "brand", "name: brand\ndescription: the user's own brand")
        info = rt.conversations.create_session(model="scripted:x", workspace=str(ws))
        rt.minds.warm(info)
        prompt = rt.minds.system_prompt(info)
        assert "- brand: the user's own brand\n- sql: write SQL queries" in prompt
    finally:
        rt.close()
