"""The permission decision table: may this tool call run, must the user be asked, or is it refused?

:func:`decide` reads only what it is given — one reading of the settings
(:class:`~openworker_qt.core.permission_settings.PermissionSettings`), the grants
(:class:`~openworker_qt.core.grants.Grants`), the call and where the session's
shell is — and keeps nothing. What it looks at besides: the paths the call names,
resolved afresh on every decision (a symlink swapped between two checks is seen),
and the standing rules in the grants' store. The table and its notes (read roots,
the sensitive set, app state, git metadata, risk overrides, shell commands, path
resolution): ``docs/architecture.md``, "Permissions".
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from openworker_qt.core import fence, gitdirs
from openworker_qt.core.approvals import Decision, ToolCallInfo
from openworker_qt.core.grants import Grants
from openworker_qt.core.patch import touched_paths
from openworker_qt.core.permission_settings import PermissionMode, PermissionSettings
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.shell_policy import check_command, command_prefix

# Tools whose target is a file they replace: a target that is a folder (or a
# writable root itself) is refused.
FILE_WRITE_TOOLS: frozenset[str] = frozenset({"write_file", "replace_in_file", "apply_patch"})

# Tools whose argument holds a unified diff: every path it touches is a write target.
PATCH_TOOLS: Mapping[str, str] = {"apply_patch": "patch"}

# The git tools that read a repository: what they read includes where the
# repository's data really is (a ``.git`` file, ``commondir``, alternates).
GIT_READ_TOOLS: frozenset[str] = frozenset(
    {"git_status", "git_diff", "git_log", "git_show", "git_branch"})

# Tools that read the path in their ``path`` argument (default: the workspace).
PATH_READ_TOOLS: Mapping[str, str] = {
    "read_file": "path",
    "list_files": "path",
    "grep": "path",
    "glob": "path",
    # git reads the repository at ``path`` (default: the workspace)
    "git_status": "path",
    "git_diff": "path",
    "git_log": "path",
    "git_show": "path",
    "git_branch": "path",
}

_ASKS_NOT_REFUSES = (PermissionMode.AUTO, PermissionMode.DISCUSS, PermissionMode.PLAN)


def default_read_paths(call: ToolCallInfo) -> list[str] | None:
    """The paths a built-in reading tool reads (``None``: the tool reads no path)."""
    arg = PATH_READ_TOOLS.get(call.name)
    if arg is None:
        return None
    value = call.arguments.get(arg)
    if value in (None, ""):
        return ["."]
    return [str(value)]


def default_write_paths(call: ToolCallInfo) -> list[str]:
    """Every path a WRITE_LOCAL call writes: its target, and for a patch tool every
    path the patch touches. A patch that cannot be read says nothing about where it
    writes: no path (the call then asks), whatever its target says."""
    out = [call.target] if call.target else []
    arg = PATCH_TOOLS.get(call.name)
    if arg is not None and arg in call.arguments:
        patch = call.arguments.get(arg)
        touched = touched_paths(patch) if isinstance(patch, str) else None
        if touched is None:
            return []
        out += [p for p in touched if p not in out]
    return out


def command_of(call: ToolCallInfo, command_arg: str = "command") -> str | None:
    """The shell command a call runs: its target, else its ``command_arg`` argument."""
    if call.target:
        return call.target
    value = call.arguments.get(command_arg)
    return value if isinstance(value, str) else None


_LINKED_READ = (
    "{path} is a file with other hard links, and another of its names may be a "
    "sensitive file outside the folders this session may read"
)


def _commit_writes(call: ToolCallInfo) -> list[str]:
    """What ``git_commit`` writes: its repository (default the workspace) and each file it stages."""
    repo = call.arguments.get("path")
    out = [str(repo) if repo not in (None, "") else "."]
    paths = call.arguments.get("paths")
    items = [paths] if isinstance(paths, str) else paths if isinstance(paths, list) else []
    out += [str(p) for p in items if p not in (None, "")]
    return out


def _hard_linked(path: Path) -> bool:
    """An existing regular file with more than one name (writing in place changes them all)."""
    try:
        st = path.stat()
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_nlink > 1


def _git_named_files(call: ToolCallInfo, repo: str) -> list[str]:
    """The files a git read tool names (its ``files``, a ``rev:path`` revision), as
    paths in the repository: a credential by name asks there as with ``read_file``."""
    out: list[str] = []
    files = call.arguments.get("files")
    items = [files] if isinstance(files, str) else files if isinstance(files, list) else []
    out += [os.path.join(repo, str(f)) for f in items if isinstance(f, str) and f]
    revision = call.arguments.get("revision")
    if isinstance(revision, str) and ":" in revision:
        name = revision.split(":", 1)[1]
        if name:
            out.append(os.path.join(repo, name))
    return out


def _rank(d: Decision) -> int:
    return 0 if d.allowed else 1 if d.needs_user else 2


def stricter(a: Decision, b: Decision) -> Decision:
    """The stricter of two verdicts (deny > ask > allow); two asks are merged so
    "always" is offered only if both would offer it."""
    if _rank(a) != _rank(b):
        return a if _rank(a) > _rank(b) else b
    if a.needs_user and b.needs_user:
        reason = a.reason if a.reason == b.reason else f"{a.reason}; {b.reason}"
        return Decision(
            allowed=False, needs_user=True, reason=reason,
            can_always=a.can_always and b.can_always,
            standing_target=a.standing_target or b.standing_target,
            always_scope=a.always_scope if a.always_scope == b.always_scope else None,
        )
    return a


def write_targets(s: PermissionSettings, call: ToolCallInfo) -> list[str]:
    """Every path a WRITE_LOCAL call writes, as the settings say to find them."""
    if s.write_paths is not None:
        return [p for p in (s.write_paths(call) or ()) if p]
    if call.name == "git_commit":
        return _commit_writes(call)
    return default_write_paths(call)


# --------------------------------------------------------------------- decide

def decide(s: PermissionSettings, grants: Grants, call: ToolCallInfo, *,
           shell_folder: str | None = None) -> Decision:
    """The verdict on ``call`` under the settings ``s`` and the ``grants``.
    ``shell_folder``: where the session's shell is (an approved ``cd``), if
    elsewhere than the workspace."""
    if call.always_ask:  # before any class, rule or mode could let it run
        return _always_ask(s, call)
    if call.persists and s.mode.read_only:
        return Decision(
            allowed=False,
            reason=(
                f"{s.mode.value} mode is read-only: {call.name} would save it for "
                "later sessions, which this mode does not allow. Say it in your reply "
                "instead; in another mode it can be saved."
            ),
        )
    base = s.risk_of(call)
    decision = _decide(s, grants, call, base, shell_folder)
    raised = s.risk_raises.get(call.name)
    if raised is not None and raised is not base:
        decision = stricter(decision, _decide(s, grants, call, raised, shell_folder))
    return decision


def _decide(s: PermissionSettings, grants: Grants, call: ToolCallInfo, risk: RiskClass,
            folder: str | None) -> Decision:
    mode = s.mode
    reads = (s.read_paths or default_read_paths)(call)
    if reads and call.name in GIT_READ_TOOLS:
        data, unclear = _git_data_reads(s, reads[0])
        if unclear is not None:
            reason = f"{call.name}: git would read repository data that cannot be told ({unclear})"
            if mode in _ASKS_NOT_REFUSES:
                return Decision(allowed=False, reason=reason)
            return Decision(allowed=False, needs_user=True, reason=reason)
        reads = [*reads, *data, *_git_named_files(call, reads[0])]
    if risk is RiskClass.READ:
        if call.risk is RiskClass.WRITE_LOCAL:
            # re-classified as a read by the user: still never the app's own state
            refusal = _state_refusal(s, call)
            if refusal is not None:
                return refusal
        if reads is None:
            return Decision(allowed=True, reason="read-only tool", rule="risk:read")
        return _read(s, call, reads)
    target = (call.target or call.tool_key) if risk is RiskClass.EXTERNAL else None
    if mode.read_only:
        kind = risk.value.replace("_", " ")
        return Decision(
            allowed=False,
            reason=(
                f"{mode.value} mode is read-only: {call.name} ({kind}) is not allowed. "
                "Switch to another mode to let it run."
            ),
            standing_target=target,
        )
    if risk is RiskClass.WRITE_LOCAL:
        decision = _write(s, grants, call)
    elif risk is RiskClass.EXEC:
        decision = _exec(s, grants, call, folder)
    else:
        decision = _external(s, grants, call, target)
    if risk is not RiskClass.WRITE_LOCAL and call.risk is RiskClass.WRITE_LOCAL:
        refusal = _state_refusal(s, call)
        if refusal is not None:
            return refusal
    if reads is not None:  # a reading tool the user made stricter: the read fence holds too
        decision = stricter(decision, _read(s, call, reads))
    return decision


def _always_ask(s: PermissionSettings, call: ToolCallInfo) -> Decision:
    mode = s.mode
    if mode.read_only:
        return Decision(
            allowed=False,
            reason=(
                f"{mode.value} mode is read-only: {call.name} is not allowed. "
                "Switch to another mode to let it run."
            ),
        )
    what = call.explained.strip() or f"{call.name} acts later, on its own"
    return Decision(
        allowed=False, needs_user=True,
        reason=f"{what.rstrip('.')}. This always needs your approval, in every mode.",
    )


# ---------------------------------------------------------------------- reads

def _read(s: PermissionSettings, call: ToolCallInfo, raws: Sequence[str]) -> Decision:
    ws = s.workspace
    outside: list[str] = []
    sensitive: list[str] = []
    inside: Path | None = None
    for raw in raws:
        bad = fence.not_a_path(raw)
        if bad is not None:
            return Decision(allowed=False, reason=f"{call.name}: {bad}")
        forms, resolved = fence.forms_and_real(raw, ws)
        root = None if resolved is None else s.read_root(resolved)
        if root is None:
            outside.append(str(resolved) if resolved is not None else raw)
        elif inside is None:
            inside = root
        why = fence.sensitive_reason(forms, s.sensitive, ws)
        if why is None and root is not None and resolved is not None and _hard_linked(resolved):
            why = _LINKED_READ.format(path=resolved)
        if why is not None:
            sensitive.append(why)
    if outside:
        where = ", ".join(outside)
        reason = (
            f"{call.name} would read {where}, outside the folders this session may read "
            "(the workspace, granted folders and attached files)"
        )
        if sensitive:
            reason += "; " + "; ".join(sensitive)
        if s.mode in _ASKS_NOT_REFUSES or s.outside_roots == "deny":
            return Decision(
                allowed=False,
                reason=reason + ". Use request_directory to ask the user for access to "
                "the folder.",
            )
        return Decision(allowed=False, needs_user=True, reason=reason)
    if sensitive:
        return Decision(
            allowed=False,
            needs_user=True,
            reason="; ".join(sensitive) + ": reading it always needs your approval",
        )
    return Decision(allowed=True, reason=f"read-only tool, inside {inside}", rule="risk:read")


# --------------------------------------------------------------------- writes

def _state_refusal(s: PermissionSettings, call: ToolCallInfo) -> Decision | None:
    """A refusal when the call would write a URL or the app's own state."""
    for raw in write_targets(s, call):
        refusal = _refuse_state(call, raw, fence.path_forms(raw, s.workspace), s.protected,
                                s.anchors)
        if refusal is not None:
            return refusal
    return None


def _refuse_state(
    call: ToolCallInfo, raw: str, forms: Sequence[Path], protected: Sequence[str],
    anchors: Sequence[Path] = (),
) -> Decision | None:
    bad = fence.not_a_path(raw)
    if bad is not None:
        return Decision(allowed=False, reason=f"{call.name}: {bad}")
    why = fence.app_state_reason(forms, protected, anchors)
    if why is not None:
        return Decision(
            allowed=False,
            reason=(
                f"{call.name} may never change OpenWorker's own settings or state, "
                f"in any mode: {why}. The user changes them in Settings"
            ),
        )
    return None


def _write(s: PermissionSettings, grants: Grants, call: ToolCallInfo) -> Decision:
    raws = write_targets(s, call)
    if not raws:
        return Decision(
            allowed=False,
            needs_user=True,
            reason=(
                f"{call.name} changes files but does not say where, so it cannot be "
                "checked against the writable roots"
            ),
        )
    ws, roots, mode = s.workspace, s.writable_roots, s.mode
    inside: list[tuple[Path, Path]] = []
    outside: list[str] = []
    git_control: list[str] = []
    for raw in raws:
        forms, resolved = fence.forms_and_real(raw, ws)
        refusal = _refuse_state(call, raw, forms, s.protected, s.anchors)
        if refusal is not None:
            return refusal
        if call.name in FILE_WRITE_TOOLS and (
            fence.names_a_folder(raw)
            or (resolved is not None and (resolved in roots or resolved.is_dir()))
        ):
            return Decision(
                allowed=False,
                reason=(
                    f"{call.name}: {resolved or raw} is a folder, not a file. Give the "
                    "path of a file inside it (e.g. notes/todo.md)"
                ),
            )
        root = next((r for r in roots if resolved and resolved.is_relative_to(r)), None)
        if resolved is None or root is None:
            outside.append(str(resolved) if resolved is not None else raw)
        else:
            inside.append((resolved, root))
        # git metadata (``.git`` and anything in it, another repository's data
        # folder, ``.gitmodules``…): git obeys it, so it can run programs
        why = fence.git_metadata_reason(forms)
        if why is not None:
            git_control.append(why)
    linked = [str(p) for p, _ in inside if _hard_linked(p)]
    if outside:
        where = ", ".join(outside)
        allowed_roots = ", ".join(str(r) for r in roots) or "none"
        reason = (
            f"{call.name} would write outside the writable roots: {where} "
            f"(writable roots: {allowed_roots})"
        )
        if mode is PermissionMode.AUTO or s.outside_roots == "deny":
            return Decision(
                allowed=False,
                reason=reason + ". Add the folder as a writable root to allow it.",
            )
        return Decision(allowed=False, needs_user=True, reason=reason)
    paths = ", ".join(str(p) for p, _ in inside)
    if linked:
        return Decision(
            allowed=False,
            needs_user=True,
            reason=(
                f"{call.name} writes {', '.join(linked)}, a file with other hard links "
                "that may live outside the writable roots"
            ),
        )
    if git_control:
        return Decision(
            allowed=False, needs_user=True,
            reason=f"{call.name} writes {'; '.join(git_control)}",
        )
    if mode is PermissionMode.AUTO:
        return Decision(allowed=True, reason=f"auto mode, inside {inside[0][1]}", rule="mode:auto")
    if mode is PermissionMode.CUSTOM and call.name in s.auto_allow:
        return Decision(
            allowed=True, reason=f"auto_allow, inside {inside[0][1]}",
            rule=f"auto_allow:{call.name}",
        )
    written = [p for p, _ in inside]
    held = grants.write_folder_for(call.session_id, written)
    if held is not None:
        return Decision(allowed=True, reason=f"you allowed writes in {held} for this session",
                        rule=f"session:always_folder:{held}")
    # "always for this folder": the one folder every written file is in (inside the
    # writable roots, never the app's own state or git's data: those were refused
    # or asked about above); not in a scheduled task's run, whose session ends with it
    folders = {p.parent for p in written}
    offer = str(folders.pop()) if len(folders) == 1 and not grants.task_id else None
    return Decision(allowed=False, needs_user=True, reason=f"{call.name} writes {paths}",
                    always_scope=offer)


# ---------------------------------------------------------------------- shell

def _exec(s: PermissionSettings, grants: Grants, call: ToolCallInfo,
          folder: str | None) -> Decision:
    command = command_of(call, s.command_arg)
    if command is None:
        return Decision(
            allowed=False, needs_user=True, reason=f"{call.name} runs a program (no command given)"
        )
    rule = grants.task_command_rule(call, command)
    if rule is not None:
        return Decision(
            allowed=True,
            reason="you allowed this exact command for this scheduled task",
            rule=rule.label,
        )
    if grants.command_allowed(call.session_id, command):
        return Decision(
            allowed=True,
            reason="you allowed this exact command for this session",
            rule="session:always_command",
        )
    # The session shell may be elsewhere (an approved ``cd``): relative paths, and
    # the folder a command reads by default (``ls``, ``grep -r``), are judged there.
    path_check = shell_path_check(s, folder)
    git_check = _shell_git_check(s, folder)
    prefixes = grants.command_prefixes(call.session_id)
    verdict = check_command(
        command, [*s.shell_allowlist, *prefixes], path_check=path_check, git_check=git_check,
    )
    if verdict.auto and folder and (away := path_check(folder)):
        return Decision(
            allowed=False, needs_user=True,
            reason=f"{call.name} `{command}`: the shell is in {folder}: {away}",
        )
    if verdict.auto and verdict.entry in prefixes:
        return Decision(allowed=True,
                        reason=f"you allowed commands starting with `{verdict.entry}` for this session",
                        rule=f"session:always_prefix:{verdict.entry}")
    if verdict.auto:
        return Decision(allowed=True, reason=verdict.reason, rule=f"allowlist:{verdict.entry}")
    # "always for commands starting with …": only when the prefix alone would let this
    # very command run (the rest of it is harmless), the shell is where it may read,
    # and not in a scheduled task's run (its session ends with it)
    prefix = command_prefix(command)
    if prefix is not None and (grants.task_id or (folder and path_check(folder))
                               or not check_command(command, [prefix], path_check=path_check,
                                                    git_check=git_check).auto):
        prefix = None
    return Decision(
        allowed=False, needs_user=True, reason=f"{call.name} `{command}`: {verdict.reason}",
        always_scope=prefix,
    )


def shell_path_check(s: PermissionSettings, folder: str | None = None
                     ) -> Callable[[str], str | None]:
    """For an allowlisted command's path arguments (relative ones resolve against
    ``folder``, where the session shell is, or the workspace): why one must ask,
    or ``None``."""
    ws = s.workspace
    base = Path(folder) if folder else ws

    def problem(raw: str) -> str | None:
        if fence.url_scheme(raw):
            return None  # a URL argument names no file here
        forms, resolved = fence.forms_and_real(raw, base)
        if resolved is None or s.read_root(resolved) is None:
            return (
                f"{raw} is outside the folders this session may read "
                "(the workspace, granted folders and attached files)"
            )
        why = fence.sensitive_reason(forms, s.sensitive, ws)
        if why is None and _hard_linked(resolved):
            why = _LINKED_READ.format(path=resolved)
        if why is None:  # the program may write it (cp, mv, tee…): never own state
            state = fence.app_state_reason(forms, s.protected, s.anchors)
            if state is not None:
                why = f"{state}; OpenWorker's own settings are never changed by a command"
        if why is None:
            git = fence.git_metadata_reason(forms)
            if git is not None:
                why = git
        return why

    return problem


# ------------------------------------------------------------------------ git

def _git_data_reads(s: PermissionSettings, raw: str) -> tuple[list[str], str | None]:
    """The folders a git tool reads the repository at ``raw`` from (its data
    folder, common folder, alternates), found as the tool's git finds them (it
    looks no higher than the workspace), and what could not be told."""
    ws = s.workspace
    repo = fence.resolved(raw, ws)
    if repo is None or fence.not_a_path(raw):
        return [], None
    if not repo.is_dir():
        repo = repo.parent
    real_ws = fence.resolved(".", ws) or ws
    ceiling = real_ws.parent if repo.is_relative_to(real_ws) else repo.parent
    loc = gitdirs.git_locations(repo, ceiling)
    return [str(p) for p in loc.folders()], loc.unclear


def _shell_git_check(s: PermissionSettings, folder: str | None = None
                     ) -> Callable[[str, str | None], str | None]:
    """For an allowlisted git command run from ``start`` (relative to ``folder``,
    where the session shell is, or the workspace; with ``--git-dir`` perhaps):
    why it must ask, or ``None``. Every folder git would read the repository from
    must be inside the read roots and outside the sensitive set, and the
    repository's own settings must name no program (the shell's git looks above
    the workspace, as git does)."""
    ws = s.workspace
    here = Path(folder) if folder else ws

    def problem(start: str, git_dir: str | None) -> str | None:
        base = fence.resolved(start, here)
        if base is None:
            return f"git's folder {start} cannot be found"
        explicit = fence.resolved(git_dir, base) if git_dir is not None else None
        if git_dir is not None and explicit is None:
            return f"git's data folder {git_dir} cannot be found"
        loc = gitdirs.git_locations(base, None, explicit)
        if loc.unclear:
            return f"git would read repository data that cannot be told ({loc.unclear})"
        for data in loc.folders():
            if s.read_root(data) is None:
                return (f"git would read the repository data at {data}, outside the "
                        "folders this session may read")
            why = fence.sensitive_reason([data], s.sensitive, ws)
            if why is not None:
                return why
        return gitdirs.config_programs(loc)

    return problem


# -------------------------------------------------------------------- external

def _external(s: PermissionSettings, grants: Grants, call: ToolCallInfo,
              target: str | None) -> Decision:
    mode = s.mode
    if mode is PermissionMode.AUTO:
        return Decision(allowed=True, reason="auto mode", rule="mode:auto", standing_target=target)
    if mode is PermissionMode.CUSTOM and call.name in s.auto_allow:
        return Decision(
            allowed=True, reason="listed in auto_allow", rule=f"auto_allow:{call.name}",
            standing_target=target,
        )
    if target:
        rule = grants.target_rule(call, target)
        if rule is not None:
            return Decision(
                allowed=True,
                reason=f"standing rule ({rule.scope})",
                rule=rule.label,
                standing_target=target,
            )
    where = f" ({call.target})" if call.target else ""
    return Decision(
        allowed=False,
        needs_user=True,
        reason=f"{call.name} acts outside this computer{where}",
        can_always=bool(target),
        standing_target=target,
    )
