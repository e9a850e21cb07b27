"""A connector in plain words, from its descriptor: what it reads freely and what
it does only after asking (the catalogue in the app and the README's list)."""

from __future__ import annotations

import re

from openworker_qt.connectors.base import ConnectorSpec


def sentence(text: str) -> str:
    """The first sentence of a tool's description, without its full stop and its
    asides in brackets (syntax notes for the model)."""
    # Asides in brackets go first, so "(e.g. a release)" cannot end the sentence early;
    # nor do abbreviations ("e.g.", "i.e.") outside brackets.
    text = re.sub(r"\s*\([^)]*\)", "", text.strip())
    first = re.split(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?])\s", text, maxsplit=1)[0]
    return first.rstrip(".").strip()


def reads(spec: ConnectorSpec) -> list[str]:
    """What the connector reads without asking (its read tools)."""
    return [sentence(t.description) for t in spec.tools if not t.action]


def does(spec: ConnectorSpec) -> list[str]:
    """What it does only after asking (its action tools)."""
    return [sentence(t.description) for t in spec.tools if t.action]


def haystack(spec: ConnectorSpec) -> str:
    """The words a search matches: name, id, category, description, tools."""
    words = [spec.id, spec.name, spec.category, spec.description,
             *(t.description for t in spec.tools)]
    return " ".join(words).casefold()
