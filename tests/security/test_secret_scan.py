"""No secret value reaches the database, the logs, transcripts or a provider payload.

A real turn runs through the real OpenAI SDK against a local stub: the model
calls a tool whose output echoes the key, then the provider fails with an error
that echoes the key (as real APIs do for a wrong key). Afterwards every byte of
the state dir is scanned. The key *was* used — it is in the Authorization header —
so the scan would fail if redaction did nothing.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvers import InboxApprover
from openworker_qt.core.inbox import Inbox
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.tool_api import Tool, ToolContext, ToolRegistry
from openworker_qt.runtime import open_runtime, setup_logging
from openworker_qt.storage import secrets
from openworker_qt.storage.db import Database
from tests.providers.stubs import Reply, StubServer, sse

SECRET = "sk-test-9f8e7d6c5b4a39281706f5e4d3c2b1a0"


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


async def leaky(args: dict[str, Any], ctx: ToolContext) -> str:
    # A tool whose output contains the key (think: `cat` of a dotfile, an env dump).
    return f"config loaded: OPENAI_API_KEY={SECRET}"


async def test_secrets_never_leave_the_keyring(stub: StubServer, isolated_state: Path) -> None:
    secrets.set_secret("OPENAI_API_KEY", SECRET)
    config_file = isolated_state / "config" / "config.toml"
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_text(f'[providers.openai]\nbase_url = "{stub.url}/v1"\n')
    stub.add(
        "POST", "/v1/chat/completions",
        Reply(content_type="text/event-stream", body=sse(
            chunk({"role": "assistant", "tool_calls": [{"index": 0, "id": "c1", "type": "function",
                   "function": {"name": "load_config", "arguments": "{}"}}]}),
            chunk({}, "tool_calls"), "[DONE]")),
        Reply(status=401, body=json.dumps({"error": {
            "message": f"Incorrect API key provided: {SECRET}.", "type": "invalid_request_error",
            "code": "invalid_api_key"}})),
    )
    rt = open_runtime(isolated_state)
    handler = setup_logging(rt.paths, level=logging.DEBUG)
    try:
        manager = SessionManager(
            rt.conversations, rt.router,
            tools_for=lambda info: ToolRegistry([Tool(
                name="load_config", description="load", parameters={"type": "object"},
                handler=leaky, risk=RiskClass.READ)]),
            decider_for=rt.decider_for, audit=rt.audit, redact=secrets.redact,
            default_model="openai:gpt-4o",
        )
        info = manager.create_session(workspace=str(isolated_state))
        events = [e async for e in manager.run(info.id, "load my config")]
        logging.getLogger("test").warning("provider said: Incorrect API key provided: %s", SECRET)
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()
        await rt.stop()  # closes the SDK's connection to the stub, on this test's loop
        rt.close()

    assert events[-1].status == "error"
    error = next(e for e in events if isinstance(e, ev.ErrorOccurred))
    assert error.kind == "auth"
    # The key was really used on the wire …
    assert all(SECRET in s.headers.get("authorization", "") for s in stub.seen)
    # … but never in a payload, even though a tool result contained it.
    for seen in stub.seen:
        assert SECRET not in json.dumps(seen.body)
    second_payload = json.dumps(stub.seen[1].body)
    assert secrets.REDACTED in second_payload
    # Nothing on disk holds it: database (+WAL), logs, config, transcripts.
    files = [p for p in isolated_state.rglob("*") if p.is_file()]
    assert any(p.name.startswith("openworker.sqlite3") for p in files)
    assert any(p.suffix == ".log" for p in files)
    for path in files:
        assert SECRET.encode() not in path.read_bytes(), f"secret found in {path}"
    log_text = next(p for p in files if p.suffix == ".log").read_text()
    assert "provider said: Incorrect API key provided: [redacted secret]" in log_text


@pytest.mark.parametrize("backend", ["fail", "null"])
def test_keyring_without_backend_is_a_clear_error(backend: str) -> None:
    import keyring
    from keyring.backends import fail, null

    keyring.set_keyring(fail.Keyring() if backend == "fail" else null.Keyring())
    assert not secrets.available()
    with pytest.raises(secrets.SecretsUnavailable, match="No secure keyring"):
        secrets.set_secret("OPENAI_API_KEY", SECRET)
    assert secrets.get_secret("OPENAI_API_KEY") is None


def test_secret_names_are_listed_values_are_not() -> None:
    secrets.set_secret("OPENAI_API_KEY", SECRET)
    secrets.set_secret("SLACK_BOT_TOKEN", "xoxb-1234567890-abcdef")
    assert secrets.list_names() == ["OPENAI_API_KEY", "SLACK_BOT_TOKEN"]
    assert secrets.redact(f"a {SECRET} b xoxb-1234567890-abcdef") == (
        f"a {secrets.REDACTED} b {secrets.REDACTED}"
    )
    assert secrets.delete_secret("SLACK_BOT_TOKEN") is True
    assert secrets.delete_secret("SLACK_BOT_TOKEN") is False
    assert secrets.list_names() == ["OPENAI_API_KEY"]


# ------------------------------------------------- audit and inbox (the CLI)

ENV_KEY = "sk-openai-INBOXLEAK77"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "openworker_qt", *args], cwd=cwd, capture_output=True,
        text=True, timeout=60, env=os.environ.copy(), stdin=subprocess.DEVNULL,
    )


def test_a_key_the_model_repeats_is_stored_nowhere(
    tmp_path: Path, isolated_state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model that puts the key from the environment into a call's path, content
    and question: the audit trail, the inbox items (arguments, preview, title,
    reason, the answer), the database with its WAL, the logs and every
    ``openworker-qt inbox`` listing hold it only redacted."""
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    ws = tmp_path / "ws"
    ws.mkdir()
    script = tmp_path / "leak.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"id": f"w-{ENV_KEY}", "name": "write_file",
                         "arguments": {"path": f"{ENV_KEY}.txt", "content": ENV_KEY}}]},
        {"tool_calls": [{"id": "q1", "name": "ask_user",
                         "arguments": {"question": f"Is {ENV_KEY} your key?"}}]},
        {"text": "Done."},
    ]}))
    listings: list[str] = []

    res = _cli("run", "--unattended", "--model", f"scripted:{script}", "leak it", cwd=ws)
    assert res.returncode == 4, res.stderr  # parked on the write's approval
    for flags in ((), ("--json",), ("--all", "--json")):
        listings.append(_cli("inbox", *flags, cwd=ws).stdout)
        assert ENV_KEY not in listings[-1]
    db = Database(isolated_state / "data" / "openworker.sqlite3")
    [approval] = Inbox(db).pending()
    assert _cli("deny", str(approval.id), cwd=ws).returncode == 0
    res = _cli("resume", cwd=ws)
    assert res.returncode == 4, res.stderr  # parked on the question (the write is not asked again)
    [question] = Inbox(db).pending()
    assert question.kind == "question"
    listings.append(_cli("inbox", cwd=ws).stdout)
    assert _cli("answer", str(question.id), f"yes, {ENV_KEY}", cwd=ws).returncode == 0
    res = _cli("resume", cwd=ws)
    assert res.returncode == 0, res.stderr
    listings.append(_cli("inbox", "--all", "--json", cwd=ws).stdout)

    # The key reached every table in redacted form …
    audit = "\n".join(str(tuple(r)) for r in db.query("SELECT * FROM audit"))
    inbox_rows = "\n".join(str(tuple(r)) for r in db.query("SELECT * FROM inbox"))
    db.close()
    for text in (audit, inbox_rows, *listings):
        assert ENV_KEY not in text
    proposed = next(
        r for r in audit.splitlines() if "'proposed'" in r and "write_file" in r
    )
    assert secrets.REDACTED in proposed
    assert inbox_rows.count(secrets.REDACTED) >= 6  # id, key, arguments, preview, title, answer
    assert secrets.REDACTED in listings[0] and secrets.REDACTED in listings[-1]
    # … and no byte on disk holds it: database (+WAL), logs, config.
    files = [p for p in isolated_state.rglob("*") if p.is_file()]
    assert any(p.name.startswith("openworker.sqlite3") for p in files)
    for path in files:
        assert ENV_KEY.encode() not in path.read_bytes(), f"secret found in {path}"


async def test_an_approved_call_runs_with_the_models_own_arguments(
    tmp_path: Path, isolated_state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The inbox shows the call redacted, but approving it while the turn waits runs
    what the model asked for: the stored item is for reading, never for running."""
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    ws = tmp_path / "ws"
    ws.mkdir()
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"id": "w1", "name": "write_file",
                         "arguments": {"path": f"{ENV_KEY}.txt", "content": ENV_KEY}}]},
        {"text": "Done."},
    ]}))
    rt = open_runtime(ws)
    shown: list[Any] = []

    def approve(item: Any) -> None:
        shown.append(item)
        rt.inbox.resolve(item.id, "once", by="test")

    try:
        manager = rt.session_manager(
            approver_for=lambda info: InboxApprover(rt.inbox, on_item=approve),
            default_model=f"scripted:{script}",
        )
        info = manager.create_session(workspace=str(ws))
        events = [e async for e in manager.run(info.id, "write it")]
    finally:
        rt.close()
    [done] = [e for e in events if isinstance(e, ev.ToolFinished)]
    assert done.status == "ok", done.result
    assert (ws / f"{ENV_KEY}.txt").read_text() == ENV_KEY
    [item] = shown
    assert item.arguments == {"path": f"{secrets.REDACTED}.txt", "content": secrets.REDACTED}
