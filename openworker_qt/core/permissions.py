"""The permission engine: may this tool call run, must the user be asked, or is it refused?

:class:`PermissionEngine` implements the engine's :class:`~openworker_qt.core.approvals.Decider`.
The decision table and its notes (read roots, the sensitive set, app state, git
metadata, risk overrides, shell commands, path resolution): ``docs/architecture.md``,
"Permissions".
"""

from __future__ import annotations

import contextlib
import enum
import functools
import os
import stat
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, TypeAlias, TypeVar

from openworker_qt.core import fence, gitdirs
from openworker_qt.core.approvals import ApprovalOutcome, Decision, ToolCallInfo
from openworker_qt.core.patch import touched_paths
from openworker_qt.core.risk import RiskClass, parse_risk
from openworker_qt.core.shell_policy import DEFAULT_ALLOWED_COMMANDS, check_command, shell_folder
from openworker_qt.core.standing_rules import RuleScope, StandingRule, StandingRuleStore
from openworker_qt.domain.mcp_names import override_name

T = TypeVar("T")

Live: TypeAlias = "T | Callable[[], T]"
"""A setting given either as a value (a mutable list is re-read on every check)
or as a zero-argument callable called on every check."""

PathLike: TypeAlias = Path | str

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


class PermissionMode(enum.StrEnum):
    DISCUSS = "discuss"
    PLAN = "plan"
    INTERACTIVE = "interactive"
    AUTO = "auto"
    CUSTOM = "custom"

    @property
    def read_only(self) -> bool:
        return self in (PermissionMode.DISCUSS, PermissionMode.PLAN)


MODE_NAMES: tuple[str, ...] = tuple(m.value for m in PermissionMode)

def parse_mode(value: PermissionMode | str) -> PermissionMode:
    if isinstance(value, PermissionMode):
        return value
    try:
        return PermissionMode(str(value).strip().lower())
    except ValueError as exc:
        names = ", ".join(MODE_NAMES)
        raise ValueError(f"unknown permission mode {value!r} (expected one of: {names})") from exc


class ConfigLike(Protocol):
    def get(self, dotted: str, default: Any = None) -> Any: ...


def standing_rule_candidate(call: ToolCallInfo) -> str | None:
    """The target an "always" answer would bind to: EXTERNAL calls with a target only."""
    return standing_rule_candidate_for(call.risk, call)


def standing_rule_candidate_for(risk: RiskClass, call: ToolCallInfo) -> str | None:
    if risk is RiskClass.EXTERNAL and (call.target or call.tool_key):
        return call.target or call.tool_key  # (a tool without targets: the tool itself)
    return None


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


def _git_control(forms: Sequence[Path]) -> str | None:
    """A path that is git metadata (``.git`` and anything in it, another repository's
    data folder, ``.gitmodules``, ``.gitattributes``…): git obeys it, so it can run programs."""
    return fence.git_metadata_reason(forms)


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


def _live(source: Any) -> Any:
    return source() if callable(source) else source


F = TypeVar("F", bound=Callable[..., Any])


def _in_view(method: F) -> F:
    """Inside :meth:`PermissionEngine.snapshot` (on its thread), ``method`` reads
    its live setting once and every later check in the block reuses it."""
    name = method.__name__

    @functools.wraps(method)
    def read(self: PermissionEngine, *args: Any) -> Any:
        view = self._view
        if view is None or view[0] != threading.get_ident():
            return method(self, *args)
        key = (name, *args)
        try:
            return view[1][key]
        except KeyError:
            value = view[1][key] = method(self, *args)
            return value

    return read  # type: ignore[return-value]


_STRINGS: dict[int, tuple[tuple[Any, ...], tuple[str, ...]]] = {}  # id -> (tuple, strings)


def _strings(paths: Iterable[PathLike] | None) -> tuple[str, ...]:
    """``paths`` as a tuple of strings. A tuple (immutable) given again is converted
    once: the fence then finds its compiled form by identity (a check per call)."""
    if paths is None:
        return ()
    if isinstance(paths, tuple):
        hit = _STRINGS.get(id(paths))
        if hit is not None and hit[0] is paths:  # (the entry holds it: its id is not reused)
            return hit[1]
        out = tuple(str(p) for p in paths)
        if len(_STRINGS) > 16:
            _STRINGS.clear()
        _STRINGS[id(paths)] = (paths, out)
        return out
    return tuple(str(p) for p in paths)


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
        )
    return a


class PermissionEngine:
    """The :class:`Decider` for all five modes. The table: ``docs/architecture.md``.

    ``workspace``: the session workspace (relative paths resolve against it).
    ``writable_roots``: extra writable folders (relative ones resolve against the
    workspace); the workspace itself is a root unless ``include_workspace=False``.
    ``read_roots``: extra folders that may only be read (granted read-only);
    ``attached_files``: files the user attached (readable, one by one; only asked
    for when a read falls outside every root). ``shell_allowlist``, ``auto_allow``,
    ``risk_overrides`` and ``mode``: as in the ``[permissions]`` config table;
    ``risk_raises``: overrides that may only make a call stricter (a workspace's
    own config). ``protected``: the app's own state (default
    :func:`~openworker_qt.core.fence.app_state_paths`); ``sensitive``: reads that
    always ask (default :func:`~openworker_qt.core.fence.sensitive_paths`). Each of
    these may be a value or a zero-argument callable; both are re-read on every
    check. ``rules``: the standing rule store (an in-memory one if omitted).
    ``task_id``: the scheduled task whose task-scoped rules apply (automation runs).
    ``write_paths`` / ``read_paths``: how to find every path a WRITE_LOCAL call
    writes (default: the call's target) / a reading tool reads (default:
    :func:`default_read_paths`).
    """

    def __init__(
        self,
        *,
        workspace: Live[PathLike],
        mode: Live[PermissionMode | str] = PermissionMode.INTERACTIVE,
        writable_roots: Live[Iterable[PathLike]] = (),
        include_workspace: bool = True,
        read_roots: Live[Iterable[PathLike]] = (),
        attached_files: Live[Iterable[PathLike]] = (),
        shell_allowlist: Live[Iterable[str]] = DEFAULT_ALLOWED_COMMANDS,
        auto_allow: Live[Iterable[str]] = (),
        risk_overrides: Live[Mapping[str, RiskClass | str]] | None = None,
        risk_raises: Live[Mapping[str, RiskClass | str]] | None = None,
        protected: Live[Iterable[PathLike]] | None = None,
        sensitive: Live[Iterable[PathLike]] | None = None,
        rules: StandingRuleStore | None = None,
        task_id: str | None = None,
        outside_roots: Literal["ask", "deny"] = "ask",
        write_paths: Callable[[ToolCallInfo], Sequence[str] | None] | None = None,
        read_paths: Callable[[ToolCallInfo], Sequence[str] | None] | None = None,
        command_arg: str = "command",
    ) -> None:
        if outside_roots not in ("ask", "deny"):
            raise ValueError("outside_roots must be 'ask' or 'deny'")
        if not callable(mode):
            mode = parse_mode(mode)
        self._mode: Live[PermissionMode | str] = mode
        self._workspace = workspace
        self._roots = writable_roots
        self.include_workspace = include_workspace
        self._read_roots = read_roots
        self._attached = attached_files
        self._allowlist = shell_allowlist
        self._auto_allow = auto_allow
        self._overrides = risk_overrides
        self._raises = risk_raises
        self._protected: Live[Iterable[PathLike]] = (
            protected if protected is not None else fence.app_state_paths
        )
        self._sensitive: Live[Iterable[PathLike]] = (
            sensitive if sensitive is not None else fence.sensitive_paths
        )
        self.rules = rules if rules is not None else StandingRuleStore.in_memory()
        self.task_id = task_id
        self.outside_roots = outside_roots
        self._write_paths = write_paths
        self._read_paths = read_paths or default_read_paths
        self.command_arg = command_arg
        self._commands: dict[str, set[str]] = {}
        self._view: tuple[int, dict[tuple[Any, ...], Any]] | None = None

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """Checks made in this block (on this thread, with nothing awaited between
        them, e.g. the calls of one model response) share one reading of the live
        settings — mode, workspace and roots (resolved once), sets, lists and risk
        tables — instead of one each. Every path a call names is still resolved
        afresh by its own check; standing rules are still looked up per call."""
        if self._view is not None:  # nested: the outer block's reading holds
            yield
            return
        self._view = (threading.get_ident(), {})
        try:
            yield
        finally:
            self._view = None

    @classmethod
    def from_config(
        cls,
        config: ConfigLike | Callable[[], ConfigLike],
        *,
        workspace: Live[PathLike],
        extra_roots: Live[Iterable[PathLike]] = (),
        extra_read_roots: Live[Iterable[PathLike]] = (),
        attached_files: Live[Iterable[PathLike]] = (),
        protected: Live[Iterable[PathLike]] | None = None,
        sensitive: Live[Iterable[PathLike]] | None = None,
        rules: StandingRuleStore | None = None,
        task_id: str | None = None,
        mode: Live[PermissionMode | str] | None = None,
        outside_roots: Literal["ask", "deny"] = "ask",
    ) -> PermissionEngine:
        """An engine reading ``[permissions]`` from ``config`` on every check.

        Pass a callable returning the current config to follow reloads. The shell
        allowlist is :data:`DEFAULT_ALLOWED_COMMANDS` plus ``shell_allowlist``;
        ``extra_roots`` (e.g. folders granted at runtime) join ``writable_roots``,
        ``extra_read_roots`` (folders granted read-only) and ``attached_files``
        join the read roots; ``mode`` overrides ``permissions.mode`` (e.g. the
        session's own mode). ``permissions.workspace_risk_overrides`` (set by the
        config loader from a workspace file) may only raise a class.
        """

        def cfg() -> ConfigLike:
            return config() if callable(config) else config

        def strings(key: str) -> list[str]:
            value = cfg().get(f"permissions.{key}", [])
            return [str(v) for v in value] if isinstance(value, list) else []

        def roots() -> list[PathLike]:
            return [*strings("writable_roots"), *_live(extra_roots)]

        def table(key: str) -> Callable[[], Mapping[str, RiskClass | str]]:
            def read() -> Mapping[str, RiskClass | str]:
                value = cfg().get(f"permissions.{key}", {})
                return value if isinstance(value, Mapping) else {}

            return read

        def config_mode() -> str:
            return str(cfg().get("permissions.mode", PermissionMode.INTERACTIVE.value))

        return cls(
            workspace=workspace,
            mode=mode if mode is not None else config_mode,
            writable_roots=roots,
            read_roots=extra_read_roots,
            attached_files=attached_files,
            shell_allowlist=lambda: [*DEFAULT_ALLOWED_COMMANDS, *strings("shell_allowlist")],
            auto_allow=lambda: strings("auto_allow"),
            risk_overrides=table("risk_overrides"),
            risk_raises=table("workspace_risk_overrides"),
            protected=protected,
            sensitive=sensitive,
            rules=rules,
            task_id=task_id,
            outside_roots=outside_roots,
        )

    # ------------------------------------------------------------ live settings

    @property
    def mode(self) -> PermissionMode:
        """The current mode. An unknown value from a live source falls back to interactive."""
        return self._current_mode()

    @mode.setter
    def mode(self, value: PermissionMode | str) -> None:
        self._mode = parse_mode(value)
        if self._view is not None:
            self._view[1].clear()

    @_in_view
    def _current_mode(self) -> PermissionMode:
        try:
            return parse_mode(_live(self._mode))
        except ValueError:
            return PermissionMode.INTERACTIVE

    @_in_view
    def workspace(self) -> Path:
        return fence.real_path(os.path.abspath(os.path.expanduser(str(_live(self._workspace)))))

    def _resolved_list(self, raw: Iterable[PathLike], ws: Path) -> list[Path]:
        out: list[Path] = []
        for item in raw:
            if not str(item).strip() or fence.url_scheme(str(item)):
                continue
            resolved = self._resolve(str(item), ws)
            if resolved is not None and resolved not in out:
                out.append(resolved)
        return out

    def writable_roots(self) -> list[Path]:
        """The current writable roots, resolved (symlinks and ``..``), without duplicates."""
        return self._writable(self.workspace())

    def _writable(self, ws: Path) -> list[Path]:
        return list(self._writable_in_view(ws))

    @_in_view
    def _writable_in_view(self, ws: Path) -> tuple[Path, ...]:
        out = [ws] if self.include_workspace else []
        for root in self._resolved_list(list(_live(self._roots) or ()), ws):
            if root not in out:
                out.append(root)
        return tuple(out)

    def read_roots(self) -> list[Path]:
        """Folders that may be read: the writable roots plus the read-only grants
        (attached files are separate: see :meth:`attached_files`)."""
        return self._readable(self.workspace())

    def _readable(self, ws: Path) -> list[Path]:
        return list(self._readable_in_view(ws))

    @_in_view
    def _readable_in_view(self, ws: Path) -> tuple[Path, ...]:
        out = self._writable(ws)
        if ws not in out:
            out.insert(0, ws)  # reading the workspace never needs a grant
        for extra in self._resolved_list(list(_live(self._read_roots) or ()), ws):
            if extra not in out:
                out.append(extra)
        return tuple(out)

    def attached_files(self) -> list[Path]:
        return list(self._attached_in_view())

    @_in_view
    def _attached_in_view(self) -> tuple[Path, ...]:
        return tuple(self._resolved_list(list(_live(self._attached) or ()), self.workspace()))

    @_in_view
    def protected_paths(self) -> tuple[str, ...]:
        return _strings(_live(self._protected))

    @_in_view
    def sensitive_paths(self) -> tuple[str, ...]:
        return _strings(_live(self._sensitive))

    def shell_allowlist(self) -> list[str]:
        return list(self._allowlist_in_view())

    @_in_view
    def _allowlist_in_view(self) -> tuple[str, ...]:
        return tuple(str(e) for e in _live(self._allowlist) or ())

    def auto_allow(self) -> set[str]:
        return set(self._auto_allow_in_view())

    @_in_view
    def _auto_allow_in_view(self) -> frozenset[str]:
        # (an MCP tool may be named by its pair: "mcp:<server>/<tool>")
        return frozenset(override_name(str(e)) for e in _live(self._auto_allow) or ())

    @staticmethod
    def _classes(source: Any) -> dict[str, RiskClass]:
        """By engine name; a ``mcp:<server>/<tool>`` key is for that pair's tool (and
        beats a key by its name: see :mod:`openworker_qt.domain.mcp_names`)."""
        out: dict[str, RiskClass] = {}
        pairs: set[str] = set()
        for name, value in dict(_live(source) or {}).items():
            try:
                risk = value if isinstance(value, RiskClass) else parse_risk(str(value))
            except ValueError:
                continue  # the config loader reports bad values; an unknown one is ignored here
            key = override_name(str(name))
            if key != str(name):
                pairs.add(key)
            elif key in pairs:
                continue
            out[key] = risk
        return out

    def risk_overrides(self) -> dict[str, RiskClass]:
        return dict(self._overrides_in_view())

    @_in_view
    def _overrides_in_view(self) -> dict[str, RiskClass]:
        return self._classes(self._overrides)

    def risk_raises(self) -> dict[str, RiskClass]:
        return dict(self._raises_in_view())

    @_in_view
    def _raises_in_view(self) -> dict[str, RiskClass]:
        return self._classes(self._raises)

    def risk_of(self, call: ToolCallInfo) -> RiskClass:
        """The call's risk class; a user override beats whatever the call was classified as."""
        return self._overrides_in_view().get(call.name, call.risk)

    # ------------------------------------------------------------------ paths

    @staticmethod
    def _resolve(raw: str, workspace: Path) -> Path | None:
        return fence.resolved(raw, workspace)

    def resolve_path(self, raw: str) -> Path | None:
        """Where ``raw`` really points (``None`` if it cannot be resolved)."""
        return self._resolve(raw, self.workspace())

    def root_for(self, raw: str) -> Path | None:
        """The writable root containing ``raw`` once resolved, or ``None``."""
        resolved = self.resolve_path(raw)
        if resolved is None:
            return None
        for root in self.writable_roots():
            if resolved.is_relative_to(root):
                return root
        return None

    def is_writable(self, raw: str) -> bool:
        return self.root_for(raw) is not None

    def read_root_for(self, raw: str) -> Path | None:
        """The read root (or attached file) containing ``raw`` once resolved, or ``None``."""
        ws = self.workspace()
        resolved = self._resolve(raw, ws)
        return None if resolved is None else self._read_root(resolved, self._readable(ws))

    def _read_root(self, resolved: Path, roots: Sequence[Path]) -> Path | None:
        for root in roots:
            if resolved.is_relative_to(root):
                return root
        for attached in self.attached_files():  # asked for last: it reads the history
            if resolved == attached:
                return attached
        return None

    def is_readable(self, raw: str) -> bool:
        return self.read_root_for(raw) is not None

    def sensitive_reason(self, raw: str) -> str | None:
        """Why reading ``raw`` always needs the user, or ``None``."""
        ws = self.workspace()
        return fence.sensitive_reason(fence.path_forms(raw, ws), self.sensitive_paths(), ws)

    def app_state_reason(self, raw: str) -> str | None:
        """Why ``raw`` may never be written by the agent, or ``None``."""
        ws = self.workspace()
        forms = fence.path_forms(raw, ws)
        return fence.app_state_reason(forms, self.protected_paths(), self._anchors(ws))

    def _anchors(self, ws: Path) -> tuple[Path, ...]:
        """Folders whose ``.openworker`` (a symlink perhaps) is OpenWorker's own."""
        return (ws, *self._writable(ws))

    def _targets_of_write(self, call: ToolCallInfo) -> list[str]:
        if self._write_paths is not None:
            return [p for p in (self._write_paths(call) or ()) if p]
        if call.name == "git_commit":
            return _commit_writes(call)
        return default_write_paths(call)

    def _shell_path_check(self, folder: str | None = None) -> Callable[[str], str | None]:
        """For an allowlisted command's path arguments (relative ones resolve against
        ``folder``, where the session shell is, or the workspace): why one must ask,
        or ``None``."""
        ws = self.workspace()
        base = Path(folder) if folder else ws
        roots: list[Path] | None = None
        sensitive: tuple[str, ...] | None = None

        def problem(raw: str) -> str | None:
            nonlocal roots, sensitive
            if fence.url_scheme(raw):
                return None  # a URL argument names no file here
            forms, resolved = fence.forms_and_real(raw, base)
            roots = roots if roots is not None else self._readable(ws)
            if resolved is None or self._read_root(resolved, roots) is None:
                return (
                    f"{raw} is outside the folders this session may read "
                    "(the workspace, granted folders and attached files)"
                )
            sensitive = sensitive if sensitive is not None else self.sensitive_paths()
            why = fence.sensitive_reason(forms, sensitive, ws)
            if why is None and _hard_linked(resolved):
                why = _LINKED_READ.format(path=resolved)
            if why is None:  # the program may write it (cp, mv, tee…): never own state
                state = fence.app_state_reason(forms, self.protected_paths(), self._anchors(ws))
                if state is not None:
                    why = f"{state}; OpenWorker's own settings are never changed by a command"
            if why is None:
                git = fence.git_metadata_reason(forms)
                if git is not None:
                    why = git
            return why

        return problem

    # -------------------------------------------------------------------- git

    def _git_data_reads(self, raw: str) -> tuple[list[str], str | None]:
        """The folders a git tool reads the repository at ``raw`` from (its data
        folder, common folder, alternates), found as the tool's git finds them (it
        looks no higher than the workspace), and what could not be told."""
        ws = self.workspace()
        repo = fence.resolved(raw, ws)
        if repo is None or fence.not_a_path(raw):
            return [], None
        if not repo.is_dir():
            repo = repo.parent
        real_ws = fence.resolved(".", ws) or ws
        ceiling = real_ws.parent if repo.is_relative_to(real_ws) else repo.parent
        loc = gitdirs.git_locations(repo, ceiling)
        return [str(p) for p in loc.folders()], loc.unclear

    def _shell_git_check(self, folder: str | None = None) -> Callable[[str, str | None], str | None]:
        """For an allowlisted git command run from ``start`` (relative to ``folder``,
        where the session shell is, or the workspace; with ``--git-dir`` perhaps):
        why it must ask, or ``None``. Every
        folder git would read the repository from must be inside the read roots and
        outside the sensitive set, and the repository's own settings must name no
        program (the shell's git looks above the workspace, as git does)."""
        ws = self.workspace()
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
            roots = self._readable(ws)
            sensitive = self.sensitive_paths()
            for folder in loc.folders():
                if self._read_root(folder, roots) is None:
                    return (f"git would read the repository data at {folder}, outside the "
                            "folders this session may read")
                why = fence.sensitive_reason([folder], sensitive, ws)
                if why is not None:
                    return why
            return gitdirs.config_programs(loc)

        return problem

    # ------------------------------------------------------------------ shell

    def _command_of(self, call: ToolCallInfo) -> str | None:
        if call.target:
            return call.target
        value = call.arguments.get(self.command_arg)
        return value if isinstance(value, str) else None

    def allow_command(self, session_id: str, command: str) -> None:
        """Let this exact command string run without asking for the rest of the session."""
        self._commands.setdefault(session_id, set()).add(command)

    def remembered_commands(self, session_id: str) -> set[str]:
        return set(self._commands.get(session_id, set()))

    def forget_session(self, session_id: str) -> None:
        self._commands.pop(session_id, None)

    # --------------------------------------------------------------- Decider

    def evaluate(self, call: ToolCallInfo) -> Decision:
        if call.always_ask:  # before any class, rule or mode could let it run
            return self._always_ask(call)
        if call.persists and self.mode.read_only:
            return Decision(
                allowed=False,
                reason=(
                    f"{self.mode.value} mode is read-only: {call.name} would save it for "
                    "later sessions, which this mode does not allow. Say it in your reply "
                    "instead; in another mode it can be saved."
                ),
            )
        base = self.risk_of(call)
        decision = self._evaluate(call, base)
        raised = self._raises_in_view().get(call.name)
        if raised is not None and raised is not base:
            decision = stricter(decision, self._evaluate(call, raised))
        return decision

    def _evaluate(self, call: ToolCallInfo, risk: RiskClass) -> Decision:
        mode = self.mode
        reads = self._read_paths(call)
        if reads and call.name in GIT_READ_TOOLS:
            data, unclear = self._git_data_reads(reads[0])
            if unclear is not None:
                reason = f"{call.name}: git would read repository data that cannot be told ({unclear})"
                if mode in (PermissionMode.AUTO, PermissionMode.DISCUSS, PermissionMode.PLAN):
                    return Decision(allowed=False, reason=reason)
                return Decision(allowed=False, needs_user=True, reason=reason)
            reads = [*reads, *data, *_git_named_files(call, reads[0])]
        if risk is RiskClass.READ:
            if call.risk is RiskClass.WRITE_LOCAL:
                # re-classified as a read by the user: still never the app's own state
                refusal = self._state_refusal(call)
                if refusal is not None:
                    return refusal
            if reads is None:
                return Decision(allowed=True, reason="read-only tool", rule="risk:read")
            return self._read(call, mode, reads)
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
            decision = self._write(call, mode)
        elif risk is RiskClass.EXEC:
            decision = self._exec(call)
        else:
            decision = self._external(call, mode, target)
        if risk is not RiskClass.WRITE_LOCAL and call.risk is RiskClass.WRITE_LOCAL:
            refusal = self._state_refusal(call)
            if refusal is not None:
                return refusal
        if reads is not None:  # a reading tool the user made stricter: the read fence holds too
            decision = stricter(decision, self._read(call, mode, reads))
        return decision

    def _always_ask(self, call: ToolCallInfo) -> Decision:
        mode = self.mode
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

    # ------------------------------------------------------------------ reads

    def _read(self, call: ToolCallInfo, mode: PermissionMode, raws: Sequence[str]) -> Decision:
        ws = self.workspace()
        roots = self._readable(ws)
        sensitive_set = self.sensitive_paths()
        outside: list[str] = []
        sensitive: list[str] = []
        inside: Path | None = None
        for raw in raws:
            bad = fence.not_a_path(raw)
            if bad is not None:
                return Decision(allowed=False, reason=f"{call.name}: {bad}")
            forms, resolved = fence.forms_and_real(raw, ws)
            root = None if resolved is None else self._read_root(resolved, roots)
            if root is None:
                outside.append(str(resolved) if resolved is not None else raw)
            elif inside is None:
                inside = root
            why = fence.sensitive_reason(forms, sensitive_set, ws)
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
            if mode in (PermissionMode.AUTO, PermissionMode.DISCUSS, PermissionMode.PLAN) or (
                self.outside_roots == "deny"
            ):
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

    # ----------------------------------------------------------------- writes

    def _state_refusal(self, call: ToolCallInfo) -> Decision | None:
        """A refusal when the call would write a URL or the app's own state."""
        ws = self.workspace()
        protected = self.protected_paths()
        anchors = self._anchors(ws)
        for raw in self._targets_of_write(call):
            refusal = self._refuse_state(call, raw, fence.path_forms(raw, ws), protected,
                                         anchors)
            if refusal is not None:
                return refusal
        return None

    @staticmethod
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

    def _write(self, call: ToolCallInfo, mode: PermissionMode) -> Decision:
        raws = self._targets_of_write(call)
        if not raws:
            return Decision(
                allowed=False,
                needs_user=True,
                reason=(
                    f"{call.name} changes files but does not say where, so it cannot be "
                    "checked against the writable roots"
                ),
            )
        ws = self.workspace()
        roots = self._writable(ws)
        protected = self.protected_paths()
        inside: list[tuple[Path, Path]] = []
        outside: list[str] = []
        git_control: list[str] = []
        anchors = (ws, *roots)
        for raw in raws:
            forms, resolved = fence.forms_and_real(raw, ws)
            refusal = self._refuse_state(call, raw, forms, protected, anchors)
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
            why = _git_control(forms)
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
            if mode is PermissionMode.AUTO or self.outside_roots == "deny":
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
        if mode is PermissionMode.CUSTOM and call.name in self._auto_allow_in_view():
            return Decision(
                allowed=True, reason=f"auto_allow, inside {inside[0][1]}",
                rule=f"auto_allow:{call.name}",
            )
        return Decision(allowed=False, needs_user=True, reason=f"{call.name} writes {paths}")

    def _exec(self, call: ToolCallInfo) -> Decision:
        command = self._command_of(call)
        if command is None:
            return Decision(
                allowed=False, needs_user=True, reason=f"{call.name} runs a program (no command given)"
            )
        if self.task_id:
            rule = self.rules.match(call.name, command, [("task", self.task_id)],
                                    call=(call.session_id, call.call_id))
            if rule is not None:
                return Decision(
                    allowed=True,
                    reason="you allowed this exact command for this scheduled task",
                    rule=rule.label,
                )
        if command in self._commands.get(call.session_id, ()):
            return Decision(
                allowed=True,
                reason="you allowed this exact command for this session",
                rule="session:always_command",
            )
        # The session shell may be elsewhere (an approved ``cd``): relative paths, and
        # the folder a command reads by default (``ls``, ``grep -r``), are judged there.
        folder = shell_folder(call.session_id)
        path_check = self._shell_path_check(folder)
        verdict = check_command(
            command, self.shell_allowlist(), path_check=path_check,
            git_check=self._shell_git_check(folder),
        )
        if verdict.auto and folder and (away := path_check(folder)):
            return Decision(
                allowed=False, needs_user=True,
                reason=f"{call.name} `{command}`: the shell is in {folder}: {away}",
            )
        if verdict.auto:
            return Decision(allowed=True, reason=verdict.reason, rule=f"allowlist:{verdict.entry}")
        return Decision(
            allowed=False, needs_user=True, reason=f"{call.name} `{command}`: {verdict.reason}"
        )

    def _scopes(self, call: ToolCallInfo) -> list[tuple[RuleScope, str]]:
        scopes: list[tuple[RuleScope, str]] = [("session", call.session_id)]
        if self.task_id:
            scopes.append(("task", self.task_id))
        return scopes

    def _external(self, call: ToolCallInfo, mode: PermissionMode, target: str | None) -> Decision:
        if mode is PermissionMode.AUTO:
            return Decision(allowed=True, reason="auto mode", rule="mode:auto", standing_target=target)
        if mode is PermissionMode.CUSTOM and call.name in self._auto_allow_in_view():
            return Decision(
                allowed=True, reason="listed in auto_allow", rule=f"auto_allow:{call.name}",
                standing_target=target,
            )
        if target:
            rule = self.rules.match(
                call.name, target, self._scopes(call), call=(call.session_id, call.call_id)
            )
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

    def grant(
        self,
        call: ToolCallInfo,
        *,
        scope: RuleScope = "session",
        uses: int | None = None,
        ttl_seconds: float | None = None,
    ) -> StandingRule:
        """Add a standing rule for ``call``'s tool and exact target.

        ``scope="task"`` binds it to this engine's ``task_id`` (an automation run's
        "always for this task"); ``uses`` / ``ttl_seconds`` bound it ("5 times in the
        next 2 hours"). Raises :class:`ValueError` for anything but an EXTERNAL call
        with a target: no standing rule ever covers a shell command or a local write.
        """
        if self.risk_of(call) is not RiskClass.EXTERNAL:
            raise ValueError(f"{call.name} is not an external action; it cannot get a standing rule")
        target = call.target or call.tool_key
        if not target:
            raise ValueError(f"this {call.name} call has no target to bind a standing rule to")
        if scope == "task":
            if not self.task_id:
                raise ValueError("a task rule needs an engine with a task_id")
            scope_id = self.task_id
        else:
            scope_id = call.session_id
        return self.rules.add(
            call.name, target, scope=scope, scope_id=scope_id, uses=uses,
            ttl_seconds=ttl_seconds,
        )

    def remember(self, call: ToolCallInfo, outcome: ApprovalOutcome) -> None:
        """Keep what an "always" answer grants; once and deny leave nothing behind."""
        risk = self.risk_of(call)
        if outcome is ApprovalOutcome.ALWAYS and standing_rule_candidate_for(risk, call):
            # In an automation's run "always" means for this task: a session rule
            # would die with the run.
            self.grant(call, scope="task" if self.task_id else "session")
        elif outcome is ApprovalOutcome.ALWAYS_COMMAND and risk is RiskClass.EXEC:
            command = self._command_of(call)
            if command and self.task_id:
                # "Always for this task: this exact command": kept with the task, for
                # its later runs (this run's session holds it too, through the rule).
                self.rules.add(call.name, command, scope="task", scope_id=self.task_id)
            elif command:
                self.allow_command(call.session_id, command)
