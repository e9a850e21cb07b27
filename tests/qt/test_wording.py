"""Words about providers: one title per provider, from the providers' own registries,
for the model picker, the status line and the provider settings alike."""

from __future__ import annotations

from openworker_qt.qt.wording import provider_label, provider_title, waiting_for_model_text


def test_every_kind_of_provider_has_its_title(qapp) -> None:
    assert provider_title("anthropic") == "Anthropic"  # a native provider
    assert provider_title("zai") == "GLM (Z.ai)"  # an OpenAI-compatible vendor
    assert provider_title("lmstudio") == "LM Studio"  # a local server's preset
    assert provider_title("custom") == "Custom server"
    assert provider_title("nobody") == ""


def test_the_status_line_names_the_provider_a_model_string_goes_to(qapp) -> None:
    assert waiting_for_model_text("zai:glm-4.6") == "Waiting for GLM (Z.ai)"
    assert provider_label("xai:grok-4") == "Grok (xAI)"
    assert provider_label("gpt-4.1") == "OpenAI"  # OpenAI's bare names
    assert provider_label("custom:my-model") == "the model"  # the server's name is unknown
    assert provider_label("qwen2.5-coder:32b") == "the model"


def test_the_provider_settings_use_the_same_titles(qapp) -> None:
    from openworker_qt.qt.provider_setup import choice, provider_choices

    assert choice("lmstudio").label == "LM Studio"
    for c in provider_choices():
        if c.name != "custom":
            assert c.label == provider_title(c.name)
