"""The window writes a session's fields through the session manager only: the
windows and models never write the store's sessions themselves nor patch the
manager afterwards (``forget``), and what the window changed is what the manager
and the store both say."""

from __future__ import annotations

import re
from pathlib import Path

import openworker_qt
from openworker_qt.qt.session_model import ID_ROLE
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter

PACKAGE = Path(openworker_qt.__file__).parent
WRITES = re.compile(r"\.(update_session|set_pinned|delete_session|grant_directory|revoke_directory|"
                    r"forget)\(")


def test_no_window_or_model_writes_a_session_past_the_manager() -> None:
    found = []
    for folder in ("ui", "qt"):
        for path in sorted((PACKAGE / folder).glob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#", 1)[0]
                for match in WRITES.finditer(code):
                    if not code[:match.start()].endswith("manager") or match.group(1) == "forget":
                        if "delegate.forget" not in code:  # (a row's cached layout)
                            found.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert found == []


def test_a_folder_and_a_pin_set_in_the_window_are_what_the_manager_and_store_say(
        qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop([{"text": "Hello."}])
    window, manager = desktop.window, desktop.manager
    moved = tmp_path / "moved"
    moved.mkdir()

    async def scenario() -> str:
        type_and_enter(qtbot, window, "hi")
        await until(lambda: window.session_id and not manager.is_running(window.session_id),
                    what="turn end")
        return str(window.session_id)

    sid = run(qloop, scenario)
    assert manager.engine(sid).workspace != moved.resolve()
    assert window.set_session_folder(str(moved))
    info = manager.store.get_session(sid)
    assert info is not None and Path(info.workspace) == moved.resolve()
    assert manager.engine(sid).workspace == moved.resolve()  # rebuilt by the manager itself
    assert window.session_workspace() == moved.resolve()
    window.sidebar.select(sid)
    window.sidebar.toggle_pin()
    assert manager.store.get_session(sid).pinned  # type: ignore[union-attr]
    assert window.sessions.index(1, 0).data(ID_ROLE) == sid  # first under "Pinned"
