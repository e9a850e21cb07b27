"""PermissionEngine.evaluate(): every mode × risk × path / command / standing-rule case.

Each row of a table names a call and the expected verdict in the five modes, in
the order ``discuss plan interactive custom auto``: ``allow`` (runs without
asking), ``ask`` (needs the user) or ``deny`` (refused, no prompt).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import fence
from openworker_qt.core.approvals import Decision, ToolCallInfo
from openworker_qt.core.permissions import PermissionEngine, PermissionMode
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.standing_rules import StandingRuleStore

MODES = ["discuss", "plan", "interactive", "custom", "auto"]

ALLOWLIST = ["git status", "ls", "pytest"]
AUTO_ALLOW = ["post_update", "apply_patch", "run_shell"]  # for custom mode


@dataclass
class World:
    root: Path  # tmp_path
    ws: Path  # the session workspace (a writable root)
    extra: Path  # a second writable root
    outside: Path  # not writable
    rules: StandingRuleStore
    ro: Path  # a folder granted read-only
    attached: Path  # a file the user attached (in a folder nobody granted)
    owhome: Path  # the app's own state (OPENWORKER_HOME)

    def engine(self, mode: str, **kw: Any) -> PermissionEngine:
        kw.setdefault("writable_roots", [self.extra])
        kw.setdefault("read_roots", [self.ro])
        kw.setdefault("attached_files", [self.attached])
        kw.setdefault("shell_allowlist", ALLOWLIST)
        kw.setdefault("auto_allow", AUTO_ALLOW)
        kw.setdefault("rules", self.rules)
        return PermissionEngine(workspace=self.ws, mode=mode, **kw)


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_state: Path) -> World:
    ws = tmp_path / "ws"
    extra = tmp_path / "extra"
    outside = tmp_path / "outside"
    home = tmp_path / "home"
    ro = tmp_path / "ro"
    mail = tmp_path / "mail"
    owhome = isolated_state
    for d in (ws / "sub", extra, outside, home / ".ssh", ro, mail, owhome / "config",
              owhome / "data"):
        d.mkdir(parents=True, exist_ok=True)
    (mail / "paper.pdf").write_bytes(b"%PDF")
    (mail / "other.txt").write_text("x")
    monkeypatch.setenv("HOME", str(home))
    os.symlink(owhome / "config", ws / "cfg")  # a symlink into the app's own config
    (outside / "target.txt").write_text("x")
    os.symlink(outside, ws / "link")  # a folder symlink escaping the workspace
    os.symlink(outside / "target.txt", ws / "evil.txt")  # a file symlink escaping it
    os.symlink(outside / "nothere.txt", ws / "dangling.txt")  # a dangling one
    os.symlink(ws / "sub", ws / "inlink")  # a symlink that stays inside
    os.symlink(extra, tmp_path / "extra_alias")  # a root reached through a symlink
    (outside / "id_rsa").write_text("PRIVATE KEY")
    os.link(outside / "id_rsa", ws / "hl")  # a hard link to a key (resolves to itself)
    rules = StandingRuleStore.in_memory()
    rules.add("send_message", "slack:T1/C1", scope="session", scope_id="s1")
    rules.add("send_message", "slack:C0123:1700000000.000100", scope="session", scope_id="s1")
    rules.add("send_message", "slack:T1/C7", scope="session", scope_id="other-session")
    rules.add("send_file", "slack:T1/C9", scope="task", scope_id="task-1")
    rules.add("run_shell", "rm -rf /", scope="session", scope_id="s1")  # must never apply
    rules.add("write_file", str(outside / "x.txt"), scope="session", scope_id="s1")  # nor this
    return World(tmp_path, ws, extra, outside, rules, ro, mail / "paper.pdf", owhome)


TARGET_ARGS = {"write_file": "path", "apply_patch": "path", "run_shell": "command",
               "send_message": "channel", "send_file": "channel", "post_update": "channel",
               "read_file": "path", "list_files": "path", "request_directory": "path",
               "mcp__crm__update": "record"}


def info(name: str, risk: RiskClass, args: dict[str, Any], *, cid: str = "c1",
         session: str = "s1", needs_approval: bool = False) -> ToolCallInfo:
    key = TARGET_ARGS.get(name)
    value = args.get(key) if key else None
    target = str(value) if value not in (None, "") else None
    return ToolCallInfo(session_id=session, call_id=cid, name=name, arguments=args, risk=risk,
                        target=target, needs_approval=needs_approval)


def verdict(d: Decision) -> str:
    if d.allowed:
        assert not d.needs_user
        return "allow"
    return "ask" if d.needs_user else "deny"


def expand(rows: list[tuple[str, str, RiskClass, dict[str, Any], str]]) -> list[Any]:
    out = []
    for case_id, name, risk, args, expected in rows:
        verdicts = expected.split()
        assert len(verdicts) == 5, case_id
        for mode, want in zip(MODES, verdicts, strict=True):
            out.append(pytest.param(mode, name, risk, args, want, id=f"{mode}-{case_id}"))
    return out


R, W, X, E = RiskClass.READ, RiskClass.WRITE_LOCAL, RiskClass.EXEC, RiskClass.EXTERNAL

# Paths: "{ws}", "{out}", "{extra}", "{root}" are filled in from the world.
#                                                                   discuss plan interactive custom auto
ROWS: list[tuple[str, str, RiskClass, dict[str, Any], str]] = [
    # ---- READ of a path: inside the read roots it runs; outside it asks (interactive,
    # custom) or is refused (auto, discuss, plan: "use request_directory")
    ("read-inside", "read_file", R, {"path": "a.txt"}, "allow allow allow allow allow"),
    ("read-absolute-ws", "read_file", R, {"path": "{ws}/sub/a.txt"},
     "allow allow allow allow allow"),
    ("read-extra-root", "read_file", R, {"path": "{extra}/a.txt"}, "allow allow allow allow allow"),
    ("read-granted-ro", "read_file", R, {"path": "{root}/ro/a.txt"},
     "allow allow allow allow allow"),
    ("read-attached", "read_file", R, {"path": "{root}/mail/paper.pdf"},
     "allow allow allow allow allow"),
    ("read-env-in-ws", "read_file", R, {"path": ".env"}, "ask ask ask ask ask"),
    ("list-no-path", "list_files", R, {}, "allow allow allow allow allow"),
    ("list-ws", "list_files", R, {"path": "."}, "allow allow allow allow allow"),
    ("read-outside", "read_file", R, {"path": "{out}/target.txt"}, "deny deny ask ask deny"),
    ("read-beside-attached", "read_file", R, {"path": "{root}/mail/other.txt"},
     "deny deny ask ask deny"),
    ("read-dotdot-escape", "read_file", R, {"path": "../outside/target.txt"},
     "deny deny ask ask deny"),
    ("read-dir-symlink", "read_file", R, {"path": "link/target.txt"}, "deny deny ask ask deny"),
    ("read-file-symlink", "read_file", R, {"path": "evil.txt"}, "deny deny ask ask deny"),
    ("read-etc", "read_file", R, {"path": "/etc/passwd"}, "deny deny ask ask deny"),
    ("read-ssh-key", "read_file", R, {"path": "~/.ssh/id_rsa"}, "deny deny ask ask deny"),
    ("list-root", "list_files", R, {"path": "/"}, "deny deny ask ask deny"),
    ("list-home", "list_files", R, {"path": "~"}, "deny deny ask ask deny"),
    ("read-app-db", "read_file", R, {"path": "{root}/owhome/data/openworker.sqlite3"},
     "deny deny ask ask deny"),
    # URL-shaped "paths" are not paths
    ("read-file-url", "read_file", R, {"path": "file:///etc/passwd"}, "deny deny deny deny deny"),
    ("read-http-url", "read_file", R, {"path": "http://example.com/x"},
     "deny deny deny deny deny"),
    ("list-smb-url", "list_files", R, {"path": "smb://server/share"}, "deny deny deny deny deny"),
    ("read-nul", "read_file", R, {"path": "a\x00b"}, "deny deny deny deny deny"),
    # a hard link inside the workspace may be another name of ~/.ssh/id_rsa: always asks
    ("read-hard-link", "read_file", R, {"path": "hl"}, "ask ask ask ask ask"),
    # ---- READ without a path: always allowed (interaction tools included)
    ("read-no-args", "todo_write", R, {}, "allow allow allow allow allow"),
    ("request-directory", "request_directory", R, {"path": "/etc"},
     "allow allow allow allow allow"),
    # ---- WRITE_LOCAL inside a root: interactive asks, auto runs, custom only via auto_allow
    ("write-relative", "write_file", W, {"path": "notes.txt"}, "deny deny ask ask allow"),
    ("write-new-dirs", "write_file", W, {"path": "new/deep/x.txt"}, "deny deny ask ask allow"),
    ("write-absolute-ws", "write_file", W, {"path": "{ws}/a.txt"}, "deny deny ask ask allow"),
    ("write-dotdot-stays", "write_file", W, {"path": "sub/../a.txt"}, "deny deny ask ask allow"),
    ("write-inner-symlink", "write_file", W, {"path": "inlink/a.txt"}, "deny deny ask ask allow"),
    ("write-extra-root", "write_file", W, {"path": "{extra}/a.txt"}, "deny deny ask ask allow"),
    ("write-root-via-alias", "write_file", W, {"path": "{root}/extra_alias/a.txt"},
     "deny deny ask ask allow"),
    ("write-extra-relative", "write_file", W, {"path": "../extra/a.txt"}, "deny deny ask ask allow"),
    ("patch-inside-autoallow", "apply_patch", W, {"path": "a.py"}, "deny deny ask allow allow"),
    # ---- WRITE_LOCAL outside every root: never without a human; auto refuses
    ("write-absolute-out", "write_file", W, {"path": "{out}/x.txt"}, "deny deny ask ask deny"),
    ("write-dotdot-escape", "write_file", W, {"path": "../bad.py"}, "deny deny ask ask deny"),
    ("write-dotdot-deep", "write_file", W, {"path": "sub/../../outside/x"}, "deny deny ask ask deny"),
    ("write-dir-symlink", "write_file", W, {"path": "link/x.txt"}, "deny deny ask ask deny"),
    ("write-file-symlink", "write_file", W, {"path": "evil.txt"}, "deny deny ask ask deny"),
    ("write-dangling-symlink", "write_file", W, {"path": "dangling.txt"}, "deny deny ask ask deny"),
    ("write-home", "write_file", W, {"path": "~/.bashrc"}, "deny deny ask ask deny"),
    ("write-etc", "write_file", W, {"path": "/etc/passwd"}, "deny deny ask ask deny"),
    ("write-prefix-sibling", "write_file", W, {"path": "{root}/ws2/x"}, "deny deny ask ask deny"),
    ("write-ruled-outside", "write_file", W, {"path": "{out}/x.txt"}, "deny deny ask ask deny"),
    ("patch-outside-autoallow", "apply_patch", W, {"path": "{out}/a.py"}, "deny deny ask ask deny"),
    ("write-nul", "write_file", W, {"path": "a\x00b"}, "deny deny deny deny deny"),
    # a folder is not a file: the temporary file would land above it
    ("write-ws-itself", "write_file", W, {"path": "."}, "deny deny deny deny deny"),
    ("write-ws-absolute", "write_file", W, {"path": "{ws}"}, "deny deny deny deny deny"),
    ("write-existing-folder", "write_file", W, {"path": "sub"}, "deny deny deny deny deny"),
    ("write-trailing-slash", "write_file", W, {"path": "newdir/"}, "deny deny deny deny deny"),
    ("write-dot-tail", "write_file", W, {"path": "newdir/."}, "deny deny deny deny deny"),
    ("write-dotdot-tail", "write_file", W, {"path": "sub/.."}, "deny deny deny deny deny"),
    ("write-extra-root-itself", "write_file", W, {"path": "{extra}"},
     "deny deny deny deny deny"),
    # a write that does not say where it lands cannot be checked: always a human
    ("write-no-target", "write_file", W, {}, "deny deny ask ask ask"),
    # ---- the app's own state: refused in every mode, whatever root covers it
    ("write-ws-state", "write_file", W, {"path": ".openworker/config.toml"},
     "deny deny deny deny deny"),
    ("write-nested-state", "write_file", W, {"path": "sub/.openworker/x"},
     "deny deny deny deny deny"),
    ("write-state-case", "write_file", W, {"path": ".OpenWorker/config.toml"},
     "deny deny deny deny deny"),
    ("write-state-dotdot", "write_file", W, {"path": "sub/../.openworker/config.toml"},
     "deny deny deny deny deny"),
    ("write-state-symlink", "write_file", W, {"path": "cfg/config.toml"},
     "deny deny deny deny deny"),
    ("write-app-config", "write_file", W, {"path": "{root}/owhome/config/config.toml"},
     "deny deny deny deny deny"),
    ("write-app-db", "write_file", W, {"path": "{root}/owhome/data/openworker.sqlite3"},
     "deny deny deny deny deny"),
    ("write-app-db-wal", "write_file", W, {"path": "{root}/owhome/data/openworker.sqlite3-wal"},
     "deny deny deny deny deny"),
    ("write-keyring", "write_file", W, {"path": "~/.local/share/keyrings/login.keyring"},
     "deny deny deny deny deny"),
    ("write-keychain", "write_file", W, {"path": "~/Library/Keychains/login.keychain-db"},
     "deny deny deny deny deny"),
    ("write-file-url", "write_file", W, {"path": "file:///tmp/x.txt"}, "deny deny deny deny deny"),
    ("write-smb-url", "write_file", W, {"path": "smb://server/share/x"},
     "deny deny deny deny deny"),
    # a repository's config and hooks make git run programs: always a human
    ("write-git-config", "write_file", W, {"path": ".git/config"}, "deny deny ask ask ask"),
    ("write-git-hook", "write_file", W, {"path": ".git/hooks/pre-commit"},
     "deny deny ask ask ask"),
    ("write-git-head", "write_file", W, {"path": ".git/HEAD"}, "deny deny ask ask ask"),
    # ---- EXEC: allowlist (token-exact) or ask; auto_allow never covers shell
    ("sh-allowlisted", "run_shell", X, {"command": "git status"}, "deny deny allow allow allow"),
    ("sh-allowlisted-args", "run_shell", X, {"command": "git status -s"},
     "deny deny allow allow allow"),
    ("sh-pytest", "run_shell", X, {"command": "pytest -q"}, "deny deny allow allow allow"),
    ("sh-ls", "run_shell", X, {"command": "ls -la"}, "deny deny allow allow allow"),
    ("sh-ls-sub", "run_shell", X, {"command": "ls -la sub"}, "deny deny allow allow allow"),
    ("sh-ls-granted", "run_shell", X, {"command": "ls {root}/ro"}, "deny deny allow allow allow"),
    # allowlisted, but a path outside the read roots, a sensitive path or a bad option
    ("sh-ls-outside", "run_shell", X, {"command": "ls /"}, "deny deny ask ask ask"),
    ("sh-ls-ssh", "run_shell", X, {"command": "ls ~/.ssh"}, "deny deny ask ask ask"),
    ("sh-ls-escape", "run_shell", X, {"command": "ls ../outside"}, "deny deny ask ask ask"),
    ("sh-ls-symlink", "run_shell", X, {"command": "ls link"}, "deny deny ask ask ask"),
    ("sh-ls-hard-link", "run_shell", X, {"command": "ls -l hl"}, "deny deny ask ask ask"),
    ("sh-ls-braces", "run_shell", X, {"command": "ls -la {~/.ssh,.}"}, "deny deny ask ask ask"),
    ("sh-ls-glob", "run_shell", X, {"command": "ls lin?"}, "deny deny ask ask ask"),  # link
    ("sh-ls-oldpwd", "run_shell", X, {"command": "ls ~-/.ssh"}, "deny deny ask ask ask"),
    ("sh-pytest-plugin", "run_shell", X, {"command": "pytest -p evil --rootdir=/"},
     "deny deny ask ask ask"),
    ("sh-pytest-outside", "run_shell", X, {"command": "pytest /tmp/evil_test.py"},
     "deny deny ask ask ask"),
    ("sh-git-status-outside", "run_shell", X, {"command": "git status --porcelain=/etc"},
     "deny deny ask ask ask"),
    ("sh-rm-rf", "run_shell", X, {"command": "rm -rf /"}, "deny deny ask ask ask"),
    ("sh-lsof", "run_shell", X, {"command": "lsof"}, "deny deny ask ask ask"),
    ("sh-statusx", "run_shell", X, {"command": "git statusx"}, "deny deny ask ask ask"),
    ("sh-bare-git", "run_shell", X, {"command": "git"}, "deny deny ask ask ask"),
    ("sh-git-push", "run_shell", X, {"command": "git push"}, "deny deny ask ask ask"),
    ("sh-and", "run_shell", X, {"command": "ls && curl x"}, "deny deny ask ask ask"),
    ("sh-semicolon", "run_shell", X, {"command": "git status; rm -rf ~"}, "deny deny ask ask ask"),
    ("sh-pipe", "run_shell", X, {"command": "git status | sh"}, "deny deny ask ask ask"),
    ("sh-or", "run_shell", X, {"command": "git status || curl x"}, "deny deny ask ask ask"),
    ("sh-background", "run_shell", X, {"command": "ls & curl x"}, "deny deny ask ask ask"),
    ("sh-backticks", "run_shell", X, {"command": "ls `curl x`"}, "deny deny ask ask ask"),
    ("sh-subst", "run_shell", X, {"command": "ls $(curl x)"}, "deny deny ask ask ask"),
    ("sh-redirect-out", "run_shell", X, {"command": "ls > ~/.bashrc"}, "deny deny ask ask ask"),
    ("sh-redirect-in", "run_shell", X, {"command": "pytest < /dev/tty"}, "deny deny ask ask ask"),
    ("sh-paren", "run_shell", X, {"command": "(ls)"}, "deny deny ask ask ask"),
    ("sh-paren-close", "run_shell", X, {"command": "ls )"}, "deny deny ask ask ask"),
    ("sh-newline", "run_shell", X, {"command": "git status\nrm -rf ~"}, "deny deny ask ask ask"),
    ("sh-env-var", "run_shell", X, {"command": "ls $OPENAI_API_KEY"}, "deny deny ask ask ask"),
    ("sh-bad-quote", "run_shell", X, {"command": "git status 'oops"}, "deny deny ask ask ask"),
    ("sh-no-command", "run_shell", X, {}, "deny deny ask ask ask"),
    ("sh-ruled", "run_shell", X, {"command": "rm -rf /"}, "deny deny ask ask ask"),
    # ---- EXTERNAL: standing rules (exact target, this session / task), else ask; auto runs
    ("ext-rule-match", "send_message", E, {"channel": "slack:T1/C1"}, "deny deny allow allow allow"),
    ("ext-rule-thread", "send_message", E, {"channel": "slack:C0123:1700000000.000100"},
     "deny deny allow allow allow"),
    ("ext-other-target", "send_message", E, {"channel": "slack:T1/C2"}, "deny deny ask ask allow"),
    ("ext-target-prefix", "send_message", E, {"channel": "slack:T1"}, "deny deny ask ask allow"),
    ("ext-target-longer", "send_message", E, {"channel": "slack:T1/C1x"}, "deny deny ask ask allow"),
    ("ext-thread-of-rule", "send_message", E, {"channel": "slack:C0123"}, "deny deny ask ask allow"),
    ("ext-other-session-rule", "send_message", E, {"channel": "slack:T1/C7"},
     "deny deny ask ask allow"),
    ("ext-task-rule-no-task", "send_file", E, {"channel": "slack:T1/C9"}, "deny deny ask ask allow"),
    ("ext-rule-other-tool", "send_file", E, {"channel": "slack:T1/C1"}, "deny deny ask ask allow"),
    ("ext-no-target", "send_message", E, {}, "deny deny ask ask allow"),
    ("ext-auto-allow", "post_update", E, {"channel": "x"}, "deny deny ask allow allow"),
    ("ext-unknown-mcp", "mcp__crm__update", E, {"record": "42"}, "deny deny ask ask allow"),
]


def fill(args: dict[str, Any], world: World) -> dict[str, Any]:
    subs = {"{ws}": str(world.ws), "{out}": str(world.outside), "{extra}": str(world.extra),
            "{root}": str(world.root)}
    assert world.owhome == world.root / "owhome"
    out: dict[str, Any] = {}
    for k, v in args.items():
        if isinstance(v, str):
            for key, value in subs.items():
                v = v.replace(key, value)
        out[k] = v
    return out


@pytest.mark.parametrize(("mode", "name", "risk", "args", "want"), expand(ROWS))
def test_decision_table(
    world: World, mode: str, name: str, risk: RiskClass, args: dict[str, Any], want: str
) -> None:
    call = info(name, risk, fill(args, world), needs_approval=risk is E)
    d = world.engine(mode).evaluate(call)
    assert verdict(d) == want, d.reason
    assert d.reason
    if mode in ("discuss", "plan") and risk is not R:
        assert "read-only" in d.reason
    if d.allowed:
        assert d.rule, "an allowed call names the rule that allowed it"
    # "always" is only ever offered for EXTERNAL calls with a target
    assert d.can_always == (want == "ask" and risk is E and call.target is not None)
    assert d.standing_target == (call.target if risk is E else None)


# Rows that must hold for a task engine (an automation run of task-1).
TASK_ROWS: list[tuple[str, str, RiskClass, dict[str, Any], str]] = [
    ("task-rule-match", "send_file", E, {"channel": "slack:T1/C9"}, "deny deny allow allow allow"),
    ("task-rule-other-target", "send_file", E, {"channel": "slack:T1/C8"},
     "deny deny ask ask allow"),
    ("session-rule-still-applies", "send_message", E, {"channel": "slack:T1/C1"},
     "deny deny allow allow allow"),
]


@pytest.mark.parametrize(("mode", "name", "risk", "args", "want"), expand(TASK_ROWS))
def test_task_scoped_rules(
    world: World, mode: str, name: str, risk: RiskClass, args: dict[str, Any], want: str
) -> None:
    d = world.engine(mode, task_id="task-1").evaluate(info(name, risk, args))
    assert verdict(d) == want, d.reason


def test_rules_of_another_task_do_not_apply(world: World) -> None:
    d = world.engine("interactive", task_id="task-2").evaluate(
        info("send_file", E, {"channel": "slack:T1/C9"})
    )
    assert verdict(d) == "ask"


def test_standing_rule_is_cited(world: World) -> None:
    d = world.engine("interactive").evaluate(info("send_message", E, {"channel": "slack:T1/C1"}))
    assert d.allowed and d.rule == "send_message → slack:T1/C1"
    assert d.standing_target == "slack:T1/C1"
    other = world.engine("interactive").evaluate(info("send_message", E, {"channel": "slack:T1/C2"}))
    assert other.needs_user and other.can_always and other.standing_target == "slack:T1/C2"
    assert other.rule is None


def test_rule_names(world: World) -> None:
    def rule(mode: str, name: str, risk: RiskClass, args: dict[str, Any]) -> str | None:
        return world.engine(mode).evaluate(info(name, risk, args)).rule

    assert rule("interactive", "read_file", R, {"path": "x"}) == "risk:read"
    assert rule("auto", "write_file", W, {"path": "x"}) == "mode:auto"
    assert rule("custom", "apply_patch", W, {"path": "x"}) == "auto_allow:apply_patch"
    assert rule("interactive", "run_shell", X, {"command": "git status -s"}) == "allowlist:git status"
    assert rule("auto", "send_message", E, {"channel": "z"}) == "mode:auto"
    assert rule("custom", "post_update", E, {"channel": "z"}) == "auto_allow:post_update"


def test_outside_write_reason_is_explicit(world: World) -> None:
    d = world.engine("interactive").evaluate(info("write_file", W, {"path": "../bad.py"}))
    assert d.needs_user and not d.can_always
    assert "outside the writable roots" in d.reason
    assert str(world.root / "bad.py") in d.reason
    d = world.engine("auto").evaluate(info("write_file", W, {"path": "link/x.txt"}))
    assert not d.allowed and not d.needs_user
    assert "outside the writable roots" in d.reason
    assert str(world.outside / "x.txt") in d.reason


@pytest.mark.parametrize("mode", MODES)
def test_outside_roots_deny_policy(world: World, mode: str) -> None:
    engine = world.engine(mode, outside_roots="deny")
    out = engine.evaluate(info("write_file", W, {"path": "../bad.py"}))
    assert verdict(out) == "deny"
    inside = engine.evaluate(info("write_file", W, {"path": "ok.py"}))
    assert verdict(inside) == {"discuss": "deny", "plan": "deny", "auto": "allow"}.get(mode, "ask")


def test_workspace_can_be_left_out_of_the_roots(world: World) -> None:
    engine = world.engine("auto", include_workspace=False)
    assert verdict(engine.evaluate(info("write_file", W, {"path": "a.txt"}))) == "deny"
    assert verdict(engine.evaluate(info("write_file", W, {"path": str(world.extra / "a")}))) == "allow"


def test_multiple_write_paths_all_must_be_inside(world: World) -> None:
    def paths(call: ToolCallInfo) -> list[str]:
        return list(call.arguments.get("files", []))

    engine = world.engine("auto", write_paths=paths)
    ok = info("apply_patch", W, {"files": ["a.py", "sub/b.py"]})
    bad = info("apply_patch", W, {"files": ["a.py", "../evil.py"]})
    assert verdict(engine.evaluate(ok)) == "allow"
    d = engine.evaluate(bad)
    assert verdict(d) == "deny" and "evil.py" in d.reason
    assert verdict(engine.evaluate(info("apply_patch", W, {"files": []}))) == "ask"


# ------------------------------------------------------------- risk overrides

@pytest.mark.parametrize(
    ("overrides", "name", "risk", "args", "want"),
    [
        # a user override beats the call's classification, both ways
        ({"send_message": "read"}, "send_message", E, {"channel": "x"},
         "allow allow allow allow allow"),
        ({"read_file": "external"}, "read_file", R, {"path": "a"}, "deny deny ask ask allow"),
        ({"read_file": RiskClass.EXEC}, "read_file", R, {"path": "a"}, "deny deny ask ask ask"),
        # overridden to a local write: its target is then checked as a path
        ({"mcp__crm__update": "write"}, "mcp__crm__update", E, {"record": "../42"},
         "deny deny ask ask deny"),
        ({"mcp__crm__update": "write"}, "mcp__crm__update", E, {"record": "42"},
         "deny deny ask ask allow"),
        ({"run_shell": "read"}, "run_shell", X, {"command": "rm -rf /"},
         "allow allow allow allow allow"),
        # names it does not match fall through; garbage values are ignored
        ({"other_tool": "read"}, "send_message", E, {"channel": "y"}, "deny deny ask ask allow"),
        ({"send_message": "bogus"}, "send_message", E, {"channel": "y"}, "deny deny ask ask allow"),
    ],
)
def test_risk_overrides_beat_everything(
    world: World, overrides: dict[str, Any], name: str, risk: RiskClass, args: dict[str, Any],
    want: str,
) -> None:
    for mode, expected in zip(MODES, want.split(), strict=True):
        d = world.engine(mode, risk_overrides=overrides).evaluate(info(name, risk, args))
        assert verdict(d) == expected, (mode, d.reason)


def test_reads_are_allowed_even_when_flagged(world: World) -> None:
    d = world.engine("plan").evaluate(info("todo_write", R, {}, needs_approval=True))
    assert d.allowed


def test_modes_parse_and_fall_back() -> None:
    with pytest.raises(ValueError, match="unknown permission mode"):
        PermissionEngine(workspace=".", mode="yolo")
    engine = PermissionEngine(workspace=".", mode=lambda: "atuo")
    assert engine.mode is PermissionMode.INTERACTIVE  # a typo in config never widens access
    engine.mode = "AUTO"
    assert engine.mode is PermissionMode.AUTO
    with pytest.raises(ValueError, match="outside_roots"):
        PermissionEngine(workspace=".", outside_roots="maybe")


# ------------------------------------------------------ read roots / sensitive

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "path",
    ["~/.ssh/id_rsa", "~/.aws/credentials", "~/.gnupg/secring.gpg", "~/.config/gcloud/creds.json",
     "~/.kube/config", "~/.docker/config.json", "~/.netrc", "~/.mozilla/firefox/x/key4.db",
     "~/.config/google-chrome/Default/Login Data", "~/.config/chromium/Default/Cookies",
     "~/Library/Application Support/Google/Chrome/Default/Cookies",
     "~/Library/Application Support/Firefox/Profiles/x/logins.json",
     "~/.local/share/keyrings/login.keyring", "~/Library/Keychains/login.keychain-db",
     "~/project/.env", "~/project/.env.local"],
)
def test_sensitive_reads_always_ask_even_inside_a_read_root(
    world: World, mode: str, path: str
) -> None:
    # the user granted their whole home folder: every path above is inside a read root
    home = world.root / "home"
    engine = PermissionEngine(workspace=world.ws, mode=mode, read_roots=[home])
    call = info("read_file", R, {"path": path})
    d = engine.evaluate(call)
    assert verdict(d) == "ask", d.reason
    assert not d.can_always
    assert "sensitive" in d.reason or ".env" in d.reason


def test_sensitive_through_a_symlink_and_a_symlinked_ssh_dir(world: World) -> None:
    home = world.root / "home"
    (world.ws / "keys").symlink_to(home / ".ssh")
    engine = world.engine("auto", read_roots=[home])
    assert verdict(engine.evaluate(info("read_file", R, {"path": "keys/id_rsa"}))) == "ask"
    # ~/.ssh itself a symlink into a dotfiles folder inside a read root
    dotfiles = world.extra / "dotfiles-ssh"
    dotfiles.mkdir()
    (home / ".ssh").rmdir()
    (home / ".ssh").symlink_to(dotfiles)
    fence.forget_resolved()  # (the sets' resolution is reused for a moment)
    assert verdict(engine.evaluate(info("read_file", R, {"path": str(dotfiles / "id_rsa")}))) == "ask"


def test_env_files_ask_inside_the_workspace_too(world: World) -> None:
    # a .env holds keys wherever it is (issue 23 item 11): the workspace may be $HOME
    engine = world.engine("auto")
    assert verdict(engine.evaluate(info("read_file", R, {"path": ".env"}))) == "ask"
    assert verdict(engine.evaluate(info("read_file", R, {"path": ".env.example"}))) == "allow"
    assert verdict(engine.evaluate(info("read_file", R, {"path": f"{world.extra}/.env"}))) == "ask"
    assert verdict(engine.evaluate(info("read_file", R, {"path": f"{world.extra}/.env.example"}))) == "allow"
    # a .env in the workspace that is a symlink to one outside it
    (world.outside / ".env").write_text("KEY=1")
    (world.ws / "linked").mkdir()
    (world.ws / "linked" / ".env").symlink_to(world.outside / ".env")
    assert verdict(world.engine("interactive").evaluate(
        info("read_file", R, {"path": "linked/.env"}))) == "ask"


def test_app_data_is_sensitive_even_inside_a_root(world: World) -> None:
    engine = world.engine("auto", read_roots=[world.owhome])
    db = world.owhome / "data" / "openworker.sqlite3"
    assert verdict(engine.evaluate(info("read_file", R, {"path": str(db)}))) == "ask"
    assert verdict(engine.evaluate(info("read_file", R, {"path": f"{db}-wal"}))) == "ask"
    config = world.owhome / "config" / "config.toml"
    assert verdict(engine.evaluate(info("read_file", R, {"path": str(config)}))) == "allow"


def test_outside_read_reasons_point_at_request_directory(world: World) -> None:
    for mode in ("discuss", "plan", "auto"):
        d = world.engine(mode).evaluate(info("read_file", R, {"path": "/etc/hosts"}))
        assert verdict(d) == "deny"
        assert "request_directory" in d.reason and "outside the folders" in d.reason
    d = world.engine("interactive").evaluate(info("read_file", R, {"path": "/etc/hosts"}))
    assert verdict(d) == "ask" and not d.can_always and "/etc/hosts" in d.reason
    d = world.engine("interactive", outside_roots="deny").evaluate(
        info("read_file", R, {"path": "/etc/hosts"}))
    assert verdict(d) == "deny"


def test_read_roots_are_live_and_attachments_only_asked_last(world: World) -> None:
    granted: list[str] = []
    asked: list[int] = []

    def attached() -> list[Path]:
        asked.append(1)
        return [world.attached]

    engine = world.engine("auto", read_roots=lambda: list(granted), attached_files=attached)
    target = str(world.outside / "target.txt")
    assert verdict(engine.evaluate(info("read_file", R, {"path": "a.txt"}))) == "allow"
    assert asked == []  # inside the workspace: the history was never consulted
    assert verdict(engine.evaluate(info("read_file", R, {"path": target}))) == "deny"
    granted.append(str(world.outside))
    assert verdict(engine.evaluate(info("read_file", R, {"path": target}))) == "allow"
    assert engine.is_readable(target) and not engine.is_writable(target)
    assert verdict(engine.evaluate(info("read_file", R, {"path": str(world.attached)}))) == "allow"


def test_workspace_is_readable_when_left_out_of_the_writable_roots(world: World) -> None:
    engine = world.engine("auto", include_workspace=False)
    assert verdict(engine.evaluate(info("read_file", R, {"path": "a.txt"}))) == "allow"


# ------------------------------------------------------------- app state

@pytest.mark.parametrize("mode", MODES)
def test_app_state_is_refused_even_when_a_root_covers_it(world: World, mode: str) -> None:
    engine = world.engine(mode, writable_roots=[world.root], auto_allow=["write_file"])
    for path in (world.owhome / "config" / "config.toml", world.owhome / "data" / "x",
                 world.ws / ".openworker" / "config.toml", world.extra / ".openworker" / "a"):
        d = engine.evaluate(info("write_file", W, {"path": str(path)}))
        assert verdict(d) == "deny", (path, d.reason)
        if mode not in ("discuss", "plan"):
            assert "OpenWorker" in d.reason


def test_app_state_is_refused_when_the_user_made_writes_reads(world: World) -> None:
    engine = world.engine("auto", risk_overrides={"write_file": "read"})
    d = engine.evaluate(info("write_file", W, {"path": ".openworker/config.toml"}))
    assert verdict(d) == "deny" and "OpenWorker" in d.reason
    # the user's own override still holds elsewhere (it is their setting)
    assert verdict(engine.evaluate(info("write_file", W, {"path": str(world.outside / "x")}))) == "allow"


def test_custom_protected_and_sensitive_sets(world: World) -> None:
    vault = world.extra / "vault"
    engine = world.engine("auto", protected=[vault], sensitive=[world.extra / "private"])
    assert verdict(engine.evaluate(info("write_file", W, {"path": str(vault / "a")}))) == "deny"
    assert verdict(engine.evaluate(info("write_file", W, {"path": str(world.extra / "a")}))) == "allow"
    d = engine.evaluate(info("read_file", R, {"path": str(world.extra / "private" / "a")}))
    assert verdict(d) == "ask"
    # a .openworker folder is always app state, whatever set is given
    assert verdict(engine.evaluate(info("write_file", W, {"path": ".openworker/x"}))) == "deny"


# ------------------------------------------------------- workspace raises

@pytest.mark.parametrize(
    ("raises", "name", "risk", "args", "want"),
    [
        # raising a write to external keeps the write fence (auto still refuses outside)
        ({"write_file": "external"}, "write_file", W, {"path": "../x"}, "deny deny ask ask deny"),
        ({"write_file": "external"}, "write_file", W, {"path": "x"}, "deny deny ask ask allow"),
        # raising a read makes it ask, and keeps the read fence
        ({"read_file": "external"}, "read_file", R, {"path": "a"}, "deny deny ask ask allow"),
        ({"read_file": "external"}, "read_file", R, {"path": "/etc/hosts"},
         "deny deny ask ask deny"),
        ({"read_file": "exec"}, "read_file", R, {"path": "a"}, "deny deny ask ask ask"),
        # a "raise" to a lower class never lowers anything
        ({"send_message": "read"}, "send_message", E, {"channel": "x"}, "deny deny ask ask allow"),
        ({"write_file": "read"}, "write_file", W, {"path": "../x"}, "deny deny ask ask deny"),
        ({"run_shell": "external"}, "run_shell", X, {"command": "rm -rf /"},
         "deny deny ask ask ask"),
        ({"run_shell": "external"}, "run_shell", X, {"command": "ls"},
         "deny deny ask allow allow"),  # (custom: run_shell is in this world's auto_allow)
    ],
)
def test_risk_raises_only_ever_make_a_call_stricter(
    world: World, raises: dict[str, Any], name: str, risk: RiskClass, args: dict[str, Any],
    want: str,
) -> None:
    for mode, expected in zip(MODES, want.split(), strict=True):
        d = world.engine(mode, risk_raises=raises).evaluate(info(name, risk, args))
        assert verdict(d) == expected, (mode, d.reason)
