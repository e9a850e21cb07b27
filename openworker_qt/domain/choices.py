"""A question with choices (``ask_user``'s ``options``): what may be chosen, and
what an answer means.

The model offers options as plain strings or as ``{"label", "description",
"preview"}`` (a preview: a short snippet, a diff, shown under the option);
``multiple`` lets the user pick several, ``other`` (on unless ``false``) lets them
answer in their own words instead. An answer arrives from a card (the labels it
picked), the CLI (``--choice 2``), Slack or the inbox (a number, ``1,3``, a label,
or free text); :func:`normalize` checks it against the question and turns it into
the stored form — the chosen labels one a line, then any text of the user's own —
and :func:`interpret` reads that form back.

Grouped questions (``questions``: a list, each with its own ``question``,
``options``, ``multiple`` and ``other``) are answered in one go: their stored form
is a JSON array holding each question's own stored form, in order
(:func:`normalize_group`); an answer in text names each question by its number
(``1: 2`` then ``2: 1,3`` then ``3: my own words``, a line each). :func:`check`
says why the model's arguments cannot be asked at all (the call's error: nothing
half-drawn reaches the user). Pure functions: no I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_NUMBERS = re.compile(r"^\d+(?:\s*[,\s]\s*\d+)*$")
MAX_CHOICES = 20
MAX_LABEL = 200
MAX_DESCRIPTION = 500
MAX_PREVIEW = 2000
MAX_QUESTIONS = 8
_NUMBERED = re.compile(r"^\s*(\d+)\s*(?::|\)|\.(?=\s|$))\s*(.*)$")


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


# ------------------------------------------------------------- grouped questions


@dataclass(frozen=True, slots=True)
class Question:
    """One question of a group: its words and, unless it is answered in words only,
    its choices."""

    text: str
    spec: ChoiceSpec | None = None


@dataclass(frozen=True, slots=True)
class QuestionGroup:
    questions: tuple[Question, ...]


def group_from(arguments: Mapping[str, Any]) -> QuestionGroup | None:
    """The questions an ``ask_user`` call asks together, or None for one question."""
    raw = arguments.get("questions")
    if not isinstance(raw, list | tuple):
        return None
    found: list[Question] = []
    for item in raw[:MAX_QUESTIONS]:
        if isinstance(item, Mapping):
            text = " ".join(str(item.get("question") or "").split())
            if text:
                found.append(Question(text, spec_from(item)))
        elif isinstance(item, str) and item.strip():
            found.append(Question(" ".join(item.split())))
    return QuestionGroup(tuple(found)) if found else None


def prompt_of(arguments: Mapping[str, Any]) -> str:
    """What an ``ask_user`` call asks, in a line: its ``question``, or (a group asked
    without one) its questions one after another."""
    text = str(arguments.get("question") or "").strip()
    group = group_from(arguments)
    if text or group is None:
        return text
    return " · ".join(q.text for q in group.questions)


def _options_problem(raw: Any, where: str) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, list | tuple):
        return f"{where}options must be a list of options"
    if len(raw) > MAX_CHOICES:
        return f"{where}at most {MAX_CHOICES} options can be offered (got {len(raw)})"
    labels: set[str] = set()
    for n, item in enumerate(raw, 1):
        if not isinstance(item, str | Mapping):
            return f"{where}option {n} must be a label or an object with a label"
        choice = _choice(item)
        if choice is None:
            return f"{where}option {n} has no label"
        if choice.label.casefold() in labels:
            return f"{where}two options are labelled {choice.label!r}: labels must differ"
        labels.add(choice.label.casefold())
    return None


def check(arguments: Mapping[str, Any]) -> str | None:
    """Why an ``ask_user`` call cannot be asked as it is (the error the model reads,
    ``Tool.check``), or None."""
    questions = arguments.get("questions")
    if questions is None:
        if not str(arguments.get("question") or "").strip():
            return "ask_user needs a question (or questions: a list of them)"
        return _options_problem(arguments.get("options"), "")
    if not isinstance(questions, list | tuple) or not questions:
        return "questions must be a non-empty list of {question, options, multiple, other}"
    if len(questions) > MAX_QUESTIONS:
        return f"at most {MAX_QUESTIONS} questions can be asked together (got {len(questions)})"
    if arguments.get("options") is not None:
        return "with questions, give each question its own options (none beside them)"
    for n, item in enumerate(questions, 1):
        if isinstance(item, str):
            item = {"question": item}
        if not isinstance(item, Mapping) or not str(item.get("question") or "").strip():
            return f"question {n} needs its words in question"
        problem = _options_problem(item.get("options"), f"question {n}: ")
        if problem is not None:
            return problem
    return None


def split_group_text(group: QuestionGroup, text: str) -> list[str]:
    """``1: …`` lines to one answer a question (a line without a number goes on
    with the question before it)."""
    parts = [""] * len(group.questions)
    current: int | None = None
    for line in text.splitlines():
        found = _NUMBERED.match(line)
        if found is not None:
            n = int(found.group(1))
            if not 1 <= n <= len(group.questions):
                raise ValueError(f"there is no question {n}: they are numbered 1 to "
                                 f"{len(group.questions)}")
            current, line = n - 1, found.group(2)
        elif current is None:
            if line.strip():
                raise ValueError("answer each question on a line of its own, by its number "
                                 "(1: 2, then 2: your words)")
            continue
        parts[current] = "\n".join(x for x in (parts[current], line.strip()) if x)
    return parts


def _group_parts(group: QuestionGroup, answer: str) -> list[str]:
    text = answer.strip()
    if text.startswith("["):
        try:
            raw = json.loads(text)
        except ValueError:
            raw = None
        if isinstance(raw, list):
            if len(raw) != len(group.questions):
                raise ValueError(f"there are {len(group.questions)} questions to answer, "
                                 f"not {len(raw)}")
            return ["\n".join(str(x) for x in v) if isinstance(v, list) else str(v or "")
                    for v in raw]
    return split_group_text(group, text)


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def normalize_group(group: QuestionGroup, answer: str) -> str:
    """The stored form (a JSON array, one stored answer a question) of ``answer``:
    a JSON array from a card, or ``N: …`` lines; ValueError names the question that
    is unanswered or does not fit."""
    stored: list[str] = []
    for n, (question, part) in enumerate(zip(group.questions, _group_parts(group, answer),
                                             strict=True), 1):
        if not part.strip():
            raise ValueError(f"question {n} ({_short(question.text)}) has no answer")
        try:
            stored.append(normalize(question.spec, part) if question.spec else part.strip())
        except ValueError as exc:
            raise ValueError(f"question {n} ({_short(question.text)}): {exc}") from None
    return json.dumps(stored, ensure_ascii=False)


def interpret_group(group: QuestionGroup, stored: str) -> list[tuple[list[str], str]]:
    """The labels chosen and the own words, question by question, in a stored answer."""
    try:
        raw = json.loads(stored)
    except ValueError:
        raw = None
    parts = [str(x) for x in raw] if isinstance(raw, list) else [stored]
    parts += [""] * (len(group.questions) - len(parts))
    return [interpret(q.spec, part) if q.spec else ([], part.strip())
            for q, part in zip(group.questions, parts, strict=False)]


def group_result(group: QuestionGroup, stored: str) -> str:
    """What the model reads: each question with what the user chose or wrote."""
    lines = [f"The user answered {len(group.questions)} questions:"]
    for n, (question, (picked, own)) in enumerate(
            zip(group.questions, interpret_group(group, stored), strict=True), 1):
        said = []
        if picked:
            said.append("chose " + "; ".join(picked))
        if own:
            said.append(("and added in their own words: " if picked else
                         "answered in their own words: " if question.spec else
                         "answered: ") + own)
        lines.append(f"{n}. {question.text} — " + (" ".join(said) or "no answer"))
    return "\n".join(lines)


def numbered_group(group: QuestionGroup) -> list[str]:
    """The questions and their options as lines (for text surfaces)."""
    lines: list[str] = []
    for n, question in enumerate(group.questions, 1):
        kind = ("" if question.spec is None else
                " (one or more)" if question.spec.multiple else " (pick one)")
        lines.append(f"{n}. {question.text}{kind}")
        if question.spec is not None:
            lines.extend(f"   {line}" for line in numbered(question.spec))
    return lines


def how_to_answer_group(group: QuestionGroup) -> str:
    last = len(group.questions)
    return (f"Answer each question on a line of its own, by its number: "
            f"1: 2 (an option's number), then {last}: your own words.")
