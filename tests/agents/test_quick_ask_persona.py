"""The quick ask's persona chip, in the real desktop app offscreen: the question's
session runs as the chosen persona (its prompt and its tools)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.ui.composer import ChipCombo
from tests.ui.conftest import act, run, until


def chip(popup: Any) -> list[tuple[str, str]]:
    box = popup.persona
    return [(box.itemData(i), box.itemText(i)) for i in range(box.count())]


def test_the_quick_ask_chip_switches_the_prompt_and_the_tools(qloop, qtbot, make_desktop) -> None:
    desktop = make_desktop([{"text": "Hi from chat."}, {"text": "Hi from code."}])
    run(qloop, desktop.load_personas)  # what the app does after its first paint
    popup = act(qloop, desktop.show_quick_ask)
    assert isinstance(popup.persona, ChipCombo)  # the composer's look
    assert chip(popup)[:3] == [("cowork", "Cowork"), ("code", "Code"), ("chat", "Chat")]
    assert popup.current_persona() == "cowork"
    provider, _ = desktop.runtime.router.resolve(desktop.manager.default_model)
    assert isinstance(provider, ScriptedProvider)

    def ask(persona: str, text: str) -> str:
        popup.persona.setCurrentIndex(popup.persona.findData(persona))

        async def scenario() -> None:
            popup.popup()
            qtbot.keyClicks(popup.edit, text)
            qtbot.keyClick(popup.edit, Qt.Key.Key_Return)
            await until(lambda: popup.status.text() == "Done", what="the answer")

        run(qloop, scenario)
        return popup.session_id or ""

    chat_sid = ask("chat", "hello?")
    assert desktop.runtime.conversations.get_session(chat_sid).persona == "chat"
    code_sid = ask("code", "and you?")
    assert desktop.runtime.conversations.get_session(code_sid).persona == "code"
    chat, code = provider.requests
    assert chat.tools == [] and "OpenWorker in chat mode" in chat.system
    assert "senior software engineer" in code.system
    assert "run_shell" in {t["function"]["name"] for t in code.tools}
    assert popup.current_persona() == "code"  # the choice is kept for the next question


def test_the_chip_follows_the_enabled_personas(qloop, make_desktop) -> None:
    desktop = make_desktop()
    run(qloop, desktop.load_personas)  # what the app does after its first paint
    popup = act(qloop, desktop.show_quick_ask)
    popup.persona.setCurrentIndex(popup.persona.findData("ops"))
    # Ops disabled in settings: the chip no longer offers it and falls back to Cowork.
    items = [item for item in desktop.persona_items if item[0] != "ops"]
    act(qloop, lambda: desktop.set_personas(items))
    assert "ops" not in dict(chip(popup)) and popup.current_persona() == "cowork"
    composer = desktop.window.composer.persona
    assert composer.findData("ops") < 0  # the composer's picker follows too
