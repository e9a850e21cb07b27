"""The window's team side on a real store: the board beside a team's sessions, live
from the store's listeners, the user's moves, the sidebar's Teams section, and the
composer starting and talking to a team."""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import Qt

from openworker_qt.qt.team_board_model import ITEM_ROLE, BoardFeed, TeamBoardModel
from openworker_qt.storage.db import Database
from openworker_qt.teams.model import Actor, ItemState, Team
from openworker_qt.teams.store import TeamStore
from tests.ui.conftest import run, until
from tests.ui.team_board_fill import fill

WORKERS = ("researcher", "analyst", "writer")


def test_events_from_another_thread_update_only_the_items_they_name(qtbot, tmp_path) -> None:
    db = Database(tmp_path / "state.sqlite3")
    try:
        store = TeamStore(db)
        filled = fill(store, "lead", {w: f"s-{w}" for w in WORKERS})
        model = TeamBoardModel()
        feed = BoardFeed(model, store)
        store.listeners.append(feed.listener)
        feed.open(filled.team.id)
        assert feed.reads == 1
        resets: list[int] = []
        model.modelReset.connect(lambda: resets.append(1))
        brief = next(i for i in filled.items if i.state is ItemState.IN_PROGRESS)
        flushes: list[int] = []
        feed.flushed.append(lambda: flushes.append(feed.reads))

        def worker() -> None:  # the runner's thread: a burst of facts about one item
            for n in range(20):
                store.record(filled.team.id, "spend", brief.id, usd=0.01, tokens=100 + n)
            store.act(Actor("worker", "writer"), "comment", filled.team.id, brief.id,
                      text="Draft half done")

        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        qtbot.waitUntil(lambda: bool(flushes))
        qtbot.waitUntil(lambda: model.team is not None and model.team.spent_usd > 2.07)
        row = model.row_of(brief.id)
        assert row is not None
        shown = model.index(row, 0).data(ITEM_ROLE)
        assert shown.last_comment == "Draft half done" and round(shown.cost_usd, 2) == 0.55
        assert resets == []  # never rebuilt for an event
        # 21 events: far fewer reads (one per item named and one of the team per flush)
        assert feed.reads - 1 <= 2 * len(flushes)
        assert feed.last_flush_ms >= 0.0
    finally:
        db.close()


def _team_world(desktop: Any) -> tuple[TeamStore, Any, dict[str, str]]:
    store = TeamStore(desktop.runtime.db)
    lead = desktop.manager.create_session(title="Competitor pricing", workspace=str(desktop.workspace))
    sessions = {w: desktop.manager.create_session(title=f"{w}: pricing",
                                                  workspace=str(desktop.workspace)).id
                for w in WORKERS}
    filled = fill(store, lead.id, sessions)
    desktop.window.teams.attach(store)
    desktop.window.refresh_sessions()
    return store, filled, sessions


def test_the_board_beside_a_teams_sessions(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop()
    window = desktop.window
    part = window.teams
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        store, filled, sessions = _team_world(desktop)
        assert not part.dock.isVisible()
        window.open_session(filled.team.lead_session_id)
        await until(lambda: part.dock.isVisible(), what="the board")
        board = part.board
        seen["lead_title"] = part.dock.windowTitle()
        seen["status"] = board.status.text()
        seen["spend"] = board.spend.text()
        # the sidebar's Teams section: the team, collapsed, its three workers below
        tree = part.tree
        seen["tree_rows"] = tree.tree.rowCount()
        seen["expanded"] = tree.isExpanded(tree.tree.index(0, 0))
        seen["children"] = sorted(tree.tree.item(0).child(r).text()
                                  for r in range(tree.tree.item(0).rowCount()))
        # a card clicked: the worker's session
        table = next(i for i in filled.items if i.state is ItemState.REVIEW)
        rect = board.list.visualRect(board.model.index(board.model.row_of(table.id), 0))
        qtbot.mouseClick(board.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        await until(lambda: window.session_id == sessions["analyst"], what="the worker's session")
        seen["worker_title"] = part.dock.windowTitle()
        seen["marked"] = board.list.currentIndex().data(ITEM_ROLE).id == table.id
        # the user accepts the item under review from its menu: through the real store
        menu = board.item_menu(board.model.index(board.model.row_of(table.id), 0).data(ITEM_ROLE))
        next(a for a in menu.actions() if a.text() == "Accept").trigger()
        await until(lambda: board.model.row_of(table.id) is not None and board.model.index(
            board.model.row_of(table.id), 0).data(ITEM_ROLE).state is ItemState.DONE)
        seen["stored"] = store.item(table.id).state
        seen["status_after"] = board.status.text()
        # a refused move says why and changes nothing
        done = board.model.index(board.model.row_of(table.id), 0).data(ITEM_ROLE)
        seen["refused"] = board.do("transition", done, to="review")
        seen["problem"] = board.problem.text()
        window.new_session()
        seen["dock_after_new"] = part.dock.isVisible()

    run(qloop, scenario)
    assert seen["lead_title"] == "Team"
    assert seen["status"] == "Working · 1 of 4 done"
    assert seen["spend"] == "Spent $1.88 of $6.00 · 510k of 3.0M tokens"
    assert seen["tree_rows"] == 1 and seen["expanded"] is False
    assert seen["children"] == ["analyst · Build the comparison table",
                                "researcher · Collect the five pricing pages",
                                "writer · Write the one-page brief"]
    assert seen["worker_title"] == "Team · analyst"
    assert seen["marked"]  # the worker's own card is the one selected
    assert seen["stored"] is ItemState.DONE
    assert seen["status_after"] == "Working · 2 of 4 done"
    assert seen["refused"] is False and "cannot move to review" in seen["problem"]
    assert seen["dock_after_new"] is False


def filled_lead(desktop: Any) -> str:
    return TeamStore(desktop.runtime.db).teams()[0].lead_session_id


class LocalRunner:
    """Starts a team the way the runtime's runner does as far as the window sees it (a
    lead session and a team on the store) and keeps what is sent to it."""

    def __init__(self, desktop: Any, store: TeamStore) -> None:
        self.desktop = desktop
        self.store = store
        self.sent: list[tuple[str, str]] = []
        self.started: list[dict[str, str]] = []

    def start(self, outcome: str, *, persona: str = "team", workspace: str, model: str) -> Team:
        self.started.append({"outcome": outcome, "persona": persona, "workspace": workspace})
        lead = self.desktop.manager.create_session(title=outcome, persona=persona,
                                                   workspace=workspace, model=model)
        return self.store.create_team(outcome, lead.id)

    def send(self, team_id: str, text: str) -> None:
        self.sent.append((team_id, text))

    def stop(self, team_id: str) -> None:
        from openworker_qt.teams.model import USER

        self.store.record(team_id, "team_state", actor=USER, to="stopped", reason="stopped by the user")


def test_a_team_persona_starts_a_team_and_messages_go_to_it(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "plain answer"}])
    window = desktop.window
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        store, filled, sessions = _team_world(desktop)
        runner = LocalRunner(desktop, store)
        window.teams.attach(store, runner)
        window.new_session()
        window.composer.show_persona("software-team")
        window.submit_message("Ship the settings page redesign")
        team = store.teams()[0]
        await until(lambda: window.session_id == team.lead_session_id, what="the new team's lead")
        seen["started"] = runner.started
        seen["team"] = team.outcome
        window.submit_message("Keep it under $3")
        window.open_session(sessions["writer"])
        await until(lambda: window.teams.role == "worker:writer")
        window.submit_message("Use the short intro")
        window.submit_message("@analyst check the totals")
        seen["sent"] = [(t == filled.team.id or t == team.id, text) for t, text in runner.sent]
        seen["running"] = desktop.manager.is_running(window.session_id or "")

    run(qloop, scenario)
    assert seen["team"] == "Ship the settings page redesign"
    assert seen["started"][0]["persona"] == "software-team"
    assert seen["started"][0]["outcome"] == "Ship the settings page redesign"
    assert seen["sent"] == [(True, "Keep it under $3"), (True, "@writer Use the short intro"),
                            (True, "@analyst check the totals")]
    assert seen["running"] is False  # the team took the messages: no plain turn ran


def test_a_message_to_someone_not_on_the_team_says_so(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "a plain turn, never asked for"}])
    window = desktop.window
    notes: list[str] = []

    class Strict(LocalRunner):
        def send(self, team_id: str, text: str) -> None:
            from openworker_qt.teams.model import BoardError

            if text.startswith("@nobody"):
                raise BoardError(f"team {team_id} has no worker 'nobody'")
            super().send(team_id, text)

    async def scenario() -> None:
        store, filled, _sessions = _team_world(desktop)
        window.teams.attach(store, Strict(desktop, store))
        window.teams._say = notes.append
        window.open_session(filled.team.lead_session_id)
        await until(lambda: window.teams.role == "lead")
        window.submit_message("@nobody are you there?")

    run(qloop, scenario)
    assert not desktop.manager.is_running(filled_lead(desktop))
    assert len(notes) == 1 and notes[0].startswith("The team did not take the message: ")
    assert "no worker 'nobody'" in notes[0]


def test_the_board_offers_the_plan_waiting_and_answers_it_once(qtbot, qloop, make_desktop) -> None:
    from tests.ui.team_board_fill import pricing_plan

    desktop = make_desktop()
    window = desktop.window
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        store = TeamStore(desktop.runtime.db)
        lead = desktop.manager.create_session(title="Pricing", workspace=str(desktop.workspace))
        team = store.create_team(pricing_plan().outcome, lead.id)
        store.record(team.id, "plan_proposed", plan=pricing_plan())
        window.teams.attach(store)
        window.open_session(lead.id)
        await until(lambda: window.teams.dock.isVisible())
        seen["before"] = window.teams.board.plan_box.isVisible()
        item = desktop.runtime.inbox.add("plan", lead.id, tool="team_plan", title="Team plan",
                                         arguments={"team_id": team.id,
                                                    "plan": pricing_plan().to_json()})
        await until(lambda: window.teams.board.plan_box.isVisible(), what="the plan offered")
        seen["status"] = window.teams.board.status.text()
        qtbot.mouseClick(window.teams.board.plan_button, Qt.MouseButton.LeftButton)
        dialog = window.teams.plan_dialog
        assert dialog is not None and dialog.isVisible()
        dialog.card.rows[3].remove.click()
        dialog.card.accept_button.click()
        await until(lambda: not window.teams.board.plan_box.isVisible(), what="the plan answered")
        seen["resolution"] = desktop.runtime.inbox.get(item.id).resolution
        seen["dialog"] = window.teams.plan_dialog
        # a second proposal answered elsewhere (the CLI, the inbox) closes its dialog
        second = desktop.runtime.inbox.add("plan", lead.id, tool="team_plan", title="Again",
                                           call_key="again", arguments={
                                               "team_id": team.id, "plan": pricing_plan().to_json()})
        await until(lambda: window.teams.board.plan_box.isVisible())
        assert window.teams.review_plan() is not None
        desktop.inbox.resolve(second.id, "deny: later", by="cli")
        await until(lambda: window.teams.plan_dialog is None, what="the dialog closed")

    run(qloop, scenario)
    assert seen["before"] is False
    assert seen["status"].startswith("Waiting for you to approve the plan")
    assert seen["resolution"].startswith("approve: ") and '"check"' not in seen["resolution"]
    assert seen["dialog"] is None


def test_the_leads_plan_call_in_its_transcript_carries_the_plan_card(qtbot, qloop, make_desktop) -> None:
    """The lead proposes with its ``team_plan`` call: opening the lead's session puts the
    plan card on that call's row, and Accept there answers the item."""
    import json as _json

    from openworker_qt.ui.plan_card import PlanCard
    from tests.ui.team_board_fill import pricing_plan

    desktop = make_desktop()
    window = desktop.window
    window.cards.show_dialogs = False
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        lead = desktop.manager.create_session(title="Pricing", workspace=str(desktop.workspace))
        plan = pricing_plan().to_json()
        desktop.runtime.conversations.append(lead.id, {"role": "user", "content": "Compare pricing"})
        desktop.runtime.conversations.append(lead.id, {
            "role": "assistant", "content": "Here is my plan.",
            "tool_calls": [{"id": "plan-1", "type": "function", "function": {
                "name": "team_plan", "arguments": _json.dumps({"plan": plan})}}]})
        item = desktop.runtime.inbox.add("plan", lead.id, tool_call_id="plan-1", tool="team_plan",
                                         title="Team plan", arguments={"team_id": "t", "plan": plan})
        await until(lambda: desktop.inbox.pending(lead.id), what="the item noticed")
        window.refresh_sessions()
        window.open_session(lead.id)
        await until(lambda: isinstance(window.view.card_for("plan-1"), PlanCard), what="the card")
        card = window.view.card_for("plan-1")
        card.accept_button.click()
        await until(lambda: window.view.card_for("plan-1") is None, what="the card answered")
        seen["resolution"] = desktop.runtime.inbox.get(item.id).resolution

    run(qloop, scenario)
    assert seen["resolution"] == "approve"


def test_team_leads_start_teams_and_workers_personas_staff_them(qtbot, qloop, make_desktop) -> None:
    from openworker_qt.ui import plan_items  # (the personas it offers)

    desktop = make_desktop()
    before = plan_items.persona_choices()
    try:
        run(qloop, desktop.load_personas)
        is_team = desktop.window.teams.is_team_persona
        assert is_team("team") and is_team("software-team") and is_team("devops-team")
        assert not is_team("researcher") and not is_team("cowork")
        names = [name for name, _title in plan_items.persona_choices()]
        assert "researcher" in names and "writer" in names and "cowork" in names
        assert not {"team", "software-team", "devops-team"} & set(names)
    finally:
        plan_items._personas[:] = before


def test_the_user_raises_the_budget_and_stops_the_team_from_the_board(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop()
    window = desktop.window
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        store, filled, _sessions = _team_world(desktop)
        window.teams.attach(store, LocalRunner(desktop, store))
        window.open_session(filled.team.lead_session_id)
        await until(lambda: window.teams.dock.isVisible())
        board = window.teams.board
        dialog = board.ask_budget()
        assert dialog is not None and dialog.doubleValue() == 6.0
        dialog.setDoubleValue(10.0)
        dialog.accept()
        await until(lambda: "of $10.00" in board.spend.text(), what="the new budget shown")
        seen["budget"] = store.team(filled.team.id).budget_usd
        board.stop_action.trigger()
        await until(lambda: board.status.text().startswith("Stopped"), what="the team stopped")
        seen["state"] = store.team(filled.team.id).state.value
        seen["stop_enabled"] = board.stop_action.isEnabled()

    run(qloop, scenario)
    assert seen["budget"] == 10.0
    assert seen["state"] == "stopped" and seen["stop_enabled"] is False
