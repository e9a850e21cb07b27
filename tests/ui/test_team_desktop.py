"""A team in the desktop app: after the first paint the window's board and sidebar run on
the runtime's team store and runner, a team's plan reaches the window's inbox, its
workers' sessions stream through the window's bridge, and a quit stops the runner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.storage.paths import app_paths
from openworker_qt.teams.model import ItemState, TeamState
from tests.teams.engine.conftest import CONFIG, plan
from tests.teams.engine.provider import register
from tests.ui.conftest import run, until


def test_the_window_drives_a_team_from_plan_to_summary(make_desktop, qloop, tmp_path: Path) -> None:
    app_paths().ensure().config_file.write_text(CONFIG, encoding="utf-8")
    desktop = make_desktop()
    rt = desktop.runtime
    register(rt.router, {"plan": plan(n_items=3, max_parallel=2), "send_back": [],
                         "delay": 0.01, "usage": {"input_tokens": 100, "output_tokens": 10}})
    streamed: set[str] = set()

    def seen(event: Any) -> None:
        if isinstance(event, ev.AssistantMessage | ev.TurnEnded):
            streamed.add(event.session_id)

    desktop.bridge.event_received.connect(seen)
    sent: list[str] = []

    class Notifier:
        on_activated = None

        def notify(self, key: str, title: str, body: str, actions: Any = ()) -> None:
            sent.append(key)

        def withdraw(self, key: str) -> None:
            pass

        async def close(self) -> None:
            pass

    desktop.notices.set_notifier(Notifier())
    desktop.start_teams()
    part = desktop.window.teams
    run(qloop, lambda: until(lambda: part.store is not None, what="the teams attached"))
    runner = rt.team_runner()
    assert part.store is rt.teams and part.runner is runner

    async def scenario() -> None:
        team = runner.start("The weekly report", persona="cowork", workspace=str(tmp_path),
                            model="teamtest:lead")
        # The one plan item reaches the window's inbox (its card, the inbox window).
        await until(lambda: [i for i in desktop.inbox.inbox.pending(kind="plan")
                             if i.tool == "team_plan"], what="the team's plan in the inbox")
        item = desktop.inbox.inbox.pending(kind="plan")[0]
        assert rt.inbox.respond(item.id, "approve")
        desktop.window.open_session(team.lead_session_id)
        await until(lambda: rt.teams.team(team.id).state is TeamState.DONE, timeout=60,
                    what="the team's end")
        # The board beside the lead's session shows every item done.
        await until(lambda: part.board.model.items(ItemState.DONE)
                    and len(part.board.model.items(ItemState.DONE)) == 3,
                    what="the board's items done")
        workers = {i.session_id for i in rt.teams.items(team.id)}
        # The workers' turns went through the window's bridge (they stream live).
        assert workers <= streamed, (workers, streamed)
        assert team.lead_session_id in streamed
        # A worker's turn ending is its lead's business, not a desktop notification each.
        assert not {f"session:{w}" for w in workers} & set(sent), sent

    run(qloop, scenario)


def test_start_teams_after_a_quit_began_starts_nothing(make_desktop) -> None:
    desktop = make_desktop()
    desktop._closing = True
    desktop.start_teams()
    assert "_team_runner" not in desktop.runtime.__dict__
    assert desktop.window.teams.store is None
