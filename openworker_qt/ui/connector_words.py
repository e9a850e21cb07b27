"""The connectors' words on screen, in the user's language: shared by the
Connectors settings page and the connector catalogue (the connectors are plain
Python and speak English; their strings are collected for translation by
scripts/connector_strings.py)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

__all__ = ["identity_text", "shown"]


def shown(text: str) -> str:
    """A connector descriptor's words in the user's language (the "Connectors"
    context, written by scripts/connector_strings.py; the connectors are plain
    Python and say them in English)."""
    return QCoreApplication.translate("Connectors", text) if text else text


def identity_text(text: str) -> str:
    """The stored "Connected as @ana in Acme" (written by the connectors) in words."""
    head = "Connected as "
    if not text.startswith(head):
        return text
    user, sep, workspace = text[len(head):].partition(" in ")
    if sep:
        return QCoreApplication.translate(
            "ConnectorsPage", "Connected as {user} in {workspace}").format(user=user, workspace=workspace)
    return QCoreApplication.translate("ConnectorsPage", "Connected as {user}").format(user=user)
