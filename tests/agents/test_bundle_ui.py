"""A persona bundle in the Settings page: export the selected persona to one file,
import one, and the consent dialog lists what it brings before anything is added."""

from __future__ import annotations

import json
from pathlib import Path

from openworker_qt.agents import bundles
from openworker_qt.agents.personas import PersonaRegistry
from openworker_qt.ui.persona_consent import PersonaConsentDialog
from tests.agents.test_bundles import SERVER, TOKEN, installed_helper, skill
from tests.ui.conftest import act, run, until


def test_import_lists_what_the_bundle_brings_and_adds_it_once_agreed(
    qloop, make_desktop, tmp_path: Path
) -> None:
    source = installed_helper(tmp_path / "elsewhere")
    path = bundles.export_bundle(source, "release-helper", tmp_path / "helper.owpersona",
                                 version="2.1", skills={"release-notes": skill(tmp_path)},
                                 servers={"tickets": SERVER})
    desktop = make_desktop()
    paths = desktop.runtime.paths
    settings = act(qloop, desktop.show_settings)
    page = settings.personas
    run(qloop, lambda: until(lambda: not page.busy()))
    act(qloop, lambda: page.import_from(str(path)))
    run(qloop, lambda: until(lambda: page.dialog is not None and page.dialog.isVisible(),
                             what="the consent dialog"))
    dialog = page.dialog
    assert isinstance(dialog, PersonaConsentDialog)
    assert dialog.bring_texts() == [
        "Version 2.1",
        "Adds the skill release-notes (2 files)",
        "Adds the MCP server tickets, which runs “uvx tickets-mcp --api-key "
        "${TICKETS_API_KEY}” on this computer (you set its secrets: TICKETS_API_KEY, "
        "TICKETS_TOKEN, TZ)",
    ]
    assert not (paths.data / "skills" / "release-notes").exists()  # nothing before consent
    act(qloop, dialog.enable_button.click)
    run(qloop, lambda: until(lambda: "is enabled" in page.status.text(), what="enabled"))
    assert PersonaRegistry(paths.data / "personas").load()["release-helper"].enabled
    assert (paths.data / "skills" / "release-notes" / "SKILL.md").exists()
    servers = json.loads((paths.config / "mcp.json").read_text())["mcpServers"]
    assert servers["tickets"]["command"] == "uvx"

    out = tmp_path / "shared.owpersona"
    page.select("release-helper")
    act(qloop, lambda: page.export_to("release-helper", str(out)))
    run(qloop, lambda: until(lambda: "without any secrets" in page.status.text(), what="saved"))
    assert bundles.read_bundle(out).persona.name == "release-helper"
    assert TOKEN not in out.read_text()

