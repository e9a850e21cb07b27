"""How sessions started outside the main window (quick ask, onboarding's demo)
are created through the session manager and shown in the window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.core.sessions import SessionManager
from openworker_qt.ui.main_window import MainWindow


class WindowSessions:
    """Sessions started outside the main window (quick ask, onboarding's demo):
    created through the :class:`SessionManager`, shown in ``window``.

    It is the :class:`~openworker_qt.ui.ports.QuickAskSessions` and the
    :class:`~openworker_qt.ui.ports.DemoSessions` of the desktop app.
    """

    def __init__(self, manager: SessionManager, window: MainWindow) -> None:
        self.manager = manager
        self.window = window

    def new_session_model(self) -> str:
        # The default model, else what the window's picker shows; never a blank one.
        return self.manager.default_model.strip() or self.window.composer.current_model()

    def new_session_folder(self) -> Path:
        return self.window.default_workspace

    def create_session(self, *, model: str, workspace: str, meta: dict[str, Any],
                       title: str = "", persona: str = "", mode: str = "") -> str:
        optional = {"title": title, "persona": persona, "mode": mode}
        fields: dict[str, object] = {k: v for k, v in optional.items() if v}
        return self.manager.create_session(model=model, workspace=workspace, meta=meta, **fields).id

    def grant_folder(self, session_id: str, folder: str, *, writable: bool) -> None:
        self.manager.grant_folder(session_id, folder, writable=writable)

    def send(self, session_id: str, content: Any) -> None:
        self.manager.send(session_id, content)
        self.window.refresh_sessions()

    def show_session(self, session_id: str, *, message: str = "") -> None:
        self.window.show_session(session_id)
        if message:
            self.window.submit_message(message)

    def show_problem(self, text: str) -> None:
        self.window.show_message(text)
