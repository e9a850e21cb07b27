"""Settings › Permissions: what the wider "always" answers allow now, each with
Revoke.

"Always allow “grep” commands" and "Always allow changes in acme" (the approval
card, its dialog, the inbox window) last for the rest of the session, at most
until the app quits; this box lists every one in force, in words, with the
session it is for, and Revoke takes one back: the next call it covered asks again.
It follows the grants live (an answer given while Settings is open shows at once).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from openworker_qt.core.wider_grants import WiderGrant, WiderGrants
from openworker_qt.ui import design


class SessionTitles(Protocol):
    """Where a session's title is read (the conversation store)."""

    def get_session(self, session_id: str) -> Any: ...


class GrantsBox(QWidget):
    """See module docstring. ``sessions``: where titles are read; a grant of a
    session that no longer exists is not listed (it can never be used again)."""

    _changed = Signal()  # (from whichever thread granted or revoked)

    def __init__(self, grants: WiderGrants, sessions: SessionTitles | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("widerGrants")
        self.grants = grants
        self.sessions = sessions
        lay = QVBoxLayout(self)
        design.arrange(lay, "flush", "row")
        heading = design.heading(self.tr("Allowed for the rest of a session"), "body")
        bold = heading.font()
        bold.setWeight(bold.Weight.DemiBold)
        heading.setFont(bold)
        lay.addWidget(heading)
        intro = QLabel(self.tr(
            "What you allowed with “Always allow” on a command or a folder. It lasts "
            "until the session is deleted or the app quits; revoke it to be asked again."))
        intro.setWordWrap(True)
        lay.addWidget(design.tint(intro))
        self.rows = QVBoxLayout()
        design.arrange(self.rows, "flush", "tight")
        lay.addLayout(self.rows)
        self.empty = QLabel(self.tr("Nothing is allowed beyond your settings right now."))
        self.empty.setObjectName("noGrants")
        self.empty.setWordWrap(True)
        lay.addWidget(design.tint(self.empty))
        self.buttons: list[QPushButton] = []
        self._changed.connect(self.refresh, Qt.ConnectionType.QueuedConnection)
        self._unsubscribe = grants.subscribe(self._changed.emit)
        self.destroyed.connect(lambda *_: self._unsubscribe())
        self.refresh()

    def shown(self) -> list[WiderGrant]:
        """The grants listed: those of sessions that still exist."""
        return [g for g in self.grants.all() if self._title(g.session_id) is not None]

    def _title(self, session_id: str) -> str | None:
        if self.sessions is None:
            return ""
        info = self.sessions.get_session(session_id)
        if info is None:
            return None
        return str(getattr(info, "title", "") or self.tr("New session"))

    def words(self, grant: WiderGrant) -> str:
        """What ``grant`` allows, and where, in words."""
        title = self._title(grant.session_id) or ""
        if grant.kind == "prefix":
            what = self.tr("Run commands starting with “{prefix}” without asking (the rest of "
                           "each command is still checked)").format(prefix=grant.value)
        else:
            what = self.tr("Change files in {folder} without asking").format(
                folder=Path(grant.value).name or grant.value)
        if not title:
            return what
        return self.tr("{what} — in “{session}”").format(what=what, session=title)

    def refresh(self) -> None:
        while self.rows.count():
            item = self.rows.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.buttons = []
        grants = self.shown()
        for grant in grants:
            self.rows.addWidget(self._row(grant))
        self.empty.setVisible(not grants)

    def _row(self, grant: WiderGrant) -> QWidget:
        row = QWidget()
        row.setObjectName("widerGrant")
        lay = QHBoxLayout(row)
        design.arrange(lay, "flush", "row")
        words = self.words(grant)
        label = QLabel(words)
        label.setWordWrap(True)
        if grant.kind == "folder":
            label.setToolTip(grant.value)
        lay.addWidget(label, 1)
        revoke = QPushButton(self.tr("Revoke"))
        revoke.setObjectName("revokeGrant")
        revoke.setAccessibleName(self.tr("Revoke"))
        revoke.setAccessibleDescription(words)
        revoke.setToolTip(self.tr("Ask again next time"))
        revoke.clicked.connect(lambda: self.grants.revoke(grant))
        lay.addWidget(revoke, 0, Qt.AlignmentFlag.AlignTop)
        self.buttons.append(revoke)
        return row
