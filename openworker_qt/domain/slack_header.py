"""The header a Slack message reaches the model with: who wrote it, where, how to reply.

The Slack listener writes it (:func:`message_header`) before each message it hands to a
session; the transcript shows it in plain words instead (:func:`plain_header`), without
loading the Slack connector. Pure functions.
"""

from __future__ import annotations

import re
from typing import Any

#: The header line, as :func:`message_header` writes it.
HEADER = re.compile(
    r"\[Slack message from <@(?P<user>[A-Za-z0-9]+)>(?: \(@(?P<user_name>[^()\[\]<>\n]*)\))?"
    r" in (?:#(?P<channel_name>[^,()\[\]<>\n]*), in )?the thread (?P<target>slack:[A-Za-z0-9]+:"
    r"[0-9.]+)\. Reply there with slack_send_message, target (?P=target)\.\]\n?")
_UNSAFE = re.compile(r"[()\[\]<>,#@\n\r]+")


def slack_name(text: Any) -> str:
    """A user's or channel's name as Slack gave it, safe inside the header."""
    return " ".join(_UNSAFE.sub(" ", str(text or "")).split())[:80]


def message_header(user: str, target: str, *, user_name: str = "", channel_name: str = "") -> str:
    """What the model reads before a Slack message: who wrote it, where, and how to reply."""
    who = f"<@{user}>" + (f" (@{slack_name(user_name)})" if slack_name(user_name) else "")
    where = f"#{slack_name(channel_name)}, in " if slack_name(channel_name) else ""
    return (f"[Slack message from {who} in {where}the thread {target}. Reply there with "
            f"slack_send_message, target {target}.]\n")


def plain_header(text: str) -> str | None:
    """A Slack message as the transcript shows it ("From @ana in #sales", then the
    message), or None when ``text`` does not start with the header."""
    found = HEADER.match(text)
    if found is None:
        return None
    who = f"@{found['user_name']}" if found["user_name"] else f"@{found['user']}"
    where = f"#{found['channel_name']}" if found["channel_name"] else "a Slack thread"
    body = text[found.end():].lstrip("\n")
    return f"From {who} in {where}" + (f"\n{body}" if body else "")
