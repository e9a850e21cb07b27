"""The persona picker, the Personas settings page and the consent dialog, in the
real desktop app offscreen (the scripted provider records what the model is sent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.agents.personas import PersonaRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.ui.persona_consent import PersonaConsentDialog
from tests.agents.test_personas import git_repo
from tests.ui.conftest import act, run, until


def picker(desktop: Any) -> list[tuple[str, str]]:
    box = desktop.window.composer.persona
    return [(box.itemData(i), box.itemText(i)) for i in range(box.count())]


def test_the_picker_switches_the_prompt_and_the_tools(qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "Hello from chat."}, {"text": "Hello from code."}])
    window = desktop.window
    run(qloop, lambda: until(lambda: len(picker(desktop)) == 5, what="the personas"))
    assert picker(desktop)[:3] == [("cowork", "Cowork"), ("code", "Code"), ("chat", "Chat")]
    composer = window.composer
    assert composer.current_persona() == "cowork"

    def choose(name: str) -> None:
        composer.persona.setCurrentIndex(composer.persona.findData(name))
        composer.persona.activated.emit(composer.persona.currentIndex())

    act(qloop, lambda: choose("chat"))
    composer.edit.setPlainText("hi")
    act(qloop, composer.submit)
    sid = window.session_id
    run(qloop, lambda: until(lambda: not desktop.manager.is_running(sid) and
                             desktop.runtime.conversations.count(sid) >= 2, what="the turn"))
    assert desktop.runtime.conversations.get_session(sid).persona == "chat"
    act(qloop, lambda: choose("code"))  # the same session, now the code persona
    assert desktop.runtime.conversations.get_session(sid).persona == "code"
    composer.edit.setPlainText("and now?")
    act(qloop, composer.submit)
    run(qloop, lambda: until(lambda: not desktop.manager.is_running(sid) and
                             desktop.runtime.conversations.count(sid) >= 4, what="turn two"))
    provider, _ = desktop.runtime.router.resolve(desktop.manager.default_model)
    assert isinstance(provider, ScriptedProvider)
    chat, code = provider.requests
    assert chat.tools == [] and "OpenWorker in chat mode" in chat.system
    assert "run_shell" in {t["function"]["name"] for t in code.tools}
    assert "senior software engineer" in code.system
    # Reopening the session shows its persona.
    async def reopen() -> None:
        window.new_session()
        window.open_session(sid)
        await until(window.loaded)

    run(qloop, reopen)
    assert composer.current_persona() == "code" and composer.persona.currentText() == "Code"


def test_install_asks_consent_and_only_then_offers_the_persona(
    qloop, make_desktop, tmp_path: Path
) -> None:
    desktop = make_desktop()
    url = git_repo(tmp_path).resolve().as_uri()
    settings = act(qloop, desktop.show_settings)
    page = settings.personas
    run(qloop, lambda: until(lambda: not page.busy()))
    act(qloop, lambda: page.install_from(url))
    run(qloop, lambda: until(lambda: page.dialog is not None and page.dialog.isVisible(),
                             what="the consent dialog"))
    dialog = page.dialog
    assert isinstance(dialog, PersonaConsentDialog)
    assert "Run commands on this computer (each command follows your permission mode)" in (
        dialog.capability_texts())
    assert dialog.keep_button.isDefault()
    registry = PersonaRegistry(desktop.runtime.paths.data / "personas")
    assert not registry.load()["release-helper"].enabled
    assert "release-helper" not in dict(picker(desktop))
    state = page.tree.findItems("Release helper", _match())[0].text(1)
    assert state == "Needs your consent"

    act(qloop, dialog.reject)  # "Keep disabled"
    run(qloop, lambda: until(lambda: "stays disabled" in page.status.text()))
    assert not PersonaRegistry(registry.root).load()["release-helper"].enabled

    page.select("release-helper")
    act(qloop, page.enable.click)  # asks again
    run(qloop, lambda: until(lambda: page.dialog is not dialog and page.dialog.isVisible()))
    act(qloop, page.dialog.enable_button.click)
    run(qloop, lambda: until(lambda: "release-helper" in dict(picker(desktop)),
                             what="the picker to offer it"))
    assert PersonaRegistry(registry.root).load()["release-helper"].enabled
    assert desktop.runtime.personas.load()["release-helper"].enabled  # the sessions see it

    act(qloop, page.remove.click)
    run(qloop, lambda: until(lambda: "release-helper" not in dict(picker(desktop))))


def _match() -> Any:
    from PySide6.QtCore import Qt

    return Qt.MatchFlag.MatchExactly


def test_the_consent_dialog_speaks_the_users_language(qapp) -> None:
    from openworker_qt.agents.personas import capabilities, parse_persona
    from openworker_qt.ui.theme import install_translator
    from tests.agents.test_personas import HELPER

    persona = parse_persona(HELPER)
    assert PersonaConsentDialog(persona).capability_texts() == capabilities(persona)
    install_translator(qapp, "zh_CN")
    try:
        dialog = PersonaConsentDialog(persona)
        assert "在这台电脑上运行命令（每条命令都遵循你的权限模式）" in dialog.capability_texts()
        assert dialog.keep_button.text() == "保持禁用"
    finally:
        install_translator(qapp, "en")
