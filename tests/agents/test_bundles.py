"""Personas as bundles: export to one file without secrets, import through the
consent gate, and an update asks again only for what it adds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openworker_qt.agents import bundles
from openworker_qt.agents.personas import PersonaError, PersonaRegistry
from openworker_qt.cli import main
from openworker_qt.storage.paths import app_paths
from tests.agents.test_personas import HELPER

TOKEN = "tok-live-8f3a9c1d2e"


def installed_helper(tmp_path: Path) -> PersonaRegistry:
    registry = PersonaRegistry(tmp_path / "personas")
    src = tmp_path / "src"
    src.mkdir(parents=True)
    (src / "PERSONA.md").write_text(HELPER)
    registry.install_folder(src)
    return registry


def skill(tmp_path: Path) -> Path:
    folder = tmp_path / "skills-src" / "release-notes"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: release-notes\ndescription: Write release notes\n---\nGroup by feature.\n")
    (folder / "template.md").write_text("## Added\n")
    return folder


SERVER = {"command": "uvx", "args": ["tickets-mcp", "--api-key", TOKEN],
          "env": {"TICKETS_TOKEN": TOKEN, "TZ": "${TZ}"},
          "disabled": False}
WEB = {"type": "http", "url": "https://tickets.example/mcp",
       "headers": {"Authorization": f"Bearer {TOKEN}"}}


def test_an_export_holds_the_persona_skills_and_servers_but_no_secret(tmp_path: Path) -> None:
    registry = installed_helper(tmp_path)
    path = bundles.export_bundle(registry, "release-helper", tmp_path, version="1.0",
                                 skills={"release-notes": skill(tmp_path)},
                                 servers={"tickets": SERVER, "web": WEB})
    assert path.name == "release-helper.owpersona"
    text = path.read_text()
    assert TOKEN not in text
    data = json.loads(text)
    assert data["persona"] == HELPER and data["version"] == "1.0"
    assert data["skills"]["release-notes"]["template.md"] == "## Added\n"
    tickets = data["servers"]["tickets"]
    assert tickets["env"] == {"TICKETS_TOKEN": "${TICKETS_TOKEN}", "TZ": "${TZ}"}
    assert tickets["args"] == ["tickets-mcp", "--api-key", "${TICKETS_API_KEY}"]
    assert data["servers"]["web"]["headers"] == {"Authorization": "${WEB_AUTHORIZATION}"}


def test_a_known_secret_in_the_persona_is_hidden_and_builtins_export(tmp_path: Path) -> None:
    registry = PersonaRegistry(tmp_path / "personas")
    path = bundles.export_bundle(registry, "ops", tmp_path / "ops.owpersona",
                                 redact=lambda t: t.replace("servers", "[hidden]"))
    assert "[hidden]" in json.loads(path.read_text())["persona"]
    assert bundles.read_bundle(path).persona.name == "ops"


def test_import_waits_for_consent_to_everything_it_brings(tmp_path: Path) -> None:
    source = installed_helper(tmp_path / "a")
    path = bundles.export_bundle(source, "release-helper", tmp_path, version="1.0",
                                 skills={"release-notes": skill(tmp_path)},
                                 servers={"tickets": SERVER})
    registry = PersonaRegistry(tmp_path / "b" / "personas")
    persona, new = bundles.import_bundle(registry, path)
    assert new is None  # a first install shows everything
    assert not persona.enabled and not persona.consented
    lines = bundles.brings(bundles.manifest_of(registry, persona.name))
    assert lines == [
        "Version 1.0",
        "Adds the skill release-notes (2 files)",
        "Adds the MCP server tickets, which runs `uvx tickets-mcp --api-key "
        "${TICKETS_API_KEY}` on this computer (you set its secrets: TICKETS_API_KEY, "
        "TICKETS_TOKEN, TZ)",
    ]
    skills_dir = tmp_path / "skills"
    with pytest.raises(PersonaError, match="not enabled"):
        bundles.activate(registry, persona.name, skills_dir)
    registry.consent(persona.name, persona.fingerprint)
    assert bundles.activate(registry, persona.name, skills_dir) == ["release-notes"]
    assert (skills_dir / "release-notes" / "template.md").read_text() == "## Added\n"
    # What it brings is part of what was agreed to: a changed manifest needs consent again.
    manifest = registry.root / persona.name / bundles.MANIFEST
    manifest.write_text(manifest.read_text().replace("tickets-mcp", "other-mcp"))
    again = PersonaRegistry(registry.root).load()[persona.name]  # as the next start reads it
    assert not again.enabled and not again.consented


def test_an_update_asks_only_for_what_it_adds(tmp_path: Path) -> None:
    source = installed_helper(tmp_path / "a")
    v1 = bundles.export_bundle(source, "release-helper", tmp_path / "v1.owpersona", version="1")
    v2 = bundles.export_bundle(source, "release-helper", tmp_path / "v2.owpersona", version="2",
                               servers={"tickets": SERVER})
    registry = PersonaRegistry(tmp_path / "b" / "personas")
    first, _ = bundles.import_bundle(registry, v1)
    registry.consent(first.name, first.fingerprint)
    same, new = bundles.import_bundle(registry, v1)
    assert same.enabled and new == []  # the very version agreed to
    updated, new = bundles.import_bundle(registry, v2)
    assert not updated.enabled
    assert new is not None and [line.split(",")[0] for line in new] == [
        "Version 2", "Adds the MCP server tickets"]


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["skills"].update({"x": {"SKILL.md": "a", "../../.bashrc": "evil"}}),
     "outside its folder"),
    (lambda d: d["skills"].update({"x": {"/etc/passwd": "evil", "SKILL.md": "a"}}),
     "outside its folder"),
    (lambda d: d["servers"].update({"x": {"args": ["a"]}}), "no command or address"),
    (lambda d: d.update(persona=HELPER.replace("connectors:", "allow_all: true\nconnectors:")),
     "cannot change permissions"),
    (lambda d: d.update(format="something-else"), "not a persona bundle"),
])
def test_a_hostile_or_broken_bundle_is_refused(tmp_path: Path, change, message: str) -> None:
    source = installed_helper(tmp_path / "a")
    path = bundles.export_bundle(source, "release-helper", tmp_path / "p.owpersona")
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    registry = PersonaRegistry(tmp_path / "b" / "personas")
    with pytest.raises(PersonaError, match=message):
        bundles.import_bundle(registry, path)
    assert "release-helper" not in registry.load()


def test_the_command_line_exports_and_imports_with_consent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    paths = app_paths().ensure()
    registry = PersonaRegistry(paths.data / "personas")
    src = tmp_path / "src"
    src.mkdir()
    (src / "PERSONA.md").write_text(HELPER)
    registry.install_folder(src)
    skill_src = skill(tmp_path)
    user_skills = paths.data / "skills"
    user_skills.mkdir(parents=True, exist_ok=True)
    skill_src.rename(user_skills / "release-notes")
    (paths.config / "mcp.json").write_text(json.dumps({"mcpServers": {"tickets": SERVER}}))
    monkeypatch.chdir(tmp_path)
    assert main(["personas", "export", "release-helper", "-o", str(tmp_path / "out.owpersona"),
                 "--version", "3", "--skill", "release-notes", "--server", "tickets"]) == 0
    assert "no secrets" in capsys.readouterr().out
    assert TOKEN not in (tmp_path / "out.owpersona").read_text()
    assert main(["personas", "export", "release-helper", "--skill", "nope"]) == 2
    assert "not found: nope" in capsys.readouterr().err

    # Someone else's computer: nothing of the first one's.
    registry.remove("release-helper")
    (paths.config / "mcp.json").unlink()
    import shutil

    shutil.rmtree(user_skills)
    assert main(["personas", "import", str(tmp_path / "out.owpersona")]) == 0
    out = capsys.readouterr().out
    assert "• Adds the skill release-notes (2 files)" in out and "stays disabled" in out
    assert "• Adds the MCP server tickets, which runs `uvx tickets-mcp" in out
    assert not (paths.config / "mcp.json").exists()
    assert main(["personas", "enable", "release-helper", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "Added the skill release-notes." in out and "Added the MCP server tickets" in out
    servers = json.loads((paths.config / "mcp.json").read_text())["mcpServers"]
    assert servers["tickets"]["env"]["TICKETS_TOKEN"] == "${TICKETS_TOKEN}"
    assert (user_skills / "release-notes" / "SKILL.md").exists()
