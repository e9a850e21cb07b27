"""A persona's optional ``team:`` section: the persona leads a team, or works in one.

::

    team:
      role: lead                 # lead | worker
      claim: false               # workers may take open, unassigned items themselves
      max_parallel: 3            # workers running at once (1-16)
      workers:                   # the lead's default staffing (a lead only)
        - {name: researcher, persona: researcher, mode: plan}
        - {name: writer, persona: writer}

The default workers are a *proposal*: the lead's plan shows them to the user, who
accepts or edits the staffing once, with the plan (issue 29). A worker's ``mode`` is a
suggestion like a persona's own ``mode``: it never widens what the user's settings
allow. Like the rest of the front matter, nothing here touches permissions: a key about
them (grants, folders, rules, risk) is refused, and an installed persona with a team
section waits for the user's consent as any other (``capabilities`` says what the
section declares, for the consent dialog).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from openworker_qt.core.permission_settings import MODE_NAMES

__all__ = ["TeamSection", "TeamSectionError", "TeamWorker", "parse_team", "team_capabilities"]

ROLES = ("lead", "worker")
_SECTION_KEYS = frozenset({"role", "claim", "max_parallel", "workers"})
_WORKER_KEYS = frozenset({"name", "persona", "mode"})
_WORKER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
_PERSONA_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
#: Words that would touch permissions (the same idea as the persona's own check).
_PERMISSION_WORDS = ("risk", "root", "folder", "permission", "allow", "rule", "approv",
                     "sandbox", "trust", "grant", "secret", "key", "admin", "budget")
MAX_WORKERS = 12


class TeamSectionError(ValueError):
    """A ``team:`` section that cannot be used; the message says what to fix."""


@dataclass(frozen=True, slots=True)
class TeamWorker:
    """One default worker: its name on the board, its persona, its suggested mode
    (empty: the user's)."""

    name: str
    persona: str
    mode: str = ""


@dataclass(frozen=True, slots=True)
class TeamSection:
    role: str
    workers: tuple[TeamWorker, ...] = ()
    claim: bool = False
    max_parallel: int | None = None


def _keys(found: dict[str, Any], allowed: frozenset[str], where: str) -> None:
    for key in found:
        if key in allowed:
            continue
        if any(word in str(key).lower() for word in _PERMISSION_WORDS):
            raise TeamSectionError(
                f"{where}: a team cannot change permissions or budgets ('{key}'). Those are "
                "yours to set, when you accept the team's plan or in Settings.")
        raise TeamSectionError(f"{where}: unknown setting '{key}' (allowed: "
                               f"{', '.join(sorted(allowed))})")


def _worker(raw: Any, where: str) -> TeamWorker:
    if not isinstance(raw, dict):
        raise TeamSectionError(f"{where}: each worker is a set of name, persona and mode")
    _keys(raw, _WORKER_KEYS, where)
    name, persona, mode = raw.get("name"), raw.get("persona"), raw.get("mode") or ""
    if not isinstance(name, str) or not _WORKER_NAME.match(name):
        raise TeamSectionError(f"{where}: a worker's 'name' is a short id of letters, digits, "
                               "'-' and '_' (e.g. 'writer-2')")
    if not isinstance(persona, str) or not _PERSONA_NAME.match(persona):
        raise TeamSectionError(f"{where}: worker {name} needs a 'persona' (a persona's name)")
    if mode not in ("", *MODE_NAMES):
        raise TeamSectionError(f"{where}: worker {name}'s 'mode' must be one of "
                               f"{', '.join(MODE_NAMES)}")
    return TeamWorker(name, persona, str(mode))


def parse_team(value: Any, *, source: str = "the persona") -> TeamSection | None:
    """The ``team:`` section ``value`` (None when absent), or :class:`TeamSectionError`."""
    if value is None:
        return None
    where = f"{source}: team"
    if not isinstance(value, dict):
        raise TeamSectionError(f"{where} must be a set of 'key: value' lines (role, workers)")
    _keys(value, _SECTION_KEYS, where)
    role = value.get("role", "lead")
    if role not in ROLES:
        raise TeamSectionError(f"{where}: 'role' must be lead or worker")
    raw_workers = value.get("workers") or []
    if not isinstance(raw_workers, list):
        raise TeamSectionError(f"{where}: 'workers' must be a list")
    if role == "worker" and raw_workers:
        raise TeamSectionError(f"{where}: only a lead has default workers")
    if len(raw_workers) > MAX_WORKERS:
        raise TeamSectionError(f"{where}: at most {MAX_WORKERS} default workers")
    workers = tuple(_worker(w, f"{where}, worker {n + 1}") for n, w in enumerate(raw_workers))
    names = [w.name for w in workers]
    if len(set(names)) != len(names):
        raise TeamSectionError(f"{where}: two workers share a name")
    claim = value.get("claim", False)
    if not isinstance(claim, bool):
        raise TeamSectionError(f"{where}: 'claim' is true or false")
    parallel = value.get("max_parallel")
    if parallel is not None and (isinstance(parallel, bool) or not isinstance(parallel, int)
                                 or not 1 <= parallel <= 16):
        raise TeamSectionError(f"{where}: 'max_parallel' is a whole number from 1 to 16")
    return TeamSection(str(role), workers, claim, parallel)


def team_capabilities(section: TeamSection) -> list[str]:
    """What the section declares, in plain words (the consent dialog and the CLI)."""
    if section.role == "worker":
        return ["Works as a member of a team: reports on the board items it is given"]
    lines = ["Leads a team of coworkers: proposes a plan of work items and the workers to do "
             "them, for your approval, then reviews their work"]
    if section.workers:
        staffed = ", ".join(f"{w.name} ({w.persona}" + (f", {w.mode} mode" if w.mode else "")
                            + ")" for w in section.workers)
        lines.append(f"Proposes these workers by default: {staffed} (you accept or change "
                     "them with the plan)")
    if section.claim:
        lines.append("Lets its workers take open items themselves")
    return lines
