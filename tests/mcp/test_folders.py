"""Workspace MCP servers follow each session's folder: a session in a folder whose
MCP file the user trusts gets that folder's servers (started when the session is
built, not before); sessions elsewhere never see them; an untrusted folder's
servers do not start until the user trusts them. Real runtime, real sessions, real server processes."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from openworker_qt.mcp import config as mc
from openworker_qt.mcp.status import State
from openworker_qt.runtime import open_runtime
from openworker_qt.storage.paths import app_paths
from tests.mcp.helpers import SERVERS, until


def servers_file(path: Path, **servers: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def behave(**extra: object) -> dict[str, object]:
    return {"command": sys.executable, "args": [str(SERVERS / "behave.py")], **extra}


async def test_a_sessions_folder_brings_its_trusted_servers_to_that_session_only(
    tmp_path: Path,
) -> None:
    config_dir = app_paths().ensure().config
    servers_file(config_dir / "mcp.json", everywhere=behave())
    trusted, untrusted, plain = (tmp_path / n for n in ("trusted", "untrusted", "plain"))
    mark = tmp_path / "untrusted-started"
    servers_file(trusted / ".mcp.json", local=behave())
    servers_file(untrusted / ".openworker" / "mcp.json", sneaky={
        "command": sys.executable, "args": ["-c", f"open({str(mark)!r}, 'w')"]})
    plain.mkdir()
    mc.TrustStore(config_dir).trust(trusted)
    runtime = open_runtime(plain)  # the app's own folder has no MCP file
    try:
        manager = runtime.enable_mcp()
        assert sorted(manager.servers) == ["everywhere"]
        await asyncio.wait_for(runtime.start(), 10)
        sessions = runtime.session_manager()
        engines = {name: sessions.engine(sessions.create_session(workspace=str(folder)).id)
                   for name, folder in (("trusted", trusted), ("untrusted", untrusted),
                                        ("plain", plain))}
        await manager.folder_ready(trusted)
        await manager.folder_ready(untrusted)
        local = manager.folders[trusted.resolve()]["local"]
        await until(lambda: local.status.state is State.READY, 30)
        await until(lambda: "mcp__local__add" in engines["trusted"].tools, 30)
        await until(lambda: all("mcp__everywhere__add" in e.tools for e in engines.values()), 30)
        assert "mcp__local__add" not in engines["untrusted"].tools
        assert "mcp__local__add" not in engines["plain"].tools
        assert manager.folders[untrusted.resolve()] == {}
        # A second session in the trusted folder shares its running server.
        again = sessions.engine(sessions.create_session(workspace=str(trusted)).id)
        assert "mcp__local__add" in again.tools
        assert list(manager.folders[trusted.resolve()]) == ["local"]
        # Its tools ask, as a workspace server's always do.
        add = again.tools.get("mcp__local__add")
        assert add is not None and add.risk_class().value == "external"
        # Trusted while the app runs: the folder's next session starts its server.
        assert not mark.exists()
        mc.TrustStore(config_dir).trust(untrusted)
        sessions.engine(sessions.create_session(workspace=str(untrusted)).id)
        await manager.folder_ready(untrusted)
        assert list(manager.folders[untrusted.resolve()]) == ["sneaky"]
        await until(mark.exists, 30)
    finally:
        await asyncio.wait_for(runtime.stop(), 30)
        runtime.close()
    assert local.status.state is State.STOPPED
