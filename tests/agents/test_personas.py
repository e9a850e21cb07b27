"""Personas: built-ins, the front matter's limits, and install → consent → enable."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from openworker_qt.agents.families import family_of, filter_tools
from openworker_qt.agents.personas import (
    BUILTIN_NAMES,
    PersonaError,
    PersonaRegistry,
    builtin_personas,
    capabilities,
    parse_persona,
)
from openworker_qt.runtime_tools import default_tools
from openworker_qt.storage.conversations import SessionInfo

HELPER = """---
name: release-helper
title: Release helper
description: Prepares release notes from the git history
family: code
tools: [files, git, shell]
model: openai:gpt-4o
mode: auto
connectors: [github]
---
You prepare release notes.
"""


def info(persona: str = "cowork") -> SessionInfo:
    return SessionInfo(id="s", title="", model="", persona=persona, mode="interactive",
                       workspace="/tmp", unattended=False, status="idle", created_at=0,
                       updated_at=0)


def persona_folder(tmp_path: Path, text: str = HELPER, name: str = "src") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "PERSONA.md").write_text(text, encoding="utf-8")
    (folder / "README.md").write_text("How to use it.\n", encoding="utf-8")
    return folder


def git_repo(tmp_path: Path, text: str = HELPER) -> Path:
    repo = persona_folder(tmp_path, text, "repo")
    env = ["-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), *env, "commit", "-qm", "persona"], check=True)
    return repo


def commit(repo: Path, text: str) -> None:
    (repo / "PERSONA.md").write_text(text, encoding="utf-8")
    env = ["-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "-C", str(repo), *env, "commit", "-qam", "change"], check=True)


def test_the_builtin_personas() -> None:
    personas = builtin_personas()
    assert tuple(personas) == BUILTIN_NAMES
    assert personas["chat"].tools == ()
    assert {"files", "git", "shell", "explorer"} <= set(personas["code"].tools)
    assert "deliverables" in personas["cowork"].tools
    assert personas["ops"].connectors == ("github", "slack", "datadog")
    assert "memory" in personas["myhelper"].tools
    assert all(p.builtin and p.enabled and p.body.strip() for p in personas.values())


def test_the_persona_switch_changes_the_tools_offered() -> None:
    registry = default_tools(info())
    offered = {name: set(filter_tools(registry, p.tools).names())
               for name, p in builtin_personas().items()}
    assert offered["chat"] == set()
    assert offered["cowork"] == set(registry.names())
    assert {"read_file", "git_status", "run_shell", "todo_write", "load_skill"} <= offered["code"]
    assert "create_deliverable" not in offered["code"]
    assert "git_commit" not in offered["myhelper"] and "run_shell" not in offered["myhelper"]
    # Narrowing keeps the very same tools: their risk classes cannot change.
    code = filter_tools(registry, builtin_personas()["code"].tools)
    assert all(code.get(t.name) is registry.get(t.name) for t in code)
    assert all(family_of(t) != "other" for t in registry)  # every built-in tool has a family


@pytest.mark.parametrize(("key", "value"), [
    ("risk_overrides", "{run_shell: read}"), ("writable_roots", "[/]"), ("roots", "[/]"),
    ("auto_allow", "[run_shell]"), ("permissions", "{mode: auto}"), ("shell_allowlist", "[rm]"),
    ("read_roots", "[~/.ssh]"),
])
def test_a_persona_cannot_carry_permissions(key: str, value: str) -> None:
    text = HELPER.replace("connectors:", f"{key}: {value}\nconnectors:")
    with pytest.raises(PersonaError, match="cannot change permissions"):
        parse_persona(text)


@pytest.mark.parametrize(("change", "message"), [
    (("name: release-helper", "name: Release Helper!"), "'name' must be a short id"),
    (("tools: [files, git, shell]", "tools: [files, root_shell]"), "unknown tool families root_shell"),
    (("mode: auto", "mode: yolo"), "'mode' must be one of"),
    (("family: code", "family: admin"), "'family' must be one of"),
    (("description: Prepares release notes from the git history\n", ""), "'description' is missing"),
    (("connectors: [github]", "colour: blue"), "unknown setting 'colour'"),
    (("---\nname", "name"), "does not start with a '---'"),
    (("model: openai:gpt-4o", "model: [unclosed"), "not valid YAML"),
])
def test_bad_personas_get_a_clear_error(change: tuple[str, str], message: str) -> None:
    with pytest.raises(PersonaError, match=message):
        parse_persona(HELPER.replace(*change))


def test_install_from_a_local_git_repository_stays_disabled_until_consent(tmp_path: Path) -> None:
    repo = git_repo(tmp_path)
    registry = PersonaRegistry(tmp_path / "personas")
    installed = registry.install_git(repo.resolve().as_uri())
    assert installed.name == "release-helper" and not installed.enabled and not installed.consented
    assert (tmp_path / "personas" / "release-helper" / "PERSONA.md").is_file()  # managed copy
    assert not (tmp_path / "personas" / "release-helper" / ".git").exists()
    # Disabled: a session naming it runs as the default persona, with its tools.
    assert registry.get("release-helper").name == "cowork"
    with pytest.raises(PersonaError, match="needs your consent"):
        registry.enable("release-helper")
    words = capabilities(installed)
    assert "Run commands on this computer (each command follows your permission mode)" in words
    assert any("github" in w for w in words)
    assert any("only a suggestion" in w for w in words)
    with pytest.raises(PersonaError, match="changed since it was shown"):
        registry.consent("release-helper", "0" * 64)
    enabled = registry.consent("release-helper", installed.fingerprint)
    assert enabled.enabled and registry.get("release-helper").name == "release-helper"
    # The source going away changes nothing: the managed copy is what runs.
    (repo / "PERSONA.md").unlink()
    assert PersonaRegistry(tmp_path / "personas").load()["release-helper"].enabled


def test_an_update_that_changes_the_persona_asks_again(tmp_path: Path) -> None:
    repo = git_repo(tmp_path)
    registry = PersonaRegistry(tmp_path / "personas")
    first = registry.install_git(repo.resolve().as_uri())
    registry.consent(first.name, first.fingerprint)
    assert registry.update(first.name).enabled  # nothing changed: still enabled
    commit(repo, HELPER.replace("tools: [files, git, shell]", "tools: [files, git, shell, web]"))
    updated = registry.update(first.name)
    assert "web" in updated.tools and not updated.enabled and not updated.consented
    assert registry.get(first.name).name == "cowork"
    registry.consent(updated.name, updated.fingerprint)
    assert registry.get(first.name).tools[-1] == "web"


def test_an_edited_managed_copy_is_disabled(tmp_path: Path) -> None:
    registry = PersonaRegistry(tmp_path / "personas")
    p = registry.install_folder(persona_folder(tmp_path))
    registry.consent(p.name, p.fingerprint)
    copy = tmp_path / "personas" / p.name / "PERSONA.md"
    copy.write_text(HELPER.replace("[files, git, shell]", "[files, git, shell, connectors]"))
    assert not PersonaRegistry(tmp_path / "personas").load()[p.name].enabled


def test_a_persona_with_permissions_is_not_installed(tmp_path: Path) -> None:
    bad = HELPER.replace("connectors:", "risk_overrides: {run_shell: read}\nconnectors:")
    repo = git_repo(tmp_path, bad)
    registry = PersonaRegistry(tmp_path / "personas")
    with pytest.raises(PersonaError, match="cannot change permissions"):
        registry.install_git(repo.resolve().as_uri())
    assert set(registry.load()) == set(BUILTIN_NAMES)
    assert not (tmp_path / "personas" / "release-helper").exists()


def test_enable_disable_remove_and_the_builtins(tmp_path: Path) -> None:
    registry = PersonaRegistry(tmp_path / "personas")
    p = registry.install_folder(persona_folder(tmp_path))
    registry.consent(p.name, p.fingerprint)
    assert not registry.disable(p.name).enabled
    assert registry.enable(p.name).enabled
    registry.remove(p.name)
    assert p.name not in registry.load() and not (tmp_path / "personas" / p.name).exists()
    with pytest.raises(PersonaError, match="no installed persona"):
        registry.remove(p.name)
    with pytest.raises(PersonaError, match="built in"):
        registry.remove("code")
    with pytest.raises(PersonaError, match="stays enabled"):
        registry.disable("cowork")
    registry.disable("ops")
    assert registry.get("ops").name == "cowork"
    registry.enable("ops")
    assert registry.get("ops").name == "ops"
    with pytest.raises(PersonaError, match="name of a built-in"):
        registry.install_folder(persona_folder(tmp_path, HELPER.replace("release-helper", "code"),
                                               "shadow"))


def test_install_errors_lose_nothing(tmp_path: Path) -> None:
    registry = PersonaRegistry(tmp_path / "personas")
    with pytest.raises(PersonaError, match="could not clone"):
        registry.install_git((tmp_path / "nowhere").as_uri())
    with pytest.raises(PersonaError, match="not a folder"):
        registry.install_folder(tmp_path / "missing")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(PersonaError, match="expected a PERSONA.md"):
        registry.install_folder(empty)
    assert set(registry.load()) == set(BUILTIN_NAMES)


def test_an_install_never_copies_what_a_link_points_at(tmp_path: Path) -> None:
    secret = tmp_path / "id_rsa"
    secret.write_text("PRIVATE KEY\n")
    folder = persona_folder(tmp_path)
    (folder / "key").symlink_to(secret)
    (folder / "more").mkdir()
    (folder / "more" / "key").symlink_to(secret)
    (folder / "more" / "notes.md").write_text("kept\n")
    registry = PersonaRegistry(tmp_path / "personas")
    registry.install_folder(folder)
    copy = tmp_path / "personas" / "release-helper"
    assert (copy / "more" / "notes.md").read_text() == "kept\n"
    assert not (copy / "key").exists() and not (copy / "key").is_symlink()
    assert not (copy / "more" / "key").exists() and not (copy / "more" / "key").is_symlink()


def test_a_change_made_elsewhere_is_seen(tmp_path: Path) -> None:
    app = PersonaRegistry(tmp_path / "personas")  # the window's
    assert app.load()["ops"].enabled
    PersonaRegistry(tmp_path / "personas").disable("ops")  # the command line's
    assert not app.load()["ops"].enabled and app.get("ops").name == "cowork"
