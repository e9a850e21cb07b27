"""Tools on request: install_tool asks on its own card, installs a real package with
the real pip from a local folder (no network) into the app's own tools folder,
the persistent shell finds its program, and Remove takes it away again."""

from __future__ import annotations

import base64
import hashlib
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvers import InboxApprover, InboxQuestioner
from openworker_qt.core.sessions import SessionManager
from openworker_qt.runtime import Runtime, open_runtime
from openworker_qt.runtime_tools import default_tools
from openworker_qt.tools import installs
from openworker_qt.tools.installs import InstallError, ManagedTools, request_from
from openworker_qt.tools.shell import close_all

HELLO = "hello from the tools folder"


def wheel(folder: Path) -> Path:
    """A tiny real wheel with a console script ``ow-hello``."""
    files = {
        "ow_hello/__init__.py": f"def main():\n    print({HELLO!r})\n",
        "ow_hello-0.1.0.dist-info/METADATA":
            "Metadata-Version: 2.1\nName: ow-hello\nVersion: 0.1.0\nLicense: MIT\n",
        "ow_hello-0.1.0.dist-info/WHEEL":
            "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        "ow_hello-0.1.0.dist-info/entry_points.txt": "[console_scripts]\now-hello = ow_hello:main\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{name},sha256={digest.decode()},{len(text.encode())}")
    record.append("ow_hello-0.1.0.dist-info/RECORD,,")
    path = folder / "ow_hello-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
        zf.writestr("ow_hello-0.1.0.dist-info/RECORD", "\n".join(record) + "\n")
    return path


@pytest.fixture
def local_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """pip's own settings point it at a local folder, never the network."""
    folder = tmp_path / "index"
    folder.mkdir()
    wheel(folder)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(folder))
    return folder


@pytest.fixture
def rt(isolated_state: Path) -> Iterator[Runtime]:
    runtime = open_runtime()
    yield runtime
    runtime.close()


def manager(rt: Runtime, script: Path) -> SessionManager:
    return SessionManager(
        rt.conversations, rt.router, tools_for=default_tools, decider_for=rt.decider_for,
        approver_for=lambda info: InboxApprover(rt.inbox, wait=False),
        questioner_for=lambda info: InboxQuestioner(rt.inbox, wait=False),
        default_model=f"scripted:{script}", audit=rt.audit,
    )


def script(tmp_path: Path, turns: list[dict[str, Any]]) -> Path:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"advance": "history", "turns": turns}))
    return path


async def run(m: SessionManager, sid: str, text: str | None = None) -> list[ev.Event]:
    stream = m.run(sid, text) if text is not None else m.resume(sid)
    return [e async for e in stream]


@pytest.mark.parametrize("name", ["; rm -rf ~", "../evil", "/tmp/x.whl", "https://x.example/p.whl",
                                  "-e .", "jq && curl x", "pkg name", ""])
def test_a_hostile_package_name_is_refused(name: str) -> None:
    with pytest.raises(InstallError, match="not a package name"):
        request_from({"package": name, "source": "pypi"})
    assert installs.check({"package": name, "purpose": "x"}) is not None


def test_sources_and_versions_are_checked() -> None:
    with pytest.raises(InstallError, match="unknown source"):
        request_from({"package": "jq", "source": "apt"})
    with pytest.raises(InstallError, match="not a version"):
        request_from({"package": "jq", "version": "1.0; reboot"})
    assert request_from({"package": "@scope/tool", "source": "npm", "version": "2.1.0"}).spec == (
        "@scope/tool@2.1.0")
    assert request_from({"package": "pandas", "version": "2.2.3"}).spec == "pandas==2.2.3"


async def test_a_hostile_name_is_refused_without_asking(rt: Runtime, tmp_path: Path) -> None:
    s = script(tmp_path, [
        {"tool_calls": [{"id": "i1", "name": "install_tool", "arguments": {
            "package": "x; rm -rf ~", "purpose": "nothing good"}}]},
        {"text": "I could not install it."},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(tmp_path), mode="auto", unattended=True)
    events = await run(m, info.id, "go")
    done = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert done.status == "error" and "not a package name" in done.result
    assert rt.inbox.items() == []  # nobody was asked


async def test_approved_install_is_used_from_the_shell_and_removed(
    rt: Runtime, tmp_path: Path, local_index: Path
) -> None:
    s = script(tmp_path, [
        {"tool_calls": [{"id": "i1", "name": "install_tool", "arguments": {
            "package": "ow-hello", "purpose": "greet the team"}}]},
        {"tool_calls": [{"id": "r1", "name": "run_shell", "arguments": {"command": "ow-hello"}}]},
        {"text": "Greeted."},
    ])
    m = manager(rt, s)
    # auto mode: nothing but an always-ask tool would wait; the install still asks
    info = m.create_session(workspace=str(tmp_path), mode="auto", unattended=True)
    events = await run(m, info.id, "greet")
    assert events[-1].status == "suspended"  # parked on the inbox, unattended
    [ask] = rt.inbox.pending()
    assert ask.kind == "approval" and ask.tool == "install_tool" and ask.risk == "external"
    assert "Install ow-hello 0.1.0 from PyPI (pip)" in ask.reason  # looked up in the folder
    assert "A 1 KB download; licence MIT. It runs" in ask.reason
    assert "not system-wide" in ask.reason and "for: greet the team" in ask.reason
    assert ("It runs `pip download --dest <download folder> ow-hello` then `pip install "
            "--no-index --find-links <download folder> ow-hello`") in ask.reason
    root = tmp_path / "owhome" / "data" / "tools"
    assert not root.exists()  # nothing happens before the answer
    rt.inbox.respond(ask.id, "approve")
    events = await run(m, info.id)
    results = {e.call_id: e for e in events if isinstance(e, ev.ToolFinished)}
    assert results["i1"].status == "ok", results["i1"].result
    assert "Installed ow-hello 0.1.0 from PyPI (pip) (1 KB, licence MIT)." in results["i1"].result
    # Installed is not allowed: the new program goes through the shell's own checks.
    [run_ask] = rt.inbox.pending()
    assert "r1" not in results and run_ask.tool == "run_shell" and run_ask.risk == "exec"
    rt.inbox.respond(run_ask.id, "approve")
    results.update({e.call_id: e for e in await run(m, info.id) if isinstance(e, ev.ToolFinished)})
    await close_all()  # the session's persistent shell
    assert HELLO in results["r1"].result
    managed = ManagedTools(root)
    [item] = managed.installed()
    assert (item.package, item.version, item.purpose) == ("ow-hello", "0.1.0", "greet the team")
    whl = local_index / "ow_hello-0.1.0-py3-none-any.whl"
    assert item.hashes == {whl.name: hashlib.sha256(whl.read_bytes()).hexdigest()}
    assert (item.size, item.licence) == (whl.stat().st_size, "MIT")
    assert (installs.bin_dirs(root)[0] / "ow-hello").exists()
    assert await managed.remove("pypi", "ow-hello")
    assert managed.installed() == [] and not (installs.bin_dirs(root)[0] / "ow-hello").exists()


async def test_a_failed_install_tells_the_model_plainly(
    rt: Runtime, tmp_path: Path, local_index: Path
) -> None:
    s = script(tmp_path, [
        {"tool_calls": [{"id": "i1", "name": "install_tool", "arguments": {
            "package": "no-such-package", "purpose": "x"}}]},
        {"text": "It is not available."},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(tmp_path), mode="auto", unattended=True)
    await run(m, info.id, "go")
    [ask] = rt.inbox.pending()
    rt.inbox.respond(ask.id, "approve")
    events = await run(m, info.id)
    done = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert done.status == "error" and done.result.startswith("Not installed: pip failed")
    assert "no-such-package" in done.result
    assert ManagedTools(tmp_path / "owhome" / "data" / "tools").installed() == []
