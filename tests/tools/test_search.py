"""glob and grep: results stay below their path (no symlink followed, nothing
sensitive), are capped, and ripgrep and the Python fallback agree."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from openworker_qt.core.tool_api import ToolContext
from openworker_qt.tools import search
from openworker_qt.tools.search import _grep, glob_files, grep, grep_python, grep_rg

RG = shutil.which("rg")


def ctx(ws: Path) -> ToolContext:
    return ToolContext(session_id="s1", workspace=ws)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "src/pkg").mkdir(parents=True)
    (ws / "docs").mkdir()
    (ws / ".git").mkdir()
    (ws / ".hidden").mkdir()
    (ws / "src/main.py").write_text("import os\nTODO: fix main\nprint('hi')\n")
    (ws / "src/pkg/util.py").write_text("def todo():\n    return 'TODO later'\r\n")
    (ws / "docs/readme.md").write_text("# Title\nNothing to do here.\ntodo list\n")
    (ws / ".hidden/notes.txt").write_text("TODO hidden\n")
    (ws / ".git/config").write_text("TODO in git\n")
    (ws / "blob.bin").write_bytes(b"TODO\x00binary")
    (ws / "ünï côdé.txt").write_text("TODO: spaces and accents\n")
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "key.txt").write_text("TODO secret outside\n")
    os.symlink(secret, ws / "linkdir")
    os.symlink(secret / "key.txt", ws / "linkfile.txt")
    os.link(secret / "key.txt", ws / "hardlink.txt")
    return ws


PATTERNS = [("TODO", False, False), ("todo", True, False), (r"^def \w+\(", False, False),
            ("a.b", False, True), (r"'\w+'", False, False), ("later'$", False, False)]


@pytest.mark.parametrize(("pattern", "ignore_case", "fixed"), PATTERNS)
def test_ripgrep_and_the_fallback_agree(tree: Path, pattern: str, ignore_case: bool,
                                        fixed: bool) -> None:
    assert RG is not None, "ripgrep (rg) is installed by scripts/dev"
    with_rg = _grep(tree, pattern, ignore_case, fixed, tree, use_rg=True)
    fallback = _grep(tree, pattern, ignore_case, fixed, tree, use_rg=False)
    assert with_rg.content == fallback.content
    raw_rg = sorted(grep_rg(RG, tree, pattern, ignore_case=ignore_case, fixed=fixed)[0])
    raw_py = sorted(grep_python(tree, pattern, ignore_case=ignore_case, fixed=fixed)[0])
    assert raw_rg == raw_py


def test_grep_stays_inside(tree: Path) -> None:
    text = _grep(tree, "TODO", False, False, tree, use_rg=False).content
    assert text.splitlines() == [
        ".hidden/notes.txt:1:TODO hidden",
        "src/main.py:2:TODO: fix main",
        "src/pkg/util.py:2:    return 'TODO later'",
        "ünï côdé.txt:1:TODO: spaces and accents",
    ]
    for word in ("secret", "git", "binary"):
        assert word not in text


async def test_grep_through_the_tool(tree: Path) -> None:
    result = await grep({"pattern": "todo", "ignore_case": True, "path": "docs"}, ctx(tree))
    assert result.content == "readme.md:3:todo list"
    one = await grep({"pattern": "print", "path": "src/main.py"}, ctx(tree))
    assert one.content == "main.py:3:print('hi')"


async def test_grep_bad_input(tree: Path) -> None:
    bad = await grep({"pattern": "(unclosed"}, ctx(tree))
    assert bad.is_error and "not a valid regular expression" in bad.content
    missing = await grep({"pattern": "x", "path": "nope"}, ctx(tree))
    assert missing.is_error and "does not exist" in missing.content
    assert (await grep({"pattern": ""}, ctx(tree))).is_error
    url = await grep({"pattern": "x", "path": "file:///etc"}, ctx(tree))
    assert url.is_error and "not a path" in url.content
    none = await grep({"pattern": "zzzzzz"}, ctx(tree))
    assert not none.is_error and "no line matches" in none.content


@pytest.mark.parametrize("use_rg", [True, False])
def test_grep_results_are_capped(tmp_path: Path, use_rg: bool) -> None:
    (tmp_path / "many.txt").write_text("hit\n" * (search.MAX_GREP_MATCHES + 50))
    text = _grep(tmp_path, "hit", False, False, tmp_path, use_rg=use_rg).content
    lines = text.splitlines()
    assert len(lines) == search.MAX_GREP_MATCHES + 1
    assert f"{search.MAX_GREP_MATCHES + 50} matching lines" in lines[-1]


@pytest.mark.parametrize("use_rg", [True, False])
def test_sensitive_files_are_never_returned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            use_rg: bool) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh/id_rsa").write_text("PRIVATE KEY\n")
    (home / "notes.txt").write_text("PRIVATE notes\n")
    monkeypatch.setenv("HOME", str(home))
    text = _grep(home, "PRIVATE", False, False, home, use_rg=use_rg).content
    assert text == "notes.txt:1:PRIVATE notes"


async def test_glob(tree: Path) -> None:
    result = await glob_files({"pattern": "**/*.py"}, ctx(tree))
    assert result.content.splitlines() == ["src/main.py", "src/pkg/util.py"]
    top = await glob_files({"pattern": "*.txt"}, ctx(tree))
    # the hard link is a name here (glob reads nothing); the symlinks are not listed
    assert top.content.splitlines() == ["hardlink.txt", "ünï côdé.txt"]
    sub = await glob_files({"pattern": "*.py", "path": "src"}, ctx(tree))
    assert sub.content == "main.py"
    assert "secret" not in (await glob_files({"pattern": "**"}, ctx(tree))).content
    none = await glob_files({"pattern": "*.rs"}, ctx(tree))
    assert "no file matches" in none.content
    assert (await glob_files({"pattern": "*", "path": "src/main.py"}, ctx(tree))).is_error


async def test_glob_is_capped(tmp_path: Path) -> None:
    for i in range(search.MAX_GLOB_RESULTS + 5):
        (tmp_path / f"f{i:04}.txt").write_text("")
    result = await glob_files({"pattern": "*.txt"}, ctx(tmp_path))
    assert len(result.content.splitlines()) == search.MAX_GLOB_RESULTS + 1
    assert "more files" in result.content


@pytest.mark.parametrize("use_rg", [True, False])
async def test_the_sessions_own_sensitive_set_hides_results(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use_rg: bool) -> None:
    """glob and grep hide what the session's permission engine holds sensitive (the
    runtime adds its own secrets to the defaults), not only the default set."""
    from openworker_qt.core.engine import TurnEngine
    from openworker_qt.core.history import MemoryHistory
    from openworker_qt.core.permissions import PermissionEngine
    from openworker_qt.core.tool_api import ToolRegistry
    from openworker_qt.providers.scripted import ScriptedProvider
    from openworker_qt.tools.search import search_tools
    from tests.core.helpers import StaticResolver, call, collect

    if not use_rg:
        monkeypatch.setattr(search.shutil, "which", lambda name: None)
    elif RG is None:
        pytest.fail("ripgrep (rg) is needed for this test")
    ws = tmp_path / "ws"
    (ws / "vault").mkdir(parents=True)
    (ws / "vault/token.txt").write_text("CODE 1234\n")
    (ws / "notes.txt").write_text("CODE words\n")
    provider = ScriptedProvider([
        {"tool_calls": [call("grep", {"pattern": "CODE"}, "g1"),
                        call("glob", {"pattern": "**/*.txt"}, "g2")]},
        {"text": "done"},
    ])
    decider = PermissionEngine(workspace=ws, sensitive=lambda: (str(ws / "vault"),))
    engine = TurnEngine(session_id="s1", store=MemoryHistory(), resolver=StaticResolver(provider),
                        model="m", tools=ToolRegistry(search_tools()), decider=decider,
                        workspace=ws)
    await collect(engine.run("search"))
    results = {m["tool_call_id"]: m["content"] for m in engine.history if m["role"] == "tool"}
    assert results["g1"] == "notes.txt:1:CODE words"
    assert results["g2"] == "notes.txt"


@pytest.mark.parametrize("use_rg", [True, False])
def test_credential_files_by_name_are_never_returned_in_the_workspace(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use_rg: bool) -> None:
    """The workspace is the home folder (issue 23 item 11): credentials by name stay
    out of grep's results; ordinary files with similar names do not."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in (".env", ".pgpass", ".bash_history", "secrets.env", "server.key", "id_rsa",
                 "github_token.txt", ".vault-token", "rclone.conf"):
        (home / name).write_text("HIDDEN=1\n")
    for name in ("tokenizer.py", "token_utils.py", ".env.example", "notes.txt"):
        (home / name).write_text("HIDDEN=1\n")
    text = _grep(home, "HIDDEN", False, False, home, use_rg=use_rg).content
    assert sorted(line.split(":")[0] for line in text.splitlines()) == [
        ".env.example", "notes.txt", "token_utils.py", "tokenizer.py"]
