"""The board's list model: groups by state, one row changed or moved per update."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt

from openworker_qt.qt.team_board_model import (
    COUNT_ROLE,
    HEADER_ROLE,
    ITEM_ROLE,
    STATES,
    TeamBoardModel,
    item_sentence,
)
from openworker_qt.teams.model import Item, ItemState, Team, TeamState

TEAM = Team("t1", "Weekly report", "lead-session", TeamState.RUNNING)


def item(n: int, state: ItemState = ItemState.OPEN, **kw: object) -> Item:
    return Item(f"i{n}", "t1", f"Item {n}", "criteria", state, created_at=float(n), **kw)  # type: ignore[arg-type]


def layout(model: TeamBoardModel) -> list[str]:
    out = []
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        if index.data(HEADER_ROLE):
            out.append(f"[{index.data(Qt.ItemDataRole.DisplayRole)} {index.data(COUNT_ROLE)}]")
        else:
            out.append(index.data(ITEM_ROLE).id)
    return out


def test_items_are_grouped_by_state_in_the_boards_order(qtmodeltester) -> None:
    model = TeamBoardModel()
    model.reset(TEAM, [item(3, ItemState.DONE), item(1), item(2, ItemState.IN_PROGRESS), item(0)])
    qtmodeltester.check(model)
    assert layout(model) == ["[Open 2]", "i0", "i1", "[In progress 1]", "i2", "[Review 0]",
                             "[Done 1]", "i3", "[Blocked 0]", "[Canceled 0]"]
    assert [model.header_row(s) for s in STATES] == [0, 3, 5, 6, 8, 9]
    assert model.row_of("i2") == 4 and model.row_of("nope") is None


def test_an_update_changes_one_row_or_moves_it(qtmodeltester) -> None:
    model = TeamBoardModel()
    model.reset(TEAM, [item(0), item(1), item(2, ItemState.IN_PROGRESS)])
    qtmodeltester.check(model)
    signals: list[str] = []
    model.dataChanged.connect(lambda a, b, _r=(): signals.append(f"changed {a.row()}-{b.row()}"))
    model.rowsRemoved.connect(lambda _p, a, b: signals.append(f"removed {a}-{b}"))
    model.rowsInserted.connect(lambda _p, a, b: signals.append(f"inserted {a}-{b}"))
    model.modelReset.connect(lambda: signals.append("reset"))
    model.put(item(1, cost_usd=0.25, last_comment="halfway"))
    assert signals == ["changed 2-2"]
    assert model.index(2, 0).data(ITEM_ROLE).cost_usd == 0.25
    signals.clear()
    model.put(item(0, ItemState.IN_PROGRESS, assignee="researcher"))
    assert signals == ["removed 1-1", "changed 0-0", "inserted 3-3", "changed 2-2"]
    assert layout(model) == ["[Open 1]", "i1", "[In progress 2]", "i0", "i2", "[Review 0]",
                             "[Done 0]", "[Blocked 0]", "[Canceled 0]"]
    signals.clear()
    model.put(item(5, ItemState.BLOCKED))  # a new item: inserted into its group
    model.put(replace(item(6), team_id="other"))  # another team's: ignored
    assert signals == ["inserted 8-8", "changed 7-7"]
    qtmodeltester.check(model)


def test_an_item_in_words() -> None:
    words = item_sentence(item(1, ItemState.REVIEW, assignee="writer", cost_usd=1.5, stuck=True,
                               last_comment="Draft is up"))
    assert words == ("Item 1 · Review · with writer · $1.50 so far · no progress for a while"
                     " · last comment: Draft is up")


def test_a_cards_tooltip_says_what_done_means_and_what_was_handed_in() -> None:
    model = TeamBoardModel()
    model.reset(TEAM, [item(1, ItemState.REVIEW, assignee="writer",
                            result_files=("outputs/brief.md",))])
    tip = model.index(model.row_of("i1"), 0).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.splitlines() == ["Item 1 · Review · with writer · $0.00 so far",
                                "Done when: criteria", "Handed in: outputs/brief.md"]
