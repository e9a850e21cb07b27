"""No key reaches the desktop app's log file: not in a provider error, not in a traceback.

The log is set up by the very function ``launch.main`` calls (``launch.setup_logging``,
which is ``logs.setup_logging``, shared with the CLI and headless modes). A real
turn through the real OpenAI SDK against the local stub fails with a 401 whose
body echoes the key, as real APIs do; the runtime logs the turn's error. Then an
exception carrying the key is logged with its traceback (``log.exception``, as
``DesktopApp.load_models`` does) and another reaches the app's exception hook.
The same scenario with the redaction taken out of the handler puts the key in
the file (through the tracebacks), so the check is not vacuous.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

from openworker_qt import launch, logs
from openworker_qt.core import events as ev
from openworker_qt.runtime import open_runtime
from openworker_qt.storage import secrets
from tests.providers.stubs import Reply, StubServer

SECRET = "sk-test-4c3b2a1908f7e6d5c4b3a29180706f5e"


def raise_with_key() -> None:
    raise PermissionError(f"the server rejected the token {SECRET}")


async def scenario(stub: StubServer, home: Path, *, redacting: bool) -> str:
    secrets.set_secret("OPENAI_API_KEY", SECRET)
    config_file = home / "config" / "config.toml"
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_text(f'[providers.openai]\nbase_url = "{stub.url}/v1"\n')
    stub.add("POST", "/v1/chat/completions", Reply(status=401, body=json.dumps({"error": {
        "message": f"Incorrect API key provided: {SECRET}.", "type": "invalid_request_error",
        "code": "invalid_api_key"}})))
    rt = open_runtime()
    assert launch.setup_logging is logs.setup_logging  # what launch.main calls
    handler = launch.setup_logging(rt.paths)
    if not redacting:
        handler.file.setFormatter(logging.Formatter(logs.LOG_FORMAT))
    hook = sys.excepthook
    reported: list[str] = []
    try:
        manager = rt.session_manager(default_model="openai:gpt-4o")
        info = manager.create_session(workspace=str(home))
        events = [e async for e in manager.run(info.id, "hello")]
        error = next(e for e in events if isinstance(e, ev.ErrorOccurred))
        # The SDK echoed the key; the error event already carries the stored,
        # redacted text (core/history.py), so the log line built from it is clean too.
        assert error.kind == "auth" and secrets.REDACTED in error.message
        assert SECRET not in error.message
        try:
            raise_with_key()
        except PermissionError:
            logging.getLogger("openworker_qt.app").exception("listing models failed")
        launch.install_excepthook(reported.append)
        try:
            raise_with_key()
        except PermissionError:
            sys.excepthook(*sys.exc_info())
        handler.flush()
        text = rt.paths.logs.joinpath(logs.LOG_FILE).read_text(encoding="utf-8")
    finally:
        sys.excepthook = hook
        logging.getLogger().removeHandler(handler)
        handler.close()
        await rt.stop()
        rt.close()
    assert reported and "Something went wrong" in reported[0]
    return text


async def test_the_app_log_never_holds_a_key(stub: StubServer, isolated_state: Path) -> None:
    text = await scenario(stub, isolated_state, redacting=True)
    assert SECRET not in text
    # All three reached the file, scrubbed: the provider error, and both tracebacks.
    assert "the turn failed (auth)" in text and "Incorrect API key provided: [redacted secret]" in text
    assert "listing models failed\nTraceback (most recent call last):" in text
    assert text.count("PermissionError: the server rejected the token [redacted secret]") == 2
    assert "unhandled exception:" in text


async def test_without_redaction_the_same_log_would_hold_the_key(
    stub: StubServer, isolated_state: Path
) -> None:
    text = await scenario(stub, isolated_state, redacting=False)
    assert text.count(SECRET) >= 2  # both tracebacks


def test_the_formatter_scrubs_tracebacks_and_stacks() -> None:
    secrets.set_secret("SLACK_BOT_TOKEN", "xoxb-0123456789-abcdef")
    formatter = secrets.RedactingFormatter(logs.LOG_FORMAT)
    try:
        raise ValueError("token xoxb-0123456789-abcdef expired")
    except ValueError:
        record = logging.LogRecord("t", logging.ERROR, __file__, 1, "failed: %s", ("ok",),
                                   sys.exc_info(), stack_info="frame holding xoxb-0123456789-abcdef")
    out: Any = formatter.format(record)
    assert "xoxb-0123456789-abcdef" not in out
    assert out.count(secrets.REDACTED) == 2 and "ValueError: token" in out


def test_the_cli_writes_the_same_scrubbed_log(isolated_state: Path, tmp_path: Path) -> None:
    from openworker_qt import cli

    secrets.set_secret("OPENAI_API_KEY", SECRET)
    script = tmp_path / "fails.json"
    script.write_text(json.dumps([{"error": f"Incorrect API key provided: {SECRET}",
                                   "error_kind": "auth"}]), encoding="utf-8")
    code = cli.main(["run", "--workspace", str(tmp_path), "--model", f"scripted:{script}", "hi"])
    assert code == 1
    handler = next(h for h in logging.getLogger().handlers if isinstance(h, logs.LogHandler))
    handler.flush()
    text = (isolated_state / "logs" / logs.LOG_FILE).read_text(encoding="utf-8")
    assert "the turn failed (auth)" in text
    assert "auth: Incorrect API key provided: [redacted secret]" in text
    assert SECRET not in text
