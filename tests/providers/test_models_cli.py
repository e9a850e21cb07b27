"""``openworker-qt models`` lists providers with a key and their curated models."""

from __future__ import annotations

import pytest

from openworker_qt import cli
from openworker_qt.storage.secrets import set_secret


def test_models_command_lists_only_keyed_providers(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["models"]) == 0
    assert "No provider is configured" in capsys.readouterr().out
    set_secret("ANTHROPIC_API_KEY", "sk-ant-test")
    set_secret("MOONSHOT_API_KEY", "mk")
    assert cli.main(["models"]) == 0
    out = capsys.readouterr().out
    assert "Anthropic (anthropic)" in out and "anthropic:claude-sonnet-4-6" in out
    assert "Kimi (Moonshot) (kimi)" in out and "kimi:kimi-k2-0905-preview" in out
    assert "OpenAI" not in out and "gemini" not in out
    assert "sk-ant-test" not in out  # secret values never printed
