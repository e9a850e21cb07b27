"""MCP resources and prompts in the composer (real widgets, offscreen) against the
real test server: the attach menu lists what ready servers offer and attaches the
chosen resource as text (no file path); "/" in an empty message box offers the
servers' prompts, asks for their arguments and puts the rendered text in."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QDialog, QDialogButtonBox

from openworker_qt.mcp.manager import McpManager
from openworker_qt.ui.composer import Composer
from openworker_qt.ui.mcp_composer import McpChoiceDialog, McpComposer, PromptArgumentsDialog
from tests.mcp.helpers import script
from tests.ui.conftest import run, until


def composer_on(qtbot: Any) -> tuple[Composer, McpManager, McpComposer, list[str]]:
    composer = Composer()
    qtbot.addWidget(composer)
    composer.show()
    manager = McpManager([script("behave")], connect_timeout=20)
    notices: list[str] = []
    return composer, manager, McpComposer(composer, manager, notices.append), notices


def menu_action(composer: Composer, words: str) -> Any:
    assert composer.attach_menu is not None
    for action in composer.attach_menu.actions():
        if action.text() == words:
            return action
    raise AssertionError(f"no {words!r} in the attach menu")


def choose(dialog: QDialog | None, words: str) -> None:
    assert isinstance(dialog, McpChoiceDialog)
    for row in range(dialog.list.count()):
        if words in dialog.list.item(row).text():
            dialog.list.setCurrentRow(row)
            dialog.accept()
            return
    raise AssertionError(f"{words!r} not offered")


def test_a_resource_is_attached_from_the_attach_menu(qtbot, qloop) -> None:
    composer, manager, ctrl, notices = composer_on(qtbot)

    async def scenario() -> None:
        await manager.start_all()
        await manager.wait_ready()
        menu_action(composer, "From an MCP server…").trigger()
        await until(lambda: ctrl.dialog is not None, 20, "the resource list")
        choose(ctrl.dialog, "note://hello")
        await until(lambda: composer.attachments, 20, "the attachment")
        part = composer.attachments[0].part
        assert "Hello from a resource" in part["text"] and "behave" in part["text"]
        assert "path" not in part  # not a file the assistant's tools may read
        composer.model.setEditText("scripted:x")
        sent: list[Any] = []
        composer.submitted.connect(lambda text, parts: sent.append(parts))
        composer.edit.setPlainText("summarise it")
        composer.submit()
        assert sent and "Hello from a resource" in sent[0][0]["text"]
        assert notices == []
        await manager.stop_all()

    run(qloop, scenario)


def test_slash_offers_prompts_and_asks_their_arguments(qtbot, qloop) -> None:
    composer, manager, ctrl, _ = composer_on(qtbot)

    async def scenario() -> None:
        await manager.start_all()
        await manager.wait_ready()
        qtbot.keyClicks(composer.edit, "/")
        await until(lambda: ctrl.dialog is not None, 20, "the prompt list")
        assert composer.edit.toPlainText() == ""
        choose(ctrl.dialog, "greet")
        await until(lambda: isinstance(ctrl.dialog, PromptArgumentsDialog), 20, "the arguments")
        ask = ctrl.dialog
        assert isinstance(ask, PromptArgumentsDialog)
        ok = ask.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert not ok.isEnabled()  # "who" is needed
        ask.fields["who"].setText("Ada")
        assert ok.isEnabled()
        ok.click()
        await until(lambda: "Ada" in composer.edit.toPlainText(), 20, "the prompt's text")
        assert composer.edit.toPlainText() == "Please greet Ada warmly."
        # Cancelling the list after a typed "/" gives the "/" back, once.
        composer.edit.clear()
        qtbot.keyClicks(composer.edit, "/")
        await until(lambda: ctrl.dialog is not None, 20, "the prompt list")
        ctrl.dialog.reject()
        await until(lambda: composer.edit.toPlainText() == "/", 20, "the slash back")
        qtbot.keyClicks(composer.edit, "x")
        assert composer.edit.toPlainText() == "/x" and ctrl.dialog is None
        await manager.stop_all()

    run(qloop, scenario)


def test_no_ready_server_says_so(qtbot, qloop) -> None:
    composer, _manager, ctrl, notices = composer_on(qtbot)  # never started

    async def scenario() -> None:
        menu_action(composer, "From an MCP server…").trigger()
        await until(lambda: notices, 10, "a notice")
        assert "None of your MCP servers" in notices[0] and not composer.attachments
        qtbot.keyClicks(composer.edit, "/")
        await until(lambda: composer.edit.toPlainText() == "/", 10, "the slash back")
        assert ctrl.dialog is None

    run(qloop, scenario)


def test_without_mcp_the_attach_button_opens_files(qtbot) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    asked: list[bool] = []
    composer.attach_requested.connect(lambda: asked.append(True))
    composer.attach.click()
    assert asked and composer.attach_menu is None
    qtbot.keyClicks(composer.edit, "/")
    assert composer.edit.toPlainText() == "/"
