"""A small IMAP4rev1 server on 127.0.0.1 (what imaplib's login, EXAMINE, SEARCH,
FETCH of header fields and LOGOUT need), holding a few messages in INBOX."""

from __future__ import annotations

import asyncio
import email.message
import shlex


class ImapStub:
    def __init__(self, user: str, password: str, messages: list[email.message.EmailMessage]) -> None:
        self.user = user
        self.password = password
        self.messages = messages
        self.commands: list[str] = []
        self.port = 0
        self._server: asyncio.base_events.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        def send(text: str | bytes) -> None:
            writer.write(text.encode() if isinstance(text, str) else text)

        send("* OK [CAPABILITY IMAP4rev1] stub ready\r\n")
        authed = False
        try:
            while line := await reader.readline():
                tag, _, rest = line.decode().rstrip("\r\n").partition(" ")
                command, _, args = rest.partition(" ")
                command = command.upper()
                self.commands.append(command)
                if command == "CAPABILITY":
                    send(f"* CAPABILITY IMAP4rev1\r\n{tag} OK done\r\n")
                elif command == "LOGIN":
                    user, password = shlex.split(args)
                    authed = (user, password) == (self.user, self.password)
                    send(f"{tag} OK logged in\r\n" if authed
                         else f"{tag} NO [AUTHENTICATIONFAILED] Invalid credentials\r\n")
                elif not authed and command != "LOGOUT":
                    send(f"{tag} BAD log in first\r\n")
                elif command in ("EXAMINE", "SELECT"):
                    send(f"* {len(self.messages)} EXISTS\r\n* 0 RECENT\r\n* FLAGS (\\Seen)\r\n"
                         f"{tag} OK [READ-ONLY] done\r\n")
                elif command == "SEARCH":
                    words = shlex.split(args)
                    needle = words[words.index("TEXT") + 1].lower() if "TEXT" in words else ""
                    hits = [str(i) for i, m in enumerate(self.messages, 1)
                            if needle in m.as_string().lower()]
                    send(f"* SEARCH {' '.join(hits)}\r\n{tag} OK done\r\n".replace("SEARCH \r", "SEARCH\r"))
                elif command == "FETCH":
                    num = int(args.split(" ", 1)[0])
                    msg = self.messages[num - 1]
                    head = "".join(f"{k}: {msg[k]}\r\n" for k in ("From", "Subject", "Date")
                                   if msg[k]) + "\r\n"
                    data = head.encode()
                    send(f"* {num} FETCH (BODY[HEADER.FIELDS (FROM SUBJECT DATE)] {{{len(data)}}}\r\n")
                    send(data)
                    send(f")\r\n{tag} OK done\r\n")
                elif command == "LOGOUT":
                    send(f"* BYE\r\n{tag} OK bye\r\n")
                    await writer.drain()
                    break
                else:
                    send(f"{tag} BAD unknown\r\n")
                await writer.drain()
        finally:
            writer.close()
