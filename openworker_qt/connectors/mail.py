"""Generic mail over IMAP (read) and SMTP (send), for any provider.

The standard library's ``imaplib`` and ``smtplib`` (TLS by default; plain only
on loopback, which tests use), each call in a worker thread: they block.
"""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.header
import imaplib
import smtplib
import ssl
from typing import Any

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Field,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.services.common import MAIL_SEND_PARAMS, mime

LOCAL = frozenset({"127.0.0.1", "localhost", "::1"})


def _decode(value: str | None) -> str:
    if not value:
        return ""
    return str(email.header.make_header(email.header.decode_header(value)))


def _close(conn: imaplib.IMAP4 | None) -> None:
    """Close a connection whose login failed (its socket, at once)."""
    if conn is not None:
        with contextlib.suppress(OSError):
            conn.shutdown()


class MailClient:
    def __init__(self, values: Credentials) -> None:
        self.values = values
        self.user = values.get("username", "")
        self.password = values.get("password", "")

    def _port(self, key: str, default: int) -> int:
        try:
            return int(self.values.get(key) or default)
        except ValueError as exc:
            raise ConnectorError("config", "{key} must be a number.", key=key) from exc

    def _imap(self) -> imaplib.IMAP4:
        host = self.values.get("imap_host", "")
        port = self._port("imap_port", 993)
        conn: imaplib.IMAP4 | None = None
        try:
            conn = (imaplib.IMAP4(host, port) if host in LOCAL
                    else imaplib.IMAP4_SSL(host, port, ssl_context=ssl.create_default_context()))
            conn.login(self.user, self.password)
        except imaplib.IMAP4.error as exc:
            _close(conn)  # a refused login leaves no connection open
            raise ConnectorError("auth", "The mail server refused the login: {detail}. Check the "
                                 "user name and (app) password.", detail=exc) from exc
        except OSError as exc:
            _close(conn)
            raise ConnectorError("network", "Cannot reach {host}:{port} ({problem}).",
                                 host=host, port=port, problem=exc) from exc
        return conn

    def check(self) -> Identity:
        conn = self._imap()
        conn.logout()
        return Identity(self.user, self.values.get("imap_host", ""))

    def search(self, folder: str, query: str, limit: int) -> list[dict[str, Any]]:
        conn = self._imap()
        try:
            status, _ = conn.select(folder or "INBOX", readonly=True)
            if status != "OK":
                raise ConnectorError("request", "No folder {folder}.", folder=repr(folder))
            criteria = f'TEXT "{query}"' if query else "ALL"
            status, data = conn.search(None, criteria)
            ids = (data[0] or b"").split()[-limit:]
            out = []
            for num in reversed(ids):
                status, parts = conn.fetch(num.decode(), "(BODY.PEEK[HEADER.FIELDS (FROM SUBJECT DATE)])")
                raw = next((p[1] for p in parts if isinstance(p, tuple)), b"")
                msg = email.message_from_bytes(raw)
                out.append({"id": num.decode(), "from": _decode(msg["From"]),
                            "subject": _decode(msg["Subject"]), "date": msg["Date"]})
            return out
        finally:
            conn.logout()

    def send(self, to: str, subject: str, body: str) -> None:
        host = self.values.get("smtp_host", "")
        port = self._port("smtp_port", 587)
        msg = mime(self.values.get("from_address") or self.user, to, subject, body)
        try:
            with smtplib.SMTP(host, port, timeout=30) as smtp:
                if host not in LOCAL:
                    smtp.starttls(context=ssl.create_default_context())
                if self.password and (host not in LOCAL or smtp.has_extn("auth")):
                    smtp.login(self.user, self.password)
                smtp.send_message(msg)
        except smtplib.SMTPAuthenticationError as exc:
            raise ConnectorError("auth", "The mail server refused the login.") from exc
        except smtplib.SMTPException as exc:
            raise ConnectorError("request", "The mail server refused the message: {detail}.",
                                 detail=exc) from exc
        except OSError as exc:
            raise ConnectorError("network", "Cannot reach {host}:{port} ({problem}).",
                                 host=host, port=port, problem=exc) from exc


def _client(values: Credentials, _policy: RetryPolicy) -> MailClient:
    return MailClient(values)


async def _validate(client: MailClient) -> Identity:
    return await asyncio.to_thread(client.check)


async def _search(client: MailClient, a: dict[str, Any]) -> str:
    found = await asyncio.to_thread(client.search, str(a.get("folder") or "INBOX"),
                                    str(a.get("query") or ""), 15)
    return dumps(found)


async def _send(client: MailClient, a: dict[str, Any]) -> str:
    await asyncio.to_thread(client.send, a["to"], a["subject"], a["body"])
    return f"Sent to {a['to']}."


SPEC = ConnectorSpec(
    id="mail", name="Mail (IMAP/SMTP)", category="Mail",
    description="Any mail provider: read over IMAP, send over SMTP.",
    fields=(
        Field("imap_host", "IMAP server", "e.g. imap.fastmail.com", secret=False),
        Field("imap_port", "IMAP port", "993 for TLS", secret=False, required=False),
        Field("smtp_host", "SMTP server", "e.g. smtp.fastmail.com", secret=False),
        Field("smtp_port", "SMTP port", "587 (STARTTLS)", secret=False, required=False),
        Field("username", "User name", "usually your address", secret=False),
        Field("from_address", "From address", "if not the user name", secret=False,
              required=False),
        Field("password", "Password", "an app password where your provider offers them"),
    ),
    client=_client, validate=_validate,
    tools=(
        ToolDef("mail_search", "Search a mail folder (newest first).",
                obj({"query": s("words to find"), "folder": s("folder, default INBOX")}),
                _search),
        ToolDef("mail_send", "Send an e-mail.", MAIL_SEND_PARAMS, _send, action=True,
                target_arg="to"),
    ),
)

SPECS = [SPEC]
