"""Spoken answers to an approval: a local keyword match on the transcript.

:func:`match_answer` reads a short utterance ("Approve.", "deny it", "批准",
"不同意") as ``"approve"``, ``"deny"`` or ``None``. Only short utterances count — a
dictated sentence that happens to contain "approve" is text, not an answer — and
anything ambiguous ("approve, no, deny") is ``None``. A negation turns an approval
word into a denial ("don't approve", "不同意", "不批准"). Nothing leaves the machine;
the caller still asks for an on-screen confirmation before acting.
"""

from __future__ import annotations

import re
from typing import Literal

Answer = Literal["approve", "deny"]

MAX_WORDS = 4
MAX_CHINESE_CHARS = 8
_APPROVE = frozenset({"approve", "approved", "allow", "allowed", "accept", "yes", "confirm"})
_DENY = frozenset({"deny", "denied", "reject", "rejected", "decline", "refuse", "no", "block"})
_NEGATIONS = frozenset({"don't", "dont", "do", "not", "never"})  # "do not approve"
_FILLER = frozenset({"it", "this", "that", "please", "ok", "okay", "i", "the", "request"})
_CHINESE_DENY = ("不同意", "不批准", "不允许", "不可以", "不行", "拒绝", "驳回", "否决", "不要")
_CHINESE_APPROVE = ("批准", "同意", "允许", "可以", "通过", "确认", "好的")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def match_answer(text: str) -> Answer | None:
    """``"approve"``, ``"deny"`` or ``None`` for a transcript (see module docstring)."""
    if _HAN.search(text):
        return _match_chinese(text)
    words = re.findall(r"[a-z']+", text.lower().replace("’", "'"))
    if not words or len(words) > MAX_WORDS:
        return None
    approve = any(w in _APPROVE for w in words)
    deny = any(w in _DENY for w in words)
    negated = any(w in _NEGATIONS for w in words)
    if not all(w in _APPROVE | _DENY | _NEGATIONS | _FILLER for w in words):
        return None  # other words: a sentence, not an answer
    if approve and negated and not deny:
        return "deny"
    if approve and not deny:
        return "approve"
    if deny and not approve:
        return "deny"
    return None


def _match_chinese(text: str) -> Answer | None:
    compact = "".join(_HAN.findall(text))
    if not compact or len(compact) > MAX_CHINESE_CHARS:
        return None
    deny = any(k in compact for k in _CHINESE_DENY)
    rest = compact
    for k in _CHINESE_DENY:
        rest = rest.replace(k, "")
    approve = any(k in rest for k in _CHINESE_APPROVE)
    if deny and not approve:
        return "deny"
    if approve and not deny:
        return "approve"
    return None
