"""Shared fixtures: a team store on a real database file, and a running team (its plan
accepted: three items, two workers)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from openworker_qt.storage.db import Database
from openworker_qt.teams.model import Item, Plan, PlanItem, Team, WorkerSpec
from openworker_qt.teams.store import TeamStore


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(tmp_path / "state.db")
    yield database
    database.close()


@pytest.fixture
def store(db: Database) -> TeamStore:
    return TeamStore(db)


def a_plan(outcome: str = "The board pack for Thursday") -> Plan:
    return Plan(
        outcome,
        (PlanItem("figures", "Gather the quarter's figures", "every KPI with its source",
                  "analyst"),
         PlanItem("draft", "Write the narrative", "two pages, plain words", "writer"),
         PlanItem("check", "Check the pack", "every figure traced", "")),
        (WorkerSpec("analyst", "analyst", "plan"), WorkerSpec("writer", "writer")),
        budget_usd=5.0,
    )


@dataclass
class Running:
    store: TeamStore
    team: Team
    items: list[Item]

    @property
    def id(self) -> str:
        return self.team.id


def start(store: TeamStore, *, allow_claim: bool = False, lead: str = "lead-s") -> Running:
    team = store.create_team("The board pack for Thursday", lead, allow_claim=allow_claim)
    store.record(team.id, "plan_proposed", plan=a_plan())
    store.record(team.id, "plan_accepted", plan=a_plan().to_json())
    fresh = store.team(team.id)
    assert fresh is not None
    return Running(store, fresh, store.items(team.id))


@pytest.fixture
def running(store: TeamStore) -> Running:
    return start(store)


REPO_ROOT = Path(__file__).resolve().parents[2]
