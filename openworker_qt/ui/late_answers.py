"""What an answer that came too late is told, in the user's language.

The core says in English why an inbox item it closed itself can no longer be
answered (:func:`~openworker_qt.core.inbox.closed_by_app`: the conversation
moved on, or the turn was stopped); the windows show these words instead.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from openworker_qt.core.inbox import SUPERSEDED, WITHDRAWN, InboxItem, closed_by_app


def closed_text(item: InboxItem) -> str | None:
    """Why answering ``item`` changed nothing because the app had closed it, or
    None if it is pending or a person answered it."""
    english = closed_by_app(item)
    if english is None:
        return None
    if item.resolution == SUPERSEDED:
        return QCoreApplication.translate(
            "LateAnswer",
            "#{n} was closed because the conversation moved on: a new message was sent "
            "before it was answered, so nothing was run. Ask again in the session if it "
            "is still needed.").format(n=item.id)
    if item.resolution == WITHDRAWN:
        return QCoreApplication.translate(
            "LateAnswer", "#{n} was withdrawn because the turn was stopped; nothing was run.").format(n=item.id)
    return english
