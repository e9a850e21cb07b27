"""The connectors' words on screen, in the user's language: shared by the
Connectors settings page and the connector catalogue (the connectors are plain
Python and speak English; their strings are collected for translation by
scripts/connector_strings.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

if TYPE_CHECKING:
    from openworker_qt.connectors.base import ConnectorError
    from openworker_qt.connectors.registry import ConnectorState

__all__ = ["error_text", "failure_text", "identity_text", "shown", "state_error"]


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


def error_text(template: str, values: Mapping[str, str | list[str]] | None = None) -> str:
    """A connector's error in the user's language: its English template translated
    (the "Connectors" context), then its placeholders filled; a list of fields'
    labels is translated too. A translation whose placeholders do not fit the values
    gives the English sentence rather than a broken one."""
    text = shown(template)
    if not values:
        return text
    english = {k: v if isinstance(v, str) else ", ".join(v) for k, v in values.items()}
    local = {k: v if isinstance(v, str) else ", ".join(shown(x) for x in v)
             for k, v in values.items()}
    try:
        return text.format_map(local)
    except (KeyError, IndexError, ValueError):
        try:
            return template.format_map(english)
        except (KeyError, IndexError, ValueError):
            return template


def failure_text(error: ConnectorError) -> str:
    """What a connector's failure says, in the user's language."""
    return error_text(error.template, error.values)


def state_error(state: ConnectorState) -> str:
    """A connector's stored last error, in the user's language (one stored before
    errors kept their template stays as it was written)."""
    if state.error_template:
        return error_text(state.error_template, state.error_values)
    return shown(state.error)
