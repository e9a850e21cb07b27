"""The words users see for the core's codes: tool-call statuses, the rule that
let a call run, risk classes, the provider-retry line and the notices the
engine stores in English.

The core speaks in codes (``risk:read``, ``user:once``, ``write_local``) and in
English sentences for logs and the CLI; the desktop turns them into plain,
translated words here (every string is a literal ``QCoreApplication.translate``
call so ``pyside6-lupdate`` extracts it).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from openworker_qt.core.standing_rules import ARROW


def status_text(status: str) -> str:
    """A tool call's state, as the card shows it."""
    words = {
        "pending": QCoreApplication.translate("Wording", "not run yet"),
        "awaiting": QCoreApplication.translate("Wording", "waiting for your approval"),
        "asking": QCoreApplication.translate("Wording", "waiting for your answer"),
        "running": QCoreApplication.translate("Wording", "running"),
        "ok": QCoreApplication.translate("Wording", "done"),
        "error": QCoreApplication.translate("Wording", "failed"),
        "denied": QCoreApplication.translate("Wording", "denied"),
        "interrupted": QCoreApplication.translate("Wording", "interrupted"),
    }
    return words.get(status, status)


def rule_text(rule: str) -> str:
    """Why a call was allowed to run, from the decision's ``rule``.

    The values the permission engine and the tool step produce: ``risk:read``,
    ``mode:auto``, ``auto_allow:<tool>``, ``allowlist:<entry>``,
    ``session:always_command``, a standing rule's label ``<tool> → <target>``,
    and ``user:<answer>`` (once, always, always_command).
    """
    rule = rule.strip()
    kind, _, rest = rule.partition(":")
    if rule == "risk:read":
        return QCoreApplication.translate("Wording", "Allowed: it only reads")
    if rule == "mode:auto":
        return QCoreApplication.translate("Wording", "Allowed: this session runs in auto mode")
    if rule == "session:always_command":
        return QCoreApplication.translate(
            "Wording", "Allowed: you approved this exact command for this session"
        )
    if kind == "auto_allow" and rest:
        return QCoreApplication.translate(
            "Wording", "Allowed: {tool} is on your list of tools that run without asking"
        ).format(tool=rest)
    if kind == "allowlist" and rest:
        return QCoreApplication.translate(
            "Wording", "Allowed: a safe command on your list ({entry})"
        ).format(entry=rest.strip())
    if kind == "user":
        if rest == "once":
            return QCoreApplication.translate("Wording", "You approved it once")
        if rest == "always":
            return QCoreApplication.translate(
                "Wording", "You approved it, and allowed it from now on"
            )
        if rest == "always_command":
            return QCoreApplication.translate(
                "Wording", "You approved this command for this session"
            )
        return QCoreApplication.translate("Wording", "You approved it")
    if ARROW in rule:
        target = rule.split(ARROW, 1)[1].strip()
        return QCoreApplication.translate("Wording", "Allowed by your rule for {target}").format(
            target=target
        )
    if not rule:
        return ""
    return QCoreApplication.translate("Wording", "Allowed by your settings")


def risk_text(risk: str) -> str:
    """What a call of this risk class does, in a few words."""
    words = {
        "read": QCoreApplication.translate("Wording", "Reads"),
        "write_local": QCoreApplication.translate("Wording", "Changes files on this computer"),
        "exec": QCoreApplication.translate("Wording", "Runs a program"),
        "external": QCoreApplication.translate("Wording", "Sends data off this computer"),
    }
    return words.get(risk, words["external"])  # unknown: treated as external, as the core does


def kind_text(kind: str) -> str:
    """An inbox item's kind."""
    words = {
        "approval": QCoreApplication.translate("Wording", "Approval"),
        "question": QCoreApplication.translate("Wording", "Question"),
        "plan": QCoreApplication.translate("Wording", "Plan to review"),
        "directory": QCoreApplication.translate("Wording", "Folder request"),
    }
    return words.get(kind, kind)


def retry_text(
    provider: str, attempt: int, max_attempts: int, kind: str, reason: str, delay: float
) -> str:
    """``Waiting for Anthropic · retrying 2/4 in 3 s (overloaded)``, translated."""
    reasons = {
        "overloaded": QCoreApplication.translate("Wording", "busy"),
        "rate_limit": QCoreApplication.translate("Wording", "too many requests"),
        "server": QCoreApplication.translate("Wording", "server error"),
        "network": QCoreApplication.translate("Wording", "connection problem"),
        "timeout": QCoreApplication.translate("Wording", "no answer in time"),
    }
    why = reasons.get(kind, reason)
    if delay >= 1:
        return QCoreApplication.translate(
            "Wording", "Waiting for {provider} · retrying {attempt}/{total} in {secs} s ({why})"
        ).format(
            provider=provider, attempt=attempt, total=max_attempts, secs=f"{delay:.0f}", why=why
        )
    return QCoreApplication.translate(
        "Wording", "Waiting for {provider} · retrying {attempt}/{total} ({why})"
    ).format(provider=provider, attempt=attempt, total=max_attempts, why=why)


def retry_fields(event: Any) -> dict[str, Any]:
    """What :func:`retry_text` needs, from a ``ProviderRetrying`` event."""
    return {
        "provider": event.provider,
        "attempt": event.attempt,
        "max_attempts": event.max_attempts,
        "kind": event.kind,
        "reason": event.reason,
        "delay": event.delay,
    }


def notice_text(notice_kind: str, text: str, display: dict[str, Any] | None = None) -> str:
    """A notice row's words: the retry line and the engine's pause built here."""
    if notice_kind == "waiting" and display and "provider" in display:
        return retry_text(
            str(display["provider"]),
            int(display["attempt"]),
            int(display["max_attempts"]),
            str(display["kind"]),
            str(display["reason"]),
            float(display["delay"]),
        )
    if notice_kind == "suspended":
        return QCoreApplication.translate(
            "Wording", "The task paused here to wait for your answer."
        )
    return text
