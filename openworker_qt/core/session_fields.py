"""A session's fields are written through its manager (:class:`SessionFields`, the
part of :class:`~openworker_qt.core.sessions.SessionManager` that does it: what the
manager then builds and what the store says agree, with no caller patching the
manager afterwards), and what tools may change about their own session
(:class:`SessionControl`)."""

from __future__ import annotations

import asyncio

from openworker_qt.core.permission_settings import parse_mode
from openworker_qt.storage.conversations import ConversationStore, SessionInfo


class SessionControl:
    """What tools may change about their own session (mode, granted folders)."""

    def __init__(self, store: ConversationStore, session_id: str) -> None:
        self.store = store
        self.session_id = session_id

    def set_mode(self, mode: str) -> None:
        """Switch the session's mode; an unknown mode raises ValueError naming the valid ones."""
        self.store.update_session(self.session_id, mode=parse_mode(mode).value)

    def grant_directory(self, path: str, writable: bool) -> None:
        info = self.store.get_session(self.session_id)
        if info is None:
            return
        meta = dict(info.meta)
        roots = [r for r in meta.get("granted_roots", []) if r.get("path") != path]
        roots.append({"path": path, "writable": bool(writable)})
        meta["granted_roots"] = roots
        self.store.update_session(self.session_id, meta=meta)


    def revoke_directory(self, path: str) -> bool:
        """Take a granted folder back; True if it was granted."""
        info = self.store.get_session(self.session_id)
        if info is None:
            return False
        meta = dict(info.meta)
        roots = meta.get("granted_roots", [])
        kept = [r for r in roots if r.get("path") != path]
        if len(kept) == len(roots):
            return False
        meta["granted_roots"] = kept
        self.store.update_session(self.session_id, meta=meta)
        return True


def granted_roots(info: SessionInfo, *, writable_only: bool = True) -> list[str]:
    roots = info.meta.get("granted_roots", []) if isinstance(info.meta, dict) else []
    return [
        str(r["path"]) for r in roots
        if isinstance(r, dict) and r.get("path") and (r.get("writable") or not writable_only)
    ]


class SessionFields:
    """Title, persona, mode, pin, granted folders, folder and deletion of a session,
    written for every surface (a mix-in of the session manager, whose turns and
    engines it consults)."""

    store: ConversationStore

    def is_running(self, session_id: str) -> bool:
        raise NotImplementedError

    def running_sessions(self) -> frozenset[str]:
        raise NotImplementedError

    def forget(self, session_id: str) -> None:
        raise NotImplementedError

    def stop(self, session_id: str) -> None:
        raise NotImplementedError

    def rename(self, session_id: str, title: str) -> None:
        """Give the session a new title."""
        self.store.update_session(session_id, title=title)

    def set_persona(self, session_id: str, persona: str) -> None:
        """Work as ``persona`` from the next turn (its engine is rebuilt then, with that
        persona's tools; a running turn keeps its own)."""
        self.store.update_session(session_id, persona=persona)
        if not self.is_running(session_id):
            self.forget(session_id)

    def set_mode(self, session_id: str, mode: str) -> None:
        """Switch the permission mode (read by the permission checks as they happen); an
        unknown mode raises ValueError naming the valid ones."""
        SessionControl(self.store, session_id).set_mode(mode)

    def set_pinned(self, session_id: str, pinned: bool) -> None:
        """Pin the session to the top of the lists, or unpin it."""
        self.store.set_pinned(session_id, pinned)

    def grant_folder(self, session_id: str, folder: str, *, writable: bool) -> None:
        """Let the session read (and with ``writable``, change) ``folder`` (its
        permission checks read the granted folders as they happen)."""
        SessionControl(self.store, session_id).grant_directory(folder, writable)

    def move_to_folder(self, session_id: str, folder: str) -> bool:
        """Work in ``folder`` from the next turn (its engine is rebuilt with that folder
        and its permissions). False, and nothing changed, while a turn of the session
        runs in this process."""
        if session_id in self.running_sessions():
            return False
        self.store.update_session(session_id, workspace=folder)
        self.forget(session_id)
        return True

    async def delete_session(self, session_id: str) -> None:
        """Stop the session's turn, release its engine and delete everything stored of it
        (in a worker: a session of a million messages, and its search index, takes
        seconds). Raises what the store raised; the session is then still there."""
        self.stop(session_id)
        self.forget(session_id)
        await asyncio.to_thread(self.store.delete_session, session_id)
