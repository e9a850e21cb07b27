"""The spoken approval keywords, English and Chinese, matched locally."""

from __future__ import annotations

import pytest

from openworker_qt.voice.commands import match_answer


@pytest.mark.parametrize(("text", "answer"), [
    ("Approve.", "approve"), (" approve it please", "approve"), ("Yes.", "approve"),
    ("Allow", "approve"), ("Deny.", "deny"), ("Reject it.", "deny"), ("No.", "deny"),
    ("Don't approve.", "deny"), ("do not allow", "deny"),
    ("批准", "approve"), ("同意。", "approve"), ("可以", "approve"),
    ("拒绝", "deny"), ("不同意", "deny"), ("不批准。", "deny"), ("驳回", "deny"),
])
def test_answers(text: str, answer: str) -> None:
    assert match_answer(text) == answer


@pytest.mark.parametrize("text", [
    "", "Hello world, please schedule a meeting", "I approve of the new design doc",
    "approve no deny", "approve the payment to the contractor", "批准 拒绝",
    "我们明天下午开会讨论预算批准的问题", "maybe",
])
def test_anything_else_is_not_an_answer(text: str) -> None:
    assert match_answer(text) is None
