"""qt/usage_reader.py: a session's usage per model read from a real database and
priced from the user's ``[prices]``, read again when that setting changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from openworker_qt.domain.usage import ModelUsage, Usage
from openworker_qt.qt.usage_reader import UsageReader
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database


def _assistant(model: str, tokens_in: int, tokens_out: int) -> dict[str, Any]:
    return {"role": "assistant", "content": "ok", "model": model,
            "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out}}


def test_a_sessions_usage_is_read_per_model_and_priced(tmp_path: Path) -> None:
    db = Database(tmp_path / "owq.db")
    store = ConversationStore(db)
    sid = store.create_session(model="acme:big", workspace=str(tmp_path)).id
    store.append(sid, {"role": "user", "content": "hi"})
    for model, tokens_in, tokens_out in (("acme:big", 1_000_000, 0), ("acme:big", 0, 1_000_000),
                                         ("acme:small", 2_000_000, 0)):
        store.append(sid, _assistant(model, tokens_in, tokens_out))
    prices: dict[str, Any] = {"acme:big": {"input": 3, "output": 15},
                              "acme:small": {"input": 0.5, "output": 1}}
    settings = {"prices": prices}
    reader = UsageReader(db, lambda: settings["prices"])
    try:
        rows = reader.rows(sid)
    finally:
        db.close()
    assert rows == [ModelUsage("acme:big", Usage(1_000_000, 1_000_000), 2),
                    ModelUsage("acme:small", Usage(2_000_000, 0), 1)]
    total, cost = reader.total(rows)
    assert total == Usage(3_000_000, 1_000_000)
    assert cost == pytest.approx(3 + 15 + 1)
    assert reader.describe(total, cost) == "3M in · 1M out · ≈ $19.00"

    # A changed [prices] setting is used at once; a model without a price: no total cost.
    settings["prices"] = {"acme:big": {"input": 6, "output": 30}}
    assert reader.cost("acme:big", Usage(1_000_000, 0)) == pytest.approx(6)
    assert reader.total(rows)[1] is None
    assert reader.total([]) == (Usage(), 0)  # nothing used: nothing to price
    assert reader.format_cost(0.0421) == "$0.042"
