"""TOML config: layering, validation, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from openworker_qt.storage.config import ConfigError, load_config, update_global


def test_defaults_without_files(tmp_path: Path) -> None:
    cfg = load_config(global_file=tmp_path / "none.toml")
    assert cfg.get("permissions.mode") == "interactive"
    assert cfg.get("general.max_iterations") == 25
    assert cfg.get("no.such.key", "dflt") == "dflt"
    assert cfg.warnings == []


def test_workspace_overrides_global(tmp_path: Path) -> None:
    g = tmp_path / "g.toml"
    g.write_text('[general]\ndefault_model = "anthropic:claude"\nmax_iterations = 10\n')
    ws = tmp_path / "ws"
    (ws / ".openworker").mkdir(parents=True)
    (ws / ".openworker" / "config.toml").write_text("[general]\nmax_iterations = 40\n")
    cfg = load_config(ws, global_file=g)
    assert cfg.get("general.default_model") == "anthropic:claude"
    assert cfg.get("general.max_iterations") == 40
    assert cfg.sources == [g, ws / ".openworker" / "config.toml"]


def test_unknown_keys_warn(tmp_path: Path) -> None:
    g = tmp_path / "g.toml"
    g.write_text('[general]\ndefualt_model = "x"\n[providers.ollama]\nbase_url = "http://h"\n')
    cfg = load_config(global_file=g)
    assert len(cfg.warnings) == 1
    assert "general.defualt_model" in cfg.warnings[0] and str(g) in cfg.warnings[0]
    assert cfg.get("providers.ollama.base_url") == "http://h"


def test_malformed_file_names_file_and_line(tmp_path: Path) -> None:
    g = tmp_path / "g.toml"
    g.write_text('[general]\ndefault_model = "x"\nmax_iterations = = 3\n')
    with pytest.raises(ConfigError) as info:
        load_config(global_file=g)
    assert str(g) in str(info.value) and "line 3" in str(info.value)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ("[general]\nmax_iterations = 'ten'\n", "must be an integer"),
        ("[permissions]\nwritable_roots = '/tmp'\n", "must be a list"),
        ("[ui]\nnotifications = 1\n", "true or false"),
        ("general = 3\n", "must be a table"),
    ],
)
def test_wrong_types_are_rejected(tmp_path: Path, body: str, fragment: str) -> None:
    g = tmp_path / "g.toml"
    g.write_text(body)
    with pytest.raises(ConfigError, match=fragment):
        load_config(global_file=g)


def test_update_global_roundtrip(tmp_path: Path) -> None:
    g = tmp_path / "cfg" / "g.toml"
    update_global({"general": {"default_model": "gemini:gemini-2.5-flash"}}, global_file=g)
    update_global({"permissions": {"shell_allowlist": ["git status"]}}, global_file=g)
    cfg = load_config(global_file=g)
    assert cfg.get("general.default_model") == "gemini:gemini-2.5-flash"
    assert cfg.get("permissions.shell_allowlist") == ["git status"]


HAND_WRITTEN = """\
# My OpenWorker settings
# (kept by hand; the app must not eat this)

[general]
# the model I use most
default_model = "openai:gpt-4o"   # fast enough
max_iterations = 30

[permissions]
mode = "interactive"  # keep asking
shell_allowlist = ["git status"]

[ui]
theme = "dark"
"""


def test_update_global_keeps_comments_and_layout(tmp_path: Path) -> None:
    g = tmp_path / "g.toml"
    g.write_text(HAND_WRITTEN, encoding="utf-8")
    update_global({"general": {"default_model": "anthropic:claude-haiku-4-5"}}, global_file=g)
    update_global({"permissions": {"shell_allowlist": ["ls", "git diff"]}}, global_file=g)
    update_global({"providers": {"ollama": {"base_url": "http://gpu-box:11434/v1"}}}, global_file=g)
    text = g.read_text(encoding="utf-8")
    # only the changed values differ; every comment, blank line and key order is kept
    assert text == HAND_WRITTEN.replace('"openai:gpt-4o"', '"anthropic:claude-haiku-4-5"').replace(
        '["git status"]', '["ls", "git diff"]') + '\n[providers.ollama]\nbase_url = "http://gpu-box:11434/v1"\n\n'
    cfg = load_config(global_file=g)
    assert cfg.get("general.default_model") == "anthropic:claude-haiku-4-5"
    assert cfg.get("general.max_iterations") == 30
    assert cfg.get("permissions.shell_allowlist") == ["ls", "git diff"]
    assert cfg.get("providers.ollama.base_url") == "http://gpu-box:11434/v1"


def test_update_global_refuses_a_broken_file_and_leaves_it_alone(tmp_path: Path) -> None:
    g = tmp_path / "g.toml"
    g.write_text("# mine\n[general\nmodel = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="invalid TOML"):
        update_global({"general": {"default_model": "x"}}, global_file=g)
    assert g.read_text(encoding="utf-8") == "# mine\n[general\nmodel = 1\n"
