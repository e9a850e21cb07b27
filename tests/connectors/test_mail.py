"""Generic mail: IMAP against a local IMAP server (``imap_stub.py``) and SMTP
against aiosmtpd, through the real registry, inbox and turn engine."""

from __future__ import annotations

import email.message
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from openworker_qt.connectors.base import ConnectorError
from openworker_qt.core.tool_api import ToolContext, ToolResult
from openworker_qt.runtime import Runtime
from tests.connectors.helpers import Sleeps, park_and_approve, runtime
from tests.connectors.imap_stub import ImapStub

USER, PASSWORD = "ana@acme.test", "app-password-1234"


def message(sender: str, subject: str, body: str) -> email.message.EmailMessage:
    msg = email.message.EmailMessage()
    msg["From"], msg["Subject"], msg["Date"] = sender, subject, "Tue, 01 Dec 2026 07:00:00 +0000"
    msg.set_content(body)
    return msg


class Mailbox:
    def __init__(self) -> None:
        self.received: list[Any] = []
        self.refuse: str | None = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        if self.refuse:
            return self.refuse
        self.received.append(envelope)
        return "250 OK"


def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login.decode(), data.password.decode()) == (
        USER, PASSWORD)
    return AuthResult(success=ok, handled=False)


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, int]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=port, authenticator=authenticator,
                            auth_require_tls=False)
    controller.start()
    yield box, port
    controller.stop()


@pytest_asyncio.fixture
async def imap() -> AsyncIterator[ImapStub]:
    server = ImapStub(USER, PASSWORD, [
        message("bo@acme.test", "Quarterly numbers", "see attached"),
        message("cy@acme.test", "Lunch on Friday?", "the usual place"),
    ])
    await server.start()
    yield server
    await server.stop()


def values(imap: ImapStub, smtp_port: int, password: str = PASSWORD) -> dict[str, str]:
    return {"imap_host": "127.0.0.1", "imap_port": str(imap.port), "smtp_host": "127.0.0.1",
            "smtp_port": str(smtp_port), "username": USER, "password": password}


@pytest.fixture
def rt() -> Iterator[Runtime]:
    runtime_ = runtime(Sleeps())
    yield runtime_
    runtime_.close()


async def test_mail_connects_reads_and_sends_once_after_approval(
    rt: Runtime, imap: ImapStub, smtp: tuple[Mailbox, int], tmp_path: Path
) -> None:
    box, port = smtp
    identity = await rt.connectors.connect("mail", values(imap, port))
    assert identity.text() == f"Connected as {USER} in 127.0.0.1"
    search = next(t for t in rt.connectors.tools() if t.name == "mail_search")
    out = await search.handler({"query": "lunch"}, ToolContext(session_id="s", workspace=tmp_path))
    text = out.content if isinstance(out, ToolResult) else out
    assert "Lunch on Friday?" in text and "Quarterly" not in text
    assert "EXAMINE" in imap.commands  # read-only: never marks mail as read

    send = next(t for t in rt.connectors.tools() if t.name == "mail_send")
    assert send.target({"to": "bo@acme.test"}) == "bo@acme.test"
    item, _ = await park_and_approve(rt, tmp_path, "mail_send",
                                     {"to": "bo@acme.test", "subject": "Re: numbers", "body": "Thanks"})
    assert item.target == "bo@acme.test"
    assert len(box.received) == 1
    assert box.received[0].rcpt_tos == ["bo@acme.test"]
    assert b"Subject: Re: numbers" in box.received[0].content


async def test_a_wrong_password_and_a_refused_message_are_reported(
    rt: Runtime, imap: ImapStub, smtp: tuple[Mailbox, int], tmp_path: Path
) -> None:
    box, port = smtp
    with pytest.raises(ConnectorError) as raised:
        await rt.connectors.connect("mail", values(imap, port, password="expired-password"))
    assert raised.value.kind == "auth" and "refused the login" in raised.value.message
    assert rt.connectors.state("mail").status == "not connected"

    await rt.connectors.connect("mail", values(imap, port))
    box.refuse = "451 Try again later"  # the server is busy: said once, not repeated
    send = next(t for t in rt.connectors.tools() if t.name == "mail_send")
    out = await send.handler({"to": "bo@acme.test", "subject": "x", "body": "y"},
                             ToolContext(session_id="s", workspace=tmp_path))
    assert isinstance(out, ToolResult) and out.is_error and "451" in out.content
    assert box.received == []
