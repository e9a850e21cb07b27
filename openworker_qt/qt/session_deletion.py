"""What deleting a session takes away (no widgets here): its stored rows (through the
session manager, which stops its turn first) and then what lives beside the store —
the session's own browser and its profile on disk.

The browser connector is imported only when a session is deleted: the window that
offers Delete never loads it for that.
"""

from __future__ import annotations

import logging
from typing import Protocol

__all__ = ["SessionDeleter", "delete_session"]

log = logging.getLogger(__name__)


class SessionDeleter(Protocol):
    """Who deletes a session's rows (the session manager)."""

    async def delete_session(self, session_id: str) -> None: ...


async def delete_session(manager: SessionDeleter, session_id: str) -> None:
    """Delete ``session_id``: its rows, then its browser and profile. Raises what the
    store raised (the session is then still there, and so is its browser profile); a
    browser that would not close is logged, the session being gone all the same."""
    await manager.delete_session(session_id)
    from openworker_qt.connectors.browser import forget_session

    try:
        await forget_session(session_id)
    except Exception:
        log.warning("could not close the browser of deleted session %s", session_id,
                    exc_info=True)
