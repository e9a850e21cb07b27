"""The "Jump to start" button of a long session floats over the transcript: it
must not cover a code block's Copy button (nor the end of a user's message at the
right). Real SQLite, real window, offscreen."""

from __future__ import annotations

import json
import time
from typing import Any

from PySide6.QtCore import QRect

from openworker_qt.ui.markdown_style import code_groups, copy_button_rect
from tests.ui.conftest import run, until

CODE = "```python\n" + "\n".join(f"x{k} = {k}" for k in range(30)) + "\n```"


def _fill(runtime: Any, turns: int) -> str:
    info = runtime.conversations.create_session(title="long", model="scripted:x")
    with runtime.db.transaction() as conn:
        for i in range(turns):
            for role, text in (("user", f"question {i}"), ("assistant", f"Here:\n\n{CODE}\n\nDone {i}.")):
                conn.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)",
                             (info.id, role, json.dumps({"role": role, "content": text}), time.time()))
    return str(info.id)


def _copy_rects(view: Any) -> list[QRect]:
    """Every code block's Copy button on screen (viewport coordinates)."""
    out: list[QRect] = []
    model = view.transcript()
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        rect = view.visualRect(index)
        item = model.item(row)
        if item.kind != "assistant" or not rect.intersects(view.viewport().rect()):
            continue
        origin = view.delegate.body_origin(item, rect)
        for box, _text in code_groups(view.delegate.body_doc(item)):
            out.append(copy_button_rect(box).toAlignedRect().translated(origin))
    return out


def test_jump_to_start_does_not_cover_a_code_blocks_copy_button(qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    window.resize(1040, 720)
    window.show()
    sid = _fill(desktop.runtime, 300)  # 600 messages: a paged session
    view = window.view
    bar = view.verticalScrollBar()
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        window.open_session(sid)
        await until(lambda: window.loaded() and window.transcript.rowCount(), what="load")
        await until(lambda: bar.value() == bar.maximum() > 0, what="at bottom")
        bar.setValue(bar.maximum() - 2 * view.viewport().height())
        await until(lambda: view.jump_button.isVisible(), what="the jump button")
        # Bring a code block's Copy button up to where the button floats.
        copies = [r for r in _copy_rects(view) if r.top() > 0]
        assert copies
        bar.setValue(bar.value() + copies[0].top() - view.jump_button.geometry().top())
        await until(lambda: view.jump_button.isVisible(), what="the jump button again")
        seen["copies"] = _copy_rects(view)
        seen["button"] = view.jump_button.geometry()

    run(qloop, scenario)
    button = seen["button"]
    assert any(abs(r.top() - button.top()) <= 4 for r in seen["copies"])  # one is level with it
    assert not [r for r in seen["copies"] if r.intersects(button)]
    window.hide()
