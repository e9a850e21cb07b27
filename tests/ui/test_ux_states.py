"""What the user sees when nothing is happening yet, and sessions made elsewhere."""

from __future__ import annotations

from openworker_qt.qt.session_model import ID_ROLE, SessionListModel
from openworker_qt.storage.conversations import ConversationStore, SessionInfo
from openworker_qt.storage.db import Database
from tests.ui.conftest import run, until


def _ids(model: SessionListModel) -> list[str]:
    return [str(model.index(r, 0).data(ID_ROLE)) for r in range(model.rowCount())]


def test_a_session_made_by_another_process_appears_and_the_selection_stays(qloop, make_desktop) -> None:  # type: ignore[no-untyped-def]
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
        seen["first"] = window.sessions.index(0, 0).data()
        seen["open"] = window.session_id

    try:
        run(qloop, scenario)
    finally:
        other.close()
    assert seen["first"] == "from the terminal"
    assert seen["current"] == chosen and seen["selected"] == [chosen] and seen["open"] == chosen
    assert bar.value() >= scrolled  # not thrown back to the top by a reset


def _info(sid: str, title: str = "") -> SessionInfo:
    return SessionInfo(id=sid, title=title or sid, model="", persona="", mode="", workspace="",
                       unattended=False, status="", created_at=0.0, updated_at=0.0)


def test_session_list_refresh_moves_inserts_and_removes_without_a_reset(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = SessionListModel()
    qtmodeltester.check(model)
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    model.refresh([_info(x) for x in "abcde"])
    for order in ("xabcde", "cxabde", "ce", "", "edcba", "aebzc"):
        model.refresh([_info(x) for x in order])
        assert _ids(model) == list(order)
    assert resets == []
