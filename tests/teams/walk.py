"""A random walk over the board: verbs and facts by every actor, most of them legal,
some refused. Shared by the fold's property test and the kill test's child process."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from openworker_qt.teams.model import LEAD, SYSTEM, USER, Actor, BoardError, ItemState
from openworker_qt.teams.store import TeamStore
from tests.teams.conftest import a_plan

ACTORS = (LEAD, USER, SYSTEM, Actor("worker", "analyst"), Actor("worker", "writer"))
STATES = [s.value for s in ItemState]


def new_team(store: TeamStore, rng: random.Random, n: int) -> str:
    team = store.create_team(f"outcome {n}", f"lead-{n}-{rng.random()}",
                             allow_claim=rng.random() < 0.5)
    store.record(team.id, "plan_accepted", plan=a_plan())
    return team.id


def step(store: TeamStore, rng: random.Random, team_id: str) -> bool:
    """One random operation; True when it was appended, False when refused."""
    items = [i.id for i in store.items(team_id)] or [""]
    item = rng.choice(items)
    actor = rng.choice(ACTORS)
    worker = rng.choice(["analyst", "writer", ""])
    ops: list[Callable[[], Any]] = [
        lambda: store.act(actor, "transition", team_id, item, to=rng.choice(STATES),
                          comment=rng.choice(["", "why"])),
        lambda: store.act(actor, "comment", team_id, item, text=f"c{rng.random()}"),
        lambda: store.act(actor, "result", team_id, item, text="r", files=["outputs/x.md"]),
        lambda: store.act(actor, "create", team_id, title=f"t{rng.random()}", criteria="c"),
        lambda: store.act(actor, "assign", team_id, item, worker=worker),
        lambda: store.act(actor, "claim", team_id, item),
        lambda: store.act(actor, "link", team_id, item, other=rng.choice(items)),
        lambda: store.act(actor, "budget", team_id, rng.choice([item, ""]),
                          budget_usd=rng.choice([None, 1.0, 2.5])),
        lambda: store.act(actor, "staff", team_id, worker=worker or "analyst",
                          mode=rng.choice(["plan", "interactive", "auto"])),
        lambda: store.record(team_id, "spend", rng.choice([item, ""]),
                             usd=rng.choice([0.1, 0.25, 1.0]), tokens=rng.randrange(0, 5000),
                             key=rng.choice([None, f"spend-{rng.randrange(10)}"])),
        lambda: store.record(team_id, "item_stuck", item, stuck=rng.random() < 0.5),
        lambda: store.record(team_id, "item_session", item,
                             session_id=f"{team_id}-s{rng.randrange(4)}"),
        lambda: store.record(team_id, "team_state",
                             to=rng.choice(["running", "running", "assembling", "stopped"])),
        lambda: store.record(team_id, "check_in", at=rng.random() * 1e9),
        lambda: store.record(team_id, "summary", text=f"s{rng.random()}"),
    ]
    try:
        rng.choice(ops)()
    except BoardError:
        return False
    return True
