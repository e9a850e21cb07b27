"""The memory tools' cards speak of memory ("Saved to memory", "Allowed: your own
notes"), not of reading files, and their risk class stays what it was (READ)."""

from __future__ import annotations

from openworker_qt.core.risk import RiskClass
from openworker_qt.qt.wording import MEMORY_TOOLS, activity_text, rule_text, tool_title
from tests.ui.conftest import act, run, until

REMEMBER = [
    {"tool_calls": [{"name": "remember", "arguments": {"content": "Reports go out on Fridays."},
                     "id": "m1"},
                    {"name": "read_file", "arguments": {"path": "notes.txt"}, "id": "r1"}]},
    {"text": "Noted."},
]


def test_a_remember_card_says_saved_to_memory(qloop, make_desktop) -> None:
    desktop = make_desktop(REMEMBER)
    window = desktop.window
    (desktop.window.default_workspace / "notes.txt").write_text("hello\n")
    window.composer.edit.setPlainText("Remember that reports go out on Fridays")
    act(qloop, window.composer.submit)
    sid = window.session_id
    run(qloop, lambda: until(lambda: not desktop.manager.is_running(sid) and any(
        i.kind == "tool" and i.status == "ok" for i in window.transcript.items), what="the turn"))
    run(qloop, lambda: until(lambda: all(
        i.status == "ok" for i in window.transcript.items if i.kind == "tool"), what="the cards"))
    rows = {i.name: window.view.delegate._plain_body(i).splitlines()
            for i in window.transcript.items if i.kind == "tool"}
    assert rows["remember"][0] == "Saved to memory"
    assert "Allowed: your own notes" in rows["remember"][1]
    assert "it only reads" not in "\n".join(rows["remember"])
    assert "Allowed: it only reads" in rows["read_file"][1]  # other READ tools unchanged
    assert [f.content for f in desktop.runtime.memory.facts()] == ["Reports go out on Fridays."]
    # The words changed, not the risk: every memory tool is still a READ tool.
    from openworker_qt.memory.tools import memory_tools

    risks = {t.name: t.risk_class() for t in memory_tools(desktop.runtime.memory)}
    assert set(risks) == MEMORY_TOOLS and set(risks.values()) == {RiskClass.READ}


def test_the_memory_words() -> None:
    assert rule_text("risk:read", "memory_forget") == "Allowed: your own notes"
    assert rule_text("risk:read") == "Allowed: it only reads"
    assert rule_text("mode:auto", "remember") == "Allowed: this session runs in auto mode"
    assert [tool_title(n, {}, "ok") for n in ("remember", "memory_update", "memory_forget")] == [
        "Saved to memory", "Updated a memory", "Forgot a memory"]
    assert tool_title("remember", {}, "pending") == "Save to memory"
    assert activity_text("remember", {}) == "Saving to memory…"
