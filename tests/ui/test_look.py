"""The window's look, checked on real widgets (offscreen): the transcript's
reading column, long pastes folded behind "Show all", tool cards in words,
approvals answered from the keyboard alone, the composer growing with its text."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QLabel, QStyleOptionViewItem

from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest
from openworker_qt.core.risk import RiskClass
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.ui.approval import ApprovalCard, ApprovalDialog
from openworker_qt.ui.composer import Composer
from openworker_qt.ui.design import READING_WIDTH
from openworker_qt.ui.transcript_view import TranscriptView


def _view(qtbot, items: list[TranscriptItem], width: int = 1400) -> TranscriptView:
    view = TranscriptView()
    qtbot.addWidget(view)
    model = TranscriptModel()
    model.reset("s1", items)
    view.setModel(model)
    view.resize(width, 700)
    view.show()
    qtbot.waitExposed(view)
    return view


def _painted_columns(view: TranscriptView, row: int) -> tuple[int, int]:
    """The leftmost and rightmost x the delegate paints ink at, for one row."""
    index = view.model().index(row, 0)
    option = QStyleOptionViewItem()
    option.initFrom(view.viewport())
    size = view.delegate.sizeHint(option, index)
    option.rect = QRect(QPoint(0, 0), size.expandedTo(size).grownBy(view.contentsMargins()))
    option.rect.setWidth(view.viewport().width())
    image = QImage(option.rect.size(), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    view.delegate.paint(painter, option, index)
    painter.end()
    xs = [x for x in range(image.width()) for y in range(0, image.height(), 2)
          if image.pixelColor(x, y).alpha() > 0]
    return min(xs), max(xs)


def test_the_reading_column_is_capped_and_centred(qtbot) -> None:
    long = "A long answer that should wrap in a comfortable column. " * 40
    view = _view(qtbot, [TranscriptItem("assistant", text=long),
                         TranscriptItem("tool", name="read_file", call_id="c1",
                                        arguments={"path": "notes-q1.md"}, status="ok")])
    width = view.viewport().width()
    assert width > READING_WIDTH + 200
    for row in (0, 1):
        left, right = _painted_columns(view, row)
        assert right - left <= READING_WIDTH
        margin_left, margin_right = left, width - 1 - right
        assert margin_left > 100 and abs(margin_left - margin_right) < 60  # centred
    # a narrow window uses all it has
    view.resize(500, 600)
    QApplication.processEvents()
    left, right = _painted_columns(view, 0)
    assert right - left > 400


def test_a_long_paste_is_folded_behind_show_all(qtbot) -> None:
    paste = "\n".join(f"log line {i}: something happened" for i in range(300))
    short = TranscriptItem("user", text="hello")
    item = TranscriptItem("user", text=paste)
    view = _view(qtbot, [short, item], width=900)
    delegate = view.delegate
    folded = delegate.exact_height(item, delegate._width())
    body = delegate._plain_body(item)
    assert "log line 0" in body and "log line 299" not in body
    assert body.count("\n") < 12
    assert delegate._doc(item, "more", 300).toPlainText() == "Show all · 300 lines"
    assert "Show all" not in delegate._plain_body(short)
    # activating the row (click or Enter) shows all of it
    view.setCurrentIndex(view.model().index(1, 0))
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert item.expanded
    assert "log line 299" in delegate._plain_body(item)
    assert delegate.exact_height(item, delegate._width()) > 10 * folded
    assert delegate._doc(item, "more", 300).toPlainText() == "Show less"


def test_tool_cards_speak_in_words(qtbot) -> None:
    write = TranscriptItem("tool", name="write_file", call_id="c1", status="ok", rule="user:once",
                           arguments={"path": "ACME/brief.md", "content": "a\n" * 12})
    shell = TranscriptItem("tool", name="run_shell", call_id="c2", status="ok", rule="allowlist:pytest",
                           arguments={"command": "pytest -q"}, result='{"exit_code": 0, "output": "ok"}',
                           started=100.0, finished=103.2)
    read = TranscriptItem("tool", name="read_file", call_id="c3", status="ok", rule="risk:read",
                          arguments={"path": "/home/u/notes-q1.md"})
    view = _view(qtbot, [write, shell, read], width=900)
    first = [view.delegate._plain_body(i).splitlines()[0] for i in (write, shell, read)]
    assert first == ["Wrote brief.md (+12 lines)", "Ran “pytest -q” · exit 0 · 3.2 s", "Read notes-q1.md"]
    assert "You approved it once" in view.delegate._plain_body(write)
    for item in (write, shell, read):
        assert item.name not in view.delegate._plain_body(item).splitlines()[0] or item.name == "git"


def _request(tool: str = "write_file", can_always: bool = False) -> ApprovalRequest:
    return ApprovalRequest(
        session_id="s1", call_id="c1", tool=tool, risk=RiskClass.WRITE_LOCAL, reason="",
        arguments={"path": "ACME/brief.md", "content": "# Brief\n"}, target="ACME/brief.md",
        can_always=can_always)


def test_approval_asks_a_plain_question_with_a_numbered_diff(qtbot) -> None:
    diff = "--- a/brief.md\n+++ b/brief.md\n@@ -1,2 +1,2 @@\n keep\n-old line\n+new line\n"
    dialog = ApprovalDialog(_request(), preview=diff)
    qtbot.addWidget(dialog)
    assert dialog.panel.title.text() == "Write brief.md in ACME/?"
    assert dialog.windowTitle() == "Write brief.md in ACME/?"
    lines = dialog.panel.details.toPlainText().splitlines()
    assert lines[3].split() == ["1", "1", "keep"]
    assert lines[4].split() == ["2", "-old", "line"]
    assert lines[5].split() == ["2", "+new", "line"]
    assert len(dialog.panel.details.extraSelections()) == 5  # 2 file lines, a hunk, a removal, an addition
    assert not dialog.panel.always.isVisibleTo(dialog)  # no standing rule binds a local write


def test_keyboard_alone_approves_and_denies(qtbot) -> None:
    answers: list[str] = []
    # the dialog: Ctrl+Enter approves, Esc denies
    for key, mod in ((Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier),
                     (Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)):
        dialog = ApprovalDialog(_request())
        qtbot.addWidget(dialog)
        dialog.answered.connect(answers.append)
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.activateWindow()
        dialog.panel.once.setFocus()
        qtbot.keyClick(dialog.focusWidget() or dialog, key, mod)
    assert answers == [ApprovalOutcome.ONCE.value, ApprovalOutcome.DENY.value]
    # the inline card: focus lands on Approve; Space approves, Tab reaches Deny
    for tabs, expected in ((0, ApprovalOutcome.ONCE.value), (1, ApprovalOutcome.DENY.value)):
        card = ApprovalCard(_request())
        qtbot.addWidget(card)
        got: list[str] = []
        card.answered.connect(got.append)
        card.show()
        card.activateWindow()
        qtbot.waitUntil(card.isActiveWindow)
        card.setFocus()
        assert QApplication.focusWidget() is card.panel.once
        for _ in range(tabs):
            qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)
        assert got == [expected]
        card.close()


def test_composer_grows_with_its_text_up_to_a_cap(qtbot) -> None:
    from PySide6.QtWidgets import QMainWindow

    window = QMainWindow()
    qtbot.addWidget(window)
    composer = Composer()
    window.setCentralWidget(composer)
    window.resize(900, 800)
    window.show()
    qtbot.waitExposed(window)
    empty = composer.edit.height()
    composer.edit.setPlainText("line\n" * 5)
    five = composer.edit.height()
    composer.edit.setPlainText("line\n" * 200)
    many = composer.edit.height()
    assert empty < five < many <= int(800 * 0.4)
    assert composer.send.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly
    for button in (composer.send, composer.attach, composer.mic, composer.stop):
        assert not button.icon().isNull() and button.accessibleName() and button.toolTip()


MARKDOWN = """Here is the plan:

> Renewals are due in **March**.

| Item | Seats |
|------|------:|
| ACME | 150 |

```python
def total(seats):
    return seats * 12
```

See [the docs](https://example.com/docs).
"""


def _blocks(doc):
    block = doc.begin()
    while block.isValid():
        yield block
        block = block.next()


def test_markdown_tables_quotes_and_highlighted_code(qapp) -> None:
    import threading

    from PySide6.QtGui import QTextDocument, QTextFormat, QTextTable

    from openworker_qt.ui import markdown_style

    markdown_style.preload_highlighter()
    for thread in list(threading.enumerate()):
        if thread.name == "pygments-preload":
            thread.join(10)
    assert markdown_style.highlighter_ready()
    doc = QTextDocument()
    doc.setTextWidth(600)
    doc.setMarkdown(MARKDOWN)
    markdown_style.style_markdown(doc)
    [table] = [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    # (after a quote, Qt's importer opened the first cell with an empty paragraph)
    assert table.cellAt(0, 0).firstCursorPosition().block().text() == "Item"
    head, body = table.cellAt(0, 1), table.cellAt(1, 1)
    assert head.firstCursorPosition().blockFormat().alignment() == body.firstCursorPosition().blockFormat().alignment()
    assert head.firstCursorPosition().charFormat().fontWeight() == 700
    assert table.format().cellPadding() >= 4
    quote = next(b for b in _blocks(doc) if b.blockFormat().property(QTextFormat.Property.BlockQuoteLevel))
    assert quote.blockFormat().leftMargin() == markdown_style.QUOTE_INDENT
    code = next(b for b in _blocks(doc) if b.text().startswith("def total"))
    colours = {frag.charFormat().foreground().color().name()
               for frag in (it.fragment() for it in _iter(code))}
    assert len(colours) >= 2  # keyword, function name… not one flat colour
    [(box, text)] = markdown_style.code_groups(doc)
    assert text == "def total(seats):\n    return seats * 12"
    assert markdown_style.copy_button_at(doc, markdown_style.copy_button_rect(box).center()) == text
    link = next(b for b in _blocks(doc) if "docs" in b.text())
    rect = doc.documentLayout().blockBoundingRect(link)
    line = link.layout().lineAt(0)
    x, _ = line.cursorToX(link.text().index("docs") + 1)
    assert markdown_style.anchor_at(doc, rect.topLeft() + QPointF(x, line.height() / 2)) == "https://example.com/docs"


def _iter(block):
    it = block.begin()
    while not it.atEnd():
        yield it
        it += 1


def test_hover_actions_copy_edit_and_ask_again(qtbot) -> None:
    import time

    question = TranscriptItem("user", text="Summarise the notes", ts=time.time())
    answer = TranscriptItem("assistant", text="Two notes: **usage** and tickets.", ts=time.time())
    view = _view(qtbot, [TranscriptItem("user", text="earlier"), TranscriptItem("assistant", text="old"),
                         question, answer], width=1000)
    edits: list[str] = []
    resends: list[str] = []
    view.edit_requested.connect(edits.append)
    view.resend_requested.connect(resends.append)
    model = view.model()

    def click(row: int, action: str) -> None:
        index = model.index(row, 0)
        view.scrollTo(index)
        QApplication.processEvents()
        rect = view.visualRect(index)
        [target] = [r for name, r in view.delegate.action_rects(model.item(row), rect) if name == action]
        qtbot.mouseMove(view.viewport(), target.center())
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=target.center())

    click(2, "edit")
    click(3, "retry")
    click(3, "copy")
    assert edits == ["Summarise the notes"] and resends == ["Summarise the notes"]
    assert view.copied == "Two notes: **usage** and tickets."
    # only the last exchange offers edit / ask again; every message offers copy
    view._note_last_messages()
    assert view.delegate.actions_for(model.item(0)) == ["copy"]
    assert view.delegate.actions_for(model.item(1)) == ["copy"]


def test_a_new_session_greets_and_lists_recent_deliverables(qtbot, tmp_path) -> None:
    import os

    from openworker_qt.ui.empty_state import EmptyState

    (tmp_path / "outputs").mkdir()
    for i, name in enumerate(("old.md", "brief.docx", "numbers.xlsx")):
        (tmp_path / "outputs" / name).write_text("x")
        os.utime(tmp_path / "outputs" / name, (1_700_000_000 + i, 1_700_000_000 + i))
    empty = EmptyState()
    qtbot.addWidget(empty)
    empty.show()
    assert len(empty.examples) == 4 and empty.hello.text().startswith("Good ")
    empty.set_folder(tmp_path)
    qtbot.waitUntil(lambda: len(empty.recent) == 3)
    assert [b.text() for b in empty.recent] == ["numbers.xlsx", "brief.docx", "old.md"]
    assert empty.recent_title.isVisible()
    empty.set_folder(tmp_path / "elsewhere")
    qtbot.waitUntil(lambda: not empty.recent_title.isVisible())


def test_status_in_words(qapp) -> None:
    from openworker_qt.qt.wording import activity_text, provider_label, waiting_for_model_text

    assert activity_text("run_shell", {"command": "pytest -q tests/"}) == "Running pytest…"
    assert activity_text("read_file", {"path": "docs/notes-q1.md"}) == "Reading notes-q1.md…"
    assert activity_text("mcp__github__create_issue", {}) == "Using GitHub: create issue…"
    assert waiting_for_model_text("anthropic:claude-sonnet-4-6") == "Waiting for Anthropic"
    assert provider_label("qwen2.5-coder:32b") == "the model"  # a version tag is not a provider


def test_quick_ask_keeps_the_draft_and_drops_a_stale_answer(qtbot, qloop, make_desktop) -> None:
    from openworker_qt.ui import quick_ask
    from tests.ui.conftest import run, until

    desktop = make_desktop([{"text": "42."}])
    popup = desktop.show_quick_ask()
    assert not popup.windowFlags() & Qt.WindowType.WindowStaysOnTopHint

    async def scenario() -> None:
        qtbot.keyClicks(popup.edit, "What is the answer?")
        qtbot.keyClick(popup.edit, Qt.Key.Key_Return)
        await until(lambda: popup.status.text() == "Done", what="answer")

    run(qloop, scenario)
    assert popup.answer.text() == "42."
    popup.edit.setText("a draft I have not sent")
    qtbot.keyClick(popup.edit, Qt.Key.Key_Escape)
    assert not popup.isVisible()
    popup.popup()  # soon after: the answer is still fresh, the draft is kept
    assert popup.answer.text() == "42." and popup.edit.text() == "a draft I have not sent"
    popup.hide()
    popup._finished_at -= quick_ask.STALE_AFTER_S + 1  # as if the answer ended long ago
    popup.popup()
    assert popup.answer.text() == "" and not popup.answer.isVisible()
    assert popup.edit.text() == "a draft I have not sent" and popup.session_id is None


def test_the_inbox_shows_what_a_write_changes_as_a_diff(qtbot, qloop, make_desktop) -> None:
    from tests.ui.conftest import run, until
    from tests.ui.test_approvals import WRITE

    desktop = make_desktop(WRITE)
    window = desktop.window
    window.cards.show_dialogs = False
    seen: dict[str, object] = {}

    async def scenario() -> None:
        window.composer.edit.setPlainText("write")
        window.composer.submit()
        await until(lambda: desktop.inbox.pending(), what="ask")
        box = desktop.show_inbox()
        await until(lambda: box.arguments.diff, what="the diff")
        seen["headline"] = box.headline.text()
        seen["diff"] = box.arguments.toPlainText()
        seen["captions"] = [w.text() for w in box.findChildren(QLabel) if w.text().endswith(":")]
        window.stop()
        await until(lambda: not desktop.manager.is_running(window.session_id or ""), what="stop")
        box.close()

    run(qloop, scenario)
    assert seen["headline"] == "Write out.txt?"
    assert "+hello" in str(seen["diff"]) and not seen["captions"]


def test_an_opened_command_card_shows_its_output_not_json(qtbot) -> None:
    shell = TranscriptItem("tool", name="run_shell", call_id="c2", status="ok", expanded=True,
                           arguments={"command": "ls -1"},
                           result='{"exit_code": 0, "output": "notes-q1.md\\nnotes-q2.md\\n", "cwd": "/x"}')
    view = _view(qtbot, [shell], width=900)
    details = view.delegate._details_text(shell)
    assert details.endswith("notes-q1.md\nnotes-q2.md") and "exit_code" not in details
    assert "Command: ls -1" in details and '{"command"' not in details  # fields, not JSON


def test_icons_follow_a_scheme_switch(qtbot) -> None:
    from PySide6.QtCore import QSize

    from openworker_qt.ui import design
    from openworker_qt.ui.empty_state import EmptyState

    app = QApplication.instance()
    before_palette = app.palette()

    def ink(button) -> str:
        image = button.icon().pixmap(QSize(20, 20), 1.0).toImage()
        return next(image.pixelColor(x, y).name() for y in range(20) for x in range(20)
                    if image.pixelColor(x, y).alpha() == 255)

    try:
        app.setPalette(design.qpalette(design.light()))
        empty = EmptyState()
        qtbot.addWidget(empty)
        composer = Composer()
        qtbot.addWidget(composer)
        light = (ink(empty.examples[0]), ink(composer.attach))
        app.setPalette(design.qpalette(design.dark()))
        QApplication.processEvents()
        dark = (ink(empty.examples[0]), ink(composer.attach))
        assert light == (design.light().accent, design.light().muted)
        assert dark == (design.dark().accent, design.dark().muted)
    finally:
        app.setPalette(before_palette)


def test_a_resize_measures_rows_again_only_for_a_new_width(qtbot) -> None:
    """Row heights depend on the reading column's width alone: a window that only grows
    taller (the message box growing, a banner shown) measures none of its rows again
    (that cost up to 40 ms of the loop's time in a session of a few hundred rows)."""
    items = [TranscriptItem("assistant", text=f"Answer {i}: **bold** and `code`.\n\n- a\n- b")
             for i in range(60)]
    view = _view(qtbot, items, width=600)
    measured: list[tuple[object, int, int]] = []
    exact = view.delegate.exact_height

    def counting(item, width):
        measured.append((item.uid, item.rev, width))
        return exact(item, width)

    view.delegate.exact_height = counting

    def settle() -> None:
        QApplication.processEvents()
        view.doItemsLayout()
        QApplication.processEvents()

    settle()
    known = set(view.delegate._heights)
    assert len(known) >= len(items)
    measured.clear()
    view.resize(600, 900)  # taller only
    settle()
    assert not known & set(measured)
    view.resize(520, 900)  # a new width: measured again
    settle()
    assert measured


def test_quick_ask_renders_markdown_like_the_main_window(qtbot, qloop, make_desktop) -> None:
    from PySide6.QtCore import QPointF

    from openworker_qt.ui.markdown_style import code_groups, copy_button_rect
    from tests.ui.conftest import run, until

    answer = ("Here is the fix:\n\n```python\nprint('hi')\n```\n\n"
              "| item | cost |\n|---|---:|\n| tea | 3.50 |\n\n> keep it short\n")
    desktop = make_desktop([{"text": answer, "chunk_size": 7}])
    popup = desktop.show_quick_ask()

    async def scenario() -> None:
        qtbot.keyClicks(popup.edit, "fix it")
        qtbot.keyClick(popup.edit, Qt.Key.Key_Return)
        await until(lambda: popup.status.text() == "Done", what="answer")

    run(qloop, scenario)
    view = popup.answer
    doc = view.document()
    assert "```" not in doc.toPlainText() and "|---" not in doc.toPlainText()  # rendered
    [(box, code)] = code_groups(doc)  # a code box, as in the transcript
    assert code == "print('hi')"
    tables = [f for f in doc.rootFrame().childFrames() if f.__class__.__name__ == "QTextTable"]
    assert tables  # a real table, not pipes
    assert view.height() >= int(doc.size().height()) > 0  # grown to its text
    copied: list[str] = []
    view.copied.connect(copied.append)
    centre = copy_button_rect(box).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPointF(centre.x(), centre.y() - view.verticalScrollBar().value()).toPoint())
    assert copied == ["print('hi')"]
