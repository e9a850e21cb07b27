"""Bringing an existing database up to this version's schema before the app uses it.

A schema step over existing rows can take seconds (counting a million messages,
indexing them): the desktop app asks :func:`pending_upgrade` first (one small
read) and, when it says so, runs :func:`upgrade` in a worker thread while its
window keeps painting (``ui/upgrade_window.py``); the stores then find their
tables up to date and open at once. The CLI simply lets the stores migrate.

Work that can wait (indexing old messages for search) is not part of a step:
it runs later in chunks (:meth:`ConversationStore.backfill_search`).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from openworker_qt.storage.conversation_schema import MIGRATIONS
from openworker_qt.storage.db import Database

#: The components whose steps may touch many rows, and their steps.
HEAVY = {"conversations": MIGRATIONS}


def pending_upgrade(path: Path) -> bool:
    """True when the database at ``path`` holds tables older than this version's
    (a step to apply over rows already stored). A missing or new file: False."""
    if not path.exists():
        return False
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return False  # (opening it properly will say what is wrong)
    try:
        versions = dict(conn.execute("SELECT component, version FROM schema_versions").fetchall())
    except sqlite3.Error:
        return False  # no versions yet: nothing stored to bring up to date
    finally:
        conn.close()
    return any(
        component in versions and int(versions[component]) < len(steps)
        for component, steps in HEAVY.items()
    )


def upgrade(path: Path) -> None:
    """Apply this version's schema steps to the database at ``path`` on a
    connection of the calling thread (a worker's: it reads and writes the disk)."""
    db = Database(path)
    try:
        for component, steps in HEAVY.items():
            db.ensure(component, steps)
    finally:
        db.close()
