"""What the windows need from the rest of the app, as narrow protocols.

A window takes the specific services it uses (the :class:`InboxBridge`, the
:class:`EngineBridge`, the :class:`SessionManager`, a
:class:`~openworker_qt.qt.settings_store.SettingsStore`) and, for what only the
app can do, one of these protocols, each with the methods its widget calls and
no more. The desktop app builds the windows, hands them these collaborators and
connects their signals; no ui module imports the app.

- :class:`Answers`: answer an inbox item (the inbox window, the main window's
  cards and dialogs, the tray menu). An :class:`InboxBridge` is one; the app's
  also resumes a turn nobody waits on.
- :class:`ModelSource`: the models the configured providers offer (settings).
- :class:`SessionDefaults`: the default model of new sessions (settings).
- :class:`SessionLookup`: a session's stored row, for titles (inbox window).
- :class:`SessionActions` and its two extensions: start a session and show it
  in the main window (quick ask; onboarding's offline demo).
- :class:`McpOffers`: the MCP servers' resources and prompts (the composer's menus).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from openworker_qt.domain.mcp_offers import PromptInfo, ResourceInfo
from openworker_qt.domain.sessions import SessionInfo


class Answers(Protocol):
    def resolve(self, item_id: int, resolution: str, *, by: str) -> bool:
        """Answer inbox item ``item_id``; False when the answer was not taken
        (someone answered first, or it does not fit the item)."""
        ...


class ModelSource(Protocol):
    def known_models(self) -> list[str]:
        """The models listed so far (may be empty until :meth:`load_models` ran)."""
        ...

    async def load_models(self) -> None:
        """List the configured providers' models again (after a key changed)."""
        ...


class SessionDefaults(Protocol):
    @property
    def default_model(self) -> str:
        """The model new sessions start with ('' when none is set up)."""
        ...


class SessionLookup(Protocol):
    def get_session(self, session_id: str) -> SessionInfo | None: ...


class SessionActions(Protocol):
    """Start a session and show it in the main window."""

    def new_session_folder(self) -> Path:
        """The folder new sessions work in (it may not exist yet)."""
        ...

    def create_session(self, *, model: str, workspace: str, meta: dict[str, Any],
                       title: str = "", persona: str = "", mode: str = "") -> str:
        """A new stored session (empty fields: the defaults); returns its id."""
        ...

    def show_session(self, session_id: str, *, message: str = "") -> None:
        """Show the session in the main window; ``message``: sent from its composer."""
        ...


class QuickAskSessions(SessionActions, Protocol):
    """What the quick-ask popup does with the session it starts."""

    def new_session_model(self) -> str:
        """The default model, else what the main window's picker shows ('' if none)."""
        ...

    def grant_folder(self, session_id: str, folder: str, *, writable: bool) -> None: ...

    def send(self, session_id: str, content: Any) -> None:
        """Start a turn with ``content`` (text or parts)."""
        ...


class DemoSessions(SessionActions, Protocol):
    """What onboarding's offline demo needs besides starting a session."""

    def show_problem(self, text: str) -> None:
        """Tell the user, in the main window, what went wrong."""
        ...


class McpOffers(Protocol):
    """What the ready MCP servers offer the composer (the runtime's MCP manager is one)."""

    async def resources(self) -> list[tuple[str, ResourceInfo]]:
        """(server, resource) of every ready server."""
        ...

    async def attachment(self, server: str, uri: str) -> str:
        """A resource's text, to attach to a message."""
        ...

    async def prompts(self) -> list[tuple[str, PromptInfo]]:
        """(server, prompt) of every ready server."""
        ...

    async def prompt(self, server: str, name: str, arguments: dict[str, str] | None = None) -> str:
        """A prompt's rendered messages, to put in the message box."""
        ...
