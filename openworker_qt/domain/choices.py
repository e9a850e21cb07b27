"""A question with choices (``ask_user``'s ``options``): what may be chosen, and
what an answer means.

The model offers options as plain strings or as ``{"label", "description",
"preview"}`` (a preview: a short snippet, a diff, shown under the option);
``multiple`` lets the user pick several, ``other`` (on unless ``false``) lets them
answer in their own words instead. An answer arrives from a card (the labels it
picked), the CLI (``--choice 2``), Slack or the inbox (a number, ``1,3``, a label,
or free text); :func:`normalize` checks it against the question and turns it into
the stored form — the chosen labels one a line, then any text of the user's own —
and :func:`interpret` reads that form back. Pure functions: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_NUMBERS = re.compile(r"^\d+(?:\s*[,\s]\s*\d+)*$")
MAX_CHOICES = 20
MAX_LABEL = 200
MAX_DESCRIPTION = 500
MAX_PREVIEW = 2000


@dataclass(frozen=True, slots=True)
class Choice:
    label: str
    description: str = ""
    preview: str = ""


@dataclass(frozen=True, slots=True)
class ChoiceSpec:
    choices: tuple[Choice, ...]
    multiple: bool = False
    other: bool = True

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(c.label for c in self.choices)

    def find(self, text: str) -> str | None:
        """The label ``text`` names (case and spacing aside), or None."""
        wanted = " ".join(text.split()).casefold()
        return next((c.label for c in self.choices if c.label.casefold() == wanted), None)


def _choice(raw: Any) -> Choice | None:
    preview = ""
    if isinstance(raw, Mapping):
        label = str(raw.get("label") or raw.get("value") or "").strip()
        description = str(raw.get("description") or "").strip()
        preview = str(raw.get("preview") or "").rstrip()[:MAX_PREVIEW]
    else:
        label, description = str(raw if raw is not None else "").strip(), ""
    label = " ".join(label.split())[:MAX_LABEL]
    return Choice(label, description[:MAX_DESCRIPTION], preview) if label else None


def spec_from(arguments: Mapping[str, Any]) -> ChoiceSpec | None:
    """The choices an ``ask_user`` call offers, or None for a free-text question."""
    raw = arguments.get("options")
    if not isinstance(raw, list | tuple):
        return None
    seen: dict[str, Choice] = {}
    for item in raw[:MAX_CHOICES]:
        choice = _choice(item)
        if choice is not None and choice.label.casefold() not in seen:
            seen[choice.label.casefold()] = choice
    if not seen:
        return None
    other = arguments.get("other")
    return ChoiceSpec(tuple(seen.values()), multiple=bool(arguments.get("multiple")),
                      other=other is not False and str(other).lower() != "false")


def labels_of(arguments: Mapping[str, Any]) -> tuple[str, ...]:
    spec = spec_from(arguments)
    return spec.labels if spec is not None else ()


def _by_number(spec: ChoiceSpec, text: str) -> list[str]:
    picked: list[str] = []
    for part in re.split(r"[,\s]+", text):
        n = int(part)
        if not 1 <= n <= len(spec.choices):
            raise ValueError(f"there is no choice {n}: choose 1 to {len(spec.choices)}")
        label = spec.choices[n - 1].label
        if label not in picked:
            picked.append(label)
    return picked


def normalize(spec: ChoiceSpec, answer: str) -> str:
    """The stored form of ``answer`` (see the module docstring), or ValueError saying
    what would fit."""
    text = answer.strip()
    if not text:
        raise ValueError("an answer needs a choice or some text")
    picked: list[str] = []
    own: list[str] = []
    for line in (x.strip() for x in text.splitlines()):
        label = spec.find(line) if line else None
        found = [label] if label is not None else (
            _by_number(spec, line) if _NUMBERS.match(line) else [])
        if line and not found:
            own.append(line)
        picked.extend(x for x in found if x not in picked)
    other = "\n".join(own)
    if other and not spec.other:
        raise ValueError(f"choose one of the options by number (1 to {len(spec.choices)})")
    if not spec.multiple and len(picked) + bool(other) > 1:
        raise ValueError("choose only one option")
    return "\n".join([*picked, *([other] if other else [])])


def interpret(spec: ChoiceSpec, stored: str) -> tuple[list[str], str]:
    """The labels chosen and the user's own words in a stored answer."""
    picked: list[str] = []
    own: list[str] = []
    for line in (x.strip() for x in stored.splitlines()):
        label = spec.find(line) if line else None
        if label is not None:
            picked.append(label)
        elif line:
            own.append(line)
    return picked, "\n".join(own)


def numbered(spec: ChoiceSpec) -> list[str]:
    """The options as lines ``1. label — description`` (for text surfaces)."""
    return [f"{n}. {c.label}" + (f" — {c.description}" if c.description else "")
            for n, c in enumerate(spec.choices, 1)]


def how_to_answer(spec: ChoiceSpec) -> str:
    """A one-line hint for text surfaces."""
    many = "one or more numbers (1,3)" if spec.multiple else "a number"
    return f"Answer with {many}" + (", or in your own words." if spec.other else ".")
