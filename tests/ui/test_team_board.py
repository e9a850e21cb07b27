"""The team board panel: cards by state, the team's spend, the user's moves."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from openworker_qt.qt.team_board_model import ITEM_ROLE
from openworker_qt.teams.model import BoardError, Item, ItemState, Team, TeamState, WorkerSpec
from openworker_qt.ui.team_board import TeamBoard

TEAM = Team("t1", "Prepare the board pack for Thursday", "lead", TeamState.RUNNING,
            workers=(WorkerSpec("researcher", "researcher"), WorkerSpec("writer", "writer")),
            budget_usd=4.0, budget_tokens=2_000_000, spent_usd=1.0, tokens=250_000)


def item(n: int, state: ItemState, **kw: Any) -> Item:
    return Item(f"i{n}", "t1", f"Item {n}", "criteria", state, created_at=float(n), **kw)


def board(qtbot) -> TeamBoard:
    widget = TeamBoard()
    qtbot.addWidget(widget)
    widget.resize(340, 600)
    widget.show()
    widget.model.reset(TEAM, [item(0, ItemState.OPEN), item(1, ItemState.REVIEW, assignee="writer",
                                                            session_id="s-writer", cost_usd=0.4),
                              item(2, ItemState.DONE, assignee="researcher")])
    return widget


def test_the_header_shows_the_outcome_progress_and_spend(qtbot) -> None:
    widget = board(qtbot)
    assert widget.outcome.text() == "Prepare the board pack for Thursday"
    assert widget.status.text() == "Working · 1 of 3 done"
    assert widget.spend.text() == "Spent $1.00 of $4.00 · 250k of 2.0M tokens"
    assert widget.budget_bar.isVisible() and widget.budget_bar.value() == 250
    hidden = [widget.list.isRowHidden(r) for r in range(widget.model.rowCount())]
    # Open (shown), i0, In progress (empty: hidden), Review, i1, Done, i2, Blocked, Canceled
    assert hidden == [False, False, True, False, False, False, False, True, True]
    widget.model.put(item(0, ItemState.IN_PROGRESS, assignee="researcher"))
    assert widget.list.isRowHidden(0) and not widget.list.isRowHidden(1)
    widget.model.set_team(Team("t1", TEAM.outcome, "lead", TeamState.OVER_BUDGET,
                               workers=TEAM.workers, spent_usd=4.0, tokens=10))
    assert widget.status.text() == "Paused: the budget is used up · 1 of 3 done"
    assert widget.spend.text() == "Spent $4.00 · 10 tokens"
    assert not widget.budget_bar.isVisible()


def test_a_click_opens_the_workers_session(qtbot) -> None:
    widget = board(qtbot)
    opened: list[str] = []
    widget.open_session.connect(opened.append)
    for item_id in ("i0", "i1"):
        row = widget.model.row_of(item_id)
        assert row is not None
        rect = widget.list.visualRect(widget.model.index(row, 0))
        qtbot.mouseClick(widget.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert opened == ["s-writer"]  # the open item has no session yet


def test_the_menu_offers_what_the_state_allows_and_acts_as_the_user(qtbot) -> None:
    widget = board(qtbot)
    moves: list[tuple[str, str, dict[str, Any]]] = []

    def act(verb: str, item_id: str, **args: Any) -> None:
        if verb == "assign" and args.get("worker") == "researcher" and item_id == "i0":
            raise BoardError("item i0 is busy")
        moves.append((verb, item_id, args))

    widget.act = act
    review = widget.model.index(widget.model.row_of("i1") or 0, 0).data(ITEM_ROLE)
    menu = widget.item_menu(review)
    texts = [a.text() for a in menu.actions() if a.text()]
    assert texts == ["Open the worker's session", "Accept", "Send back…", "Assign to", "Comment…",
                     "Cancel this item"]
    next(a for a in menu.actions() if a.text() == "Accept").trigger()
    assert moves[-1] == ("transition", "i1", {"to": "done", "comment": ""})
    done = widget.model.index(widget.model.row_of("i2") or 0, 0).data(ITEM_ROLE)
    texts = [a.text() for a in widget.item_menu(done).actions() if a.text()]
    assert texts == ["Reopen", "Comment…"]
    opened = widget.model.index(widget.model.row_of("i0") or 0, 0).data(ITEM_ROLE)
    menu = widget.item_menu(opened)
    assign = next(a for a in menu.actions() if a.text() == "Assign to").menu()
    writer = next(a for a in assign.actions() if a.text() == "writer")
    writer.trigger()
    assert moves[-1] == ("assign", "i0", {"worker": "writer"})
    next(a for a in assign.actions() if a.text() == "researcher").trigger()
    assert widget.problem.isVisible() and "item i0 is busy" in widget.problem.text()
    dialog = widget.ask_comment(review, ItemState.IN_PROGRESS)
    dialog.setTextValue("The figures need sources")
    dialog.accept()
    assert moves[-1] == ("transition", "i1", {"to": "in_progress",
                                              "comment": "The figures need sources"})
    assert not widget.problem.isVisible()
    dialog = widget.ask_comment(opened, None)
    dialog.setTextValue("  Start with Q3  ")
    dialog.accept()
    assert moves[-1] == ("comment", "i0", {"text": "Start with Q3"})


def test_a_team_with_no_items_yet_says_so_plainly(qtbot) -> None:
    widget = TeamBoard()
    qtbot.addWidget(widget)
    widget.model.reset(Team("t2", "Audit five repositories", "lead", TeamState.AWAITING_PLAN,
                            budget_usd=3.0), [])
    assert widget.status.text() == "Waiting for you to approve the plan"
    assert widget.spend.text() == "Nothing spent yet · budget $3.00"
    widget.model.set_team(Team("t2", "Audit five repositories", "lead", TeamState.PLANNING))
    assert (widget.status.text(), widget.spend.text()) == ("The lead is planning", "Nothing spent yet")


def test_every_control_of_the_board_is_named(qtbot) -> None:
    from tests.ui.test_accessibility import assert_accessible

    widget = board(qtbot)
    widget.plan_box.show()
    assert assert_accessible(widget) >= 2
