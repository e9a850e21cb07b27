"""Enabling a persona the user agreed to, with what its bundle brings (Settings › Personas).

A widget reaches the MCP config and the app's folders through here (the ui import
contract): the persona is enabled at the fingerprint the user saw, its bundle's skills
are copied into the skills folder and its MCP servers added to the MCP config.
Blocking (files): call it from a worker thread.
"""

from __future__ import annotations

from openworker_qt.agents import bundles
from openworker_qt.agents.personas import Persona, PersonaRegistry
from openworker_qt.mcp.config import add_servers


def consent_with_bundle(registry: PersonaRegistry, name: str, fingerprint: str) -> Persona:
    from openworker_qt.storage.paths import app_paths  # (read when called: tests move it)

    persona = registry.consent(name, fingerprint)
    paths = app_paths()
    bundles.activate(registry, name, paths.data / "skills")
    add_servers(paths.config, bundles.manifest_of(registry, name).get("servers") or {})
    return persona
