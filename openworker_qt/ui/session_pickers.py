"""The composer's persona, mode and model pickers for the window's current session:
what they show (a new session: the configured defaults; an open one: its own), the
models the providers offer, and a choice written to the session through its
manager (a model switch is marked in its history)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject

from openworker_qt.core.sessions import SessionManager
from openworker_qt.domain.sessions import SessionInfo
from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.ui.composer import Composer


class SessionPickers(QObject):
    """See module docstring. ``current()``: the window's current session (None: a new
    one); ``warn(text)``: the banner."""

    def __init__(self, composer: Composer, manager: SessionManager, settings: SettingsStore, *,
                 current: Callable[[], str | None], warn: Callable[[str], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.composer = composer
        self.manager = manager
        self.settings = settings
        self._current = current
        self._warn = warn
        self._models: list[str] = []  # what the configured providers offer
        composer.model_chosen.connect(self._on_model)
        composer.model_missing.connect(self.model_missing)
        composer.persona_chosen.connect(lambda p: self._write(self.manager.set_persona, p))
        composer.mode_chosen.connect(lambda m: self._write(self.manager.set_mode, m))

    def model_for(self, info: SessionInfo | None) -> str:
        """The model a session uses (a new one: the default), as the picker shows it.

        No model at all (none configured, none stored): the first model a configured
        provider offers, or '' (the picker shows its placeholder and Send asks for one).
        """
        model = (info.model if info is not None else "") or self.manager.default_model
        if not model.strip():
            model = next((m for m in self._models if m.strip()), "")
        return model.strip()

    def show_new(self) -> None:
        """A new session: the configured permission mode and the default model."""
        self.show_default_mode()
        self.composer.show_model(self.model_for(None))

    def show_default_mode(self) -> None:
        """A new session starts in the configured permission mode."""
        self.composer.show_mode(str(self.settings.get("permissions.mode", "interactive")))

    def show_session(self, info: SessionInfo) -> None:
        """An open session: its own persona, mode and model."""
        self.composer.set_session_fields(info.persona, info.mode, self.model_for(info))

    def set_known_models(self, models: list[str]) -> None:
        """The providers' models arrived: list them; keep showing the session's model."""
        self._models = list(models)
        sid = self._current()
        info = self.manager.store.get_session(sid) if sid else None
        current = self.composer.current_model() or self.model_for(info)
        self.composer.set_models(models, current)

    def set_default_model(self, model: str) -> None:
        """A new default model: a new session shows it (an open one keeps its own)."""
        if self._current() is None:
            self.composer.set_models(list(self._models), model)

    def set_default_mode(self, mode: str) -> None:
        """A new default permission mode: a new session starts in it."""
        if self._current() is None:
            self.composer.show_mode(mode)

    def model_missing(self) -> None:
        """Send with no model: say where to choose one (nothing typed is lost)."""
        self._warn(self.tr(
            "Choose a model first: type or pick one in the model box next to Send, or "
            "connect a provider in Settings. Your message is still there."))
        self.composer.focus_model()

    def model_of(self, session_id: str) -> str:
        """The model the current session uses as the picker shows it ('' for another)."""
        return self.composer.current_model() if session_id == self._current() else ""

    def _write(self, write: Callable[[str, str], None], value: str) -> None:
        sid = self._current()
        if sid is not None:
            write(sid, value)

    def _on_model(self, model: str) -> None:
        model = model.strip()
        sid = self._current()
        if not model or sid is None:
            return
        info = self.manager.store.get_session(sid)
        if info is not None and info.model != model:
            self.manager.switch_model(sid, model)
