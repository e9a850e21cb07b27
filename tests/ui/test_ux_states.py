"""What the user sees when nothing is happening yet, and sessions made elsewhere."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from openworker_qt.qt.session_model import ID_ROLE, SessionListModel
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from tests.ui.conftest import act, run, until


def _ids(model: SessionListModel) -> list[str]:
    """The sessions listed (group headers left out)."""
    ids = (model.index(r, 0).data(ID_ROLE) for r in range(model.rowCount()))
    return [str(sid) for sid in ids if sid]


def test_a_session_made_by_another_process_appears_and_the_selection_stays(qloop, make_desktop) -> None:
    desktop = make_desktop()
    window = desktop.window
    for i in range(30):  # enough rows to scroll
        desktop.manager.create_session(title=f"old {i}", workspace=str(desktop.workspace))
    window.refresh_sessions()
    chosen = window.sessions.info(20).id
    window.show_session(chosen)
    window.sidebar.list.scrollTo(window.sessions.index(25, 0))
    bar = window.sidebar.list.verticalScrollBar()
    scrolled = bar.value()
    other = Database(desktop.runtime.db.path)  # another connection, as the CLI has
    seen: dict[str, object] = {}

    async def scenario() -> None:
        made = ConversationStore(other).create_session(title="from the terminal", workspace="/tmp")
        await until(lambda: made.id in _ids(window.sessions), what="the new session in the sidebar")
        seen["current"] = window.sidebar.current_id()
        seen["selected"] = [i.data(ID_ROLE) for i in window.sidebar.list.selectionModel().selectedIndexes()]
        seen["first"] = window.sessions.index(1, 0).data()  # (row 0: the "Today" header)
        seen["open"] = window.session_id

    try:
        run(qloop, scenario)
    finally:
        other.close()
    assert seen["first"] == "from the terminal"
    assert seen["current"] == chosen and seen["selected"] == [chosen] and seen["open"] == chosen
    assert bar.value() >= scrolled  # not thrown back to the top by a reset


def test_session_list_reload_keeps_its_rows_true_without_a_reset(qtmodeltester, tmp_path) -> None:
    store = ConversationStore(Database(tmp_path / "s.sqlite3"))
    model = SessionListModel(store)
    qtmodeltester.check(model)
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    made = [store.create_session(title=x).id for x in "abcde"]
    model.reload()
    assert _ids(model) == made[::-1]
    store.delete_session(made[1])
    store.update_session(made[3], title="d again")  # moves to the top
    store.set_pinned(made[0], True)
    model.reload()
    assert _ids(model) == [made[0], made[3], made[4], made[2]]
    assert [model.index(r, 0).data() for r in (0, 2)] == ["Pinned", "Today"]
    qtmodeltester.check(model)
    assert resets == []


# ------------------------------------------------------------------ plain words

ASK_THEN_WRITE = [
    {"tool_calls": [{"id": "q1", "name": "ask_user",
                     "arguments": {"question": "Which quarter?", "options": ["Q3", "Q4"]}}]},
    {"tool_calls": [{"id": "w1", "name": "write_file",
                     "arguments": {"path": "out.txt", "content": "Q4\n"}}]},
    {"text": "Done."},
]


def test_rule_values_become_plain_words(qapp) -> None:
    from openworker_qt.qt.wording import risk_text, rule_text, status_text

    words = {rule: rule_text(rule) for rule in (
        "risk:read", "mode:auto", "auto_allow:write_file", "allowlist:ls", "session:always_command",
        "send_message → slack:T1/C1", "user:once", "user:always", "user:always_command", "odd")}
    assert words["risk:read"] == "Allowed: it only reads"
    assert words["user:once"] == "You approved it once"
    assert words["send_message → slack:T1/C1"] == "Allowed by your rule for slack:T1/C1"
    assert "write_file" in words["auto_allow:write_file"] and "ls" in words["allowlist:ls"]
    for rule, text in words.items():  # no code leaks through
        assert text and not any(code in text for code in (
            "risk:", "mode:", "auto_allow:", "allowlist:", "session:", "user:", "→", "always_command")), rule
    assert [risk_text(r) for r in ("read", "write_local", "exec", "external")] == [
        "Reads", "Changes files on this computer", "Runs a program", "Sends data off this computer"]
    assert status_text("pending") == "not run yet"


def test_waits_say_what_they_wait_for_in_plain_words(qtbot, qloop, make_desktop) -> None:
    from openworker_qt.ui.approval import ApprovalCard, QuestionCard

    desktop = make_desktop(ASK_THEN_WRITE)
    window = desktop.window
    window.cards.show_dialogs = False
    inbox = desktop.runtime.inbox
    seen: dict[str, object] = {}

    async def scenario() -> None:
        window.send("write the report", [])
        await until(lambda: inbox.pending(kind="question"), what="question")
        await until(lambda: any(isinstance(c, QuestionCard) for c in window.view.cards()), what="card")
        seen["status asking"] = window.status_line.text()
        box = desktop.show_inbox()
        await until(lambda: box.model.rowCount() == 1, what="inbox row")
        seen["inbox session"] = box.session_label.text()
        seen["inbox question"] = box.question.text()
        seen["inbox json shown"] = box.arguments.isVisible()
        seen["inbox kind"] = box.kind_label.text()
        [question] = inbox.pending(kind="question")
        assert desktop.resolve_item(question.id, "Q4", by="card")
        await until(lambda: any(isinstance(c, ApprovalCard) for c in window.view.cards()), what="approval")
        seen["status approving"] = window.status_line.text()
        card = next(c for c in window.view.cards() if isinstance(c, ApprovalCard))
        seen["risk"] = card.findChild(QLabel, "approvalRisk").text()
        seen["inbox risk"] = box.risk_label.text()
        card.panel.once.click()
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")
        seen["inbox empty"] = (box.empty.isVisible(), box.split.isVisible())
        box.close()

    run(qloop, scenario)
    assert seen["status asking"] == "Waiting for your answer"
    assert seen["status approving"] == "Waiting for your approval"
    sid = window.session_id
    assert seen["inbox session"] and sid not in str(seen["inbox session"])
    assert str(seen["inbox question"]).startswith("Which quarter?") and "1. Q3\n2. Q4" in str(seen["inbox question"])
    assert seen["inbox json shown"] is False and seen["inbox kind"] == "Question"
    assert str(seen["risk"]).startswith("Changes files on this computer")
    assert seen["inbox risk"] == "Changes files on this computer"
    assert seen["inbox empty"] == (True, False)
    tool = next(r for r in window.transcript.items if r.kind == "tool" and r.name == "write_file")
    body = window.view.delegate._plain_body(tool)
    assert "You approved it once" in body and "user:once" not in body and "allowed by" not in body
    notices = [window.view.delegate._plain_body(r) for r in window.transcript.items if r.kind == "notice"]
    assert not any("item " in n and "ask_user" in n for n in notices)


def test_an_empty_inbox_says_nothing_needs_you(qloop, make_desktop) -> None:
    desktop = make_desktop()
    box = act(qloop, desktop.show_inbox)
    assert box.empty.isVisible() and "Nothing needs you right now" in box.empty.text()
    assert not box.split.isVisible()  # no empty fields and grey boxes
    box.close()


# ------------------------------------------------------------------ empty states

def test_a_new_session_shows_what_openworker_can_do(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "Sure."}])
    window = desktop.window
    empty = window.view.empty_state
    assert empty.isVisible() and len(empty.examples) == 4
    assert str(desktop.workspace) in empty.folder.text()
    qtbot.mouseClick(empty.examples[1], Qt.MouseButton.LeftButton)
    assert window.composer.edit.toPlainText() == empty.examples[1].text()

    async def scenario() -> None:
        window.composer.submit()
        await until(lambda: not desktop.manager.is_running(window.session_id or ""), what="turn end")
        await until(lambda: window.transcript.rowCount() >= 2, what="rows")

    run(qloop, scenario)
    assert not empty.isVisible()
    act(qloop, window.new_session)
    assert empty.isVisible()


def test_a_search_with_no_match_says_so(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop()
    window = desktop.window
    desktop.manager.create_session(title="Quarterly report", workspace=str(desktop.workspace))
    window.refresh_sessions()
    qtbot.keyClicks(window.sidebar.search, "holiday")
    qtbot.waitUntil(window.sidebar.no_match.isVisible)  # (after the pause, from the worker)
    assert window.sessions.rowCount() == 0
    assert window.sidebar.no_match.text() == "No sessions match “holiday”"
    window.sidebar.search.clear()
    qtbot.waitUntil(lambda: not window.sessions.searching)
    assert _ids(window.sessions) and not window.sidebar.no_match.isVisible()


def test_code_blocks_get_a_shaded_box_and_the_fixed_font(qapp) -> None:
    from PySide6.QtGui import QColor, QFontDatabase, QImage, QPainter, QTextDocument

    from openworker_qt.ui.markdown_style import CODE_PAD
    from openworker_qt.ui.transcript_text import paint_code_backgrounds, style_code

    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setTextWidth(300)
    doc.setMarkdown("Run `ls` first:\n\n```sh\nls -l\necho done\n```\n\nThen stop.\n")
    style_code(doc)
    blocks = []
    block = doc.begin()
    while block.isValid():
        blocks.append(block)
        block = block.next()
    code = [b for b in blocks if b.blockFormat().nonBreakableLines()]
    assert len(code) == 2
    assert code[0].blockFormat().leftMargin() == CODE_PAD and code[0].blockFormat().topMargin() > 0
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()
    assert code[0].begin().fragment().charFormat().fontFamilies()[0] == fixed
    fill = QColor("#e0e4ea")
    image = QImage(300, int(doc.size().height()) + 1, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    paint_code_backgrounds(painter, doc, fill)
    doc.drawContents(painter)
    painter.end()
    rect = doc.documentLayout().blockBoundingRect(code[1])
    inside = image.pixelColor(290, int(rect.center().y()))  # right of the text, in the box
    outside = image.pixelColor(290, int(doc.documentLayout().blockBoundingRect(blocks[-1]).center().y()))
    first = doc.documentLayout().blockBoundingRect(code[0])
    above_text = image.pixelColor(290, int(first.top()) - CODE_PAD // 2)  # the box's padding
    assert inside == fill and above_text == fill and outside == QColor("white")
    assert image.pixelColor(290, int(first.center().y())) == fill


def test_the_new_words_in_chinese(qapp, make_desktop) -> None:
    from PySide6.QtCore import QCoreApplication

    from openworker_qt.qt.hotkey import create_hotkey
    from openworker_qt.qt.wording import notice_text, risk_text, rule_text
    from openworker_qt.ui.theme import install_translator

    assert install_translator(qapp, "zh_CN") == "zh_CN"
    try:
        assert rule_text("user:once") == "你批准了这一次"
        assert risk_text("write_local") == "修改这台电脑上的文件"
        waiting = {"provider": "Anthropic", "attempt": 2, "max_attempts": 4, "kind": "overloaded",
                   "reason": "overloaded", "delay": 3.0}
        assert notice_text("waiting", "Waiting for Anthropic …", waiting) == (
            "正在等待 Anthropic · 3 秒后第 2/4 次重试（服务繁忙）")
        assert create_hotkey(platform="wayland").status.startswith("Wayland 下无法使用全局快捷键")
        assert create_hotkey(platform="eglfs").status == "此显示环境（eglfs）不支持全局快捷键。"
        assert QCoreApplication.translate("StatusLine", "Waiting for your approval") == "等待你的批准"
        desktop = make_desktop()
        assert desktop.window.view.empty_state.heading.text() == "今天要完成什么？"
    finally:
        install_translator(qapp, "en")


def test_the_sidebar_shows_the_new_title_while_the_first_turn_runs(qtbot, qloop, make_desktop) -> None:
    from tests.ui.test_approvals import WRITE

    desktop = make_desktop(WRITE)
    window = desktop.window
    window.cards.show_dialogs = False
    seen: dict[str, object] = {}

    async def scenario() -> None:
        window.send("Prepare the renewal brief", [])
        await until(lambda: desktop.runtime.inbox.pending(), what="the approval")
        seen["title"] = window.sessions.index(1, 0).data()  # (row 0: the "Today" header)
        desktop.resolve_item(desktop.runtime.inbox.pending()[0].id, "deny", by="card")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen["title"] == "Prepare the renewal brief"


def test_example_cards_show_all_their_words_in_a_narrow_window(qapp, make_desktop) -> None:
    from PySide6.QtWidgets import QPushButton

    window = make_desktop().window
    window.resize(1040, 720)  # the width a first run opens at: two cards a row cut their words
    window.show()
    qapp.processEvents()
    qapp.processEvents()
    for button in window.view.empty_state.examples:
        assert button.isVisible()
        if type(button) is QPushButton:  # one line, as wide as the words
            need = (button.fontMetrics().horizontalAdvance(button.text())
                    + button.iconSize().width() + 28)
            assert need <= button.width(), button.text()
        else:  # wrapped: every line inside the card
            rect = button.text_rect()
            assert button.text_height(rect.width()) <= rect.height(), button.text()
            assert rect.width() > 0
    window.hide()


def test_the_status_says_how_many_other_sessions_work_in_plain_words(qloop, make_desktop) -> None:
    desktop = make_desktop([{"chunks": ["word "] * 2000, "delay": 0.01, "repeat": True}])
    window, manager = desktop.window, desktop.manager
    elsewhere, third = (manager.create_session(workspace=str(window.default_workspace)).id
                        for _ in range(2))
    seen: dict[str, str] = {}

    async def scenario() -> None:
        manager.send(elsewhere, "go")  # the window shows no session: both are "other"
        seen["one"] = window.status_line.text()
        manager.send(third, "go")
        seen["two"] = window.status_line.text()
        manager.stop(elsewhere)
        manager.stop(third)
        await until(lambda: not manager.running_sessions(), what="both stopped")
        seen["none"] = window.status_line.text()

    run(qloop, scenario)
    assert seen == {"one": "Another session is working", "two": "2 other sessions are working",
                    "none": "Ready"}


def test_opening_the_deliverables_panel_keeps_the_session_list_readable(qapp, make_desktop) -> None:
    window = make_desktop().window
    window.show()
    window.resize(600, 500)
    qapp.processEvents()
    narrowest = window.width()
    window.resize(1040, 720)  # the size a first run opens at
    qapp.processEvents()
    window.artifacts_dock.toggleViewAction().trigger()
    for _ in range(3):
        qapp.processEvents()
    assert window.artifacts_dock.isVisible()
    assert window.sidebar.width() >= 180  # titles stay readable (it was squeezed to ~60 px)
    window.artifacts_dock.toggleViewAction().trigger()  # closed: the window may be small again
    qapp.processEvents()
    window.resize(600, 500)
    qapp.processEvents()
    assert window.width() == narrowest
    window.hide()
