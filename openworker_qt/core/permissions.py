"""The permission engine: may this tool call run, must the user be asked, or is it refused?

:class:`PermissionEngine` implements the engine's :class:`~openworker_qt.core.approvals.Decider`.
:meth:`~PermissionEngine.evaluate` is a pure function of the call and the *current*
settings — mode, writable roots, shell allowlist, ``auto_allow``, risk overrides and
standing rules are all re-read on every check, so a change (a root added at runtime,
a rule revoked from the CLI) takes effect on the next call. The only state it writes
is a use of a count-bounded standing rule, spent idempotently per call id.

Decision table (``ask`` = ``needs_user``; ``deny`` = refused without a prompt)::

    risk         discuss/plan   interactive             custom                  auto
    READ         allow          allow                   allow                   allow
    WRITE_LOCAL  deny (1)       in root: ask            in root: allow if       in root: allow
                                outside: ask (2)        auto_allow, else ask    outside: deny
                                                        outside: ask (2)
    EXEC         deny (1)       allowlisted or          (same as interactive:   (same as interactive)
                                remembered command:     auto_allow never
                                allow; else ask         covers shell)
    EXTERNAL     deny (1)       standing rule: allow    auto_allow: allow       allow
                                else ask (3)            rule: allow, else ask

1. The reason says the mode is "read-only"; plan mode therefore also ignores
   standing rules.
2. A write outside the writable roots is never allowed without a human: in auto it
   is denied; in interactive and custom mode the user is asked, with a reason that
   says plainly that the path is *outside the writable roots* (the approval covers
   that one call only — no "always" is offered for writes). Pass
   ``outside_roots="deny"`` to refuse such writes in every mode instead.
   A write whose destination cannot be told (a WRITE_LOCAL tool without a target
   argument), and a write to an existing file with other hard links (its other
   names may be outside the roots), always ask — in auto mode too.
3. ``can_always`` (an "always" answer may be offered) is set only for EXTERNAL calls
   with a target; the answer becomes a session-scoped standing rule bound to that
   exact target. ``standing_target`` is set on every EXTERNAL decision with a target.

Shell commands run without asking only through the allowlist (see
:mod:`~openworker_qt.core.shell_policy`) or an "always this command" answer, which is
remembered for that exact command string, in that session, in memory (a restart
forgets it). This holds in auto mode too: an arbitrary command could write anywhere,
which would break auto mode's promise that writes stay inside the writable roots.
No standing rule ever covers a shell command or a local write.

Paths are resolved like the file tools resolve them (``~`` expanded, relative to the
session workspace, symlinks and ``..`` resolved) before they are compared with the
resolved roots. (The check and the write are separate steps; a symlink swapped in
between is outside this module's reach.)
"""

from __future__ import annotations

import enum
import os
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, TypeAlias, TypeVar

from openworker_qt.core.approvals import ApprovalOutcome, Decision, ToolCallInfo
from openworker_qt.core.risk import RiskClass, parse_risk
from openworker_qt.core.shell_policy import DEFAULT_ALLOWED_COMMANDS, check_command
from openworker_qt.core.standing_rules import RuleScope, StandingRule, StandingRuleStore

T = TypeVar("T")

Live: TypeAlias = "T | Callable[[], T]"
"""A setting given either as a value (a mutable list is re-read on every check)
or as a zero-argument callable called on every check."""

PathLike: TypeAlias = Path | str


class PermissionMode(enum.StrEnum):
    DISCUSS = "discuss"
    PLAN = "plan"
    INTERACTIVE = "interactive"
    AUTO = "auto"
    CUSTOM = "custom"

    @property
    def read_only(self) -> bool:
        return self in (PermissionMode.DISCUSS, PermissionMode.PLAN)


def parse_mode(value: PermissionMode | str) -> PermissionMode:
    if isinstance(value, PermissionMode):
        return value
    try:
        return PermissionMode(str(value).strip().lower())
    except ValueError as exc:
        names = ", ".join(m.value for m in PermissionMode)
        raise ValueError(f"unknown permission mode {value!r} (expected one of: {names})") from exc


class ConfigLike(Protocol):
    def get(self, dotted: str, default: Any = None) -> Any: ...


def standing_rule_candidate(call: ToolCallInfo) -> str | None:
    """The target an "always" answer would bind to: EXTERNAL calls with a target only."""
    return standing_rule_candidate_for(call.risk, call)


def standing_rule_candidate_for(risk: RiskClass, call: ToolCallInfo) -> str | None:
    if risk is RiskClass.EXTERNAL and call.target:
        return call.target
    return None


def _hard_linked(path: Path) -> bool:
    """An existing regular file with more than one name (writing in place changes them all)."""
    try:
        st = path.stat()
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_nlink > 1


def _live(source: Any) -> Any:
    return source() if callable(source) else source


class PermissionEngine:
    """The :class:`Decider` for all five modes. See the module docstring for the table.

    ``workspace``: the session workspace (relative paths resolve against it).
    ``writable_roots``: extra writable folders (relative ones resolve against the
    workspace); the workspace itself is a root unless ``include_workspace=False``.
    ``shell_allowlist``, ``auto_allow``, ``risk_overrides`` and ``mode``: as in the
    ``[permissions]`` config table. Each of these may be a value or a zero-argument
    callable; both are re-read on every check. ``rules``: the standing rule store
    (an in-memory one if omitted). ``task_id``: the scheduled task whose task-scoped
    rules apply (automation runs). ``write_paths``: how to find every path a
    WRITE_LOCAL call writes (default: the call's target).
    """

    def __init__(
        self,
        *,
        workspace: Live[PathLike],
        mode: Live[PermissionMode | str] = PermissionMode.INTERACTIVE,
        writable_roots: Live[Iterable[PathLike]] = (),
        include_workspace: bool = True,
        shell_allowlist: Live[Iterable[str]] = DEFAULT_ALLOWED_COMMANDS,
        auto_allow: Live[Iterable[str]] = (),
        risk_overrides: Live[Mapping[str, RiskClass | str]] | None = None,
        rules: StandingRuleStore | None = None,
        task_id: str | None = None,
        outside_roots: Literal["ask", "deny"] = "ask",
        write_paths: Callable[[ToolCallInfo], Sequence[str] | None] | None = None,
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
        self._allowlist = shell_allowlist
        self._auto_allow = auto_allow
        self._overrides = risk_overrides
        self.rules = rules if rules is not None else StandingRuleStore.in_memory()
        self.task_id = task_id
        self.outside_roots = outside_roots
        self._write_paths = write_paths
        self.command_arg = command_arg
        self._commands: dict[str, set[str]] = {}

    @classmethod
    def from_config(
        cls,
        config: ConfigLike | Callable[[], ConfigLike],
        *,
        workspace: Live[PathLike],
        extra_roots: Live[Iterable[PathLike]] = (),
        rules: StandingRuleStore | None = None,
        task_id: str | None = None,
        mode: Live[PermissionMode | str] | None = None,
        outside_roots: Literal["ask", "deny"] = "ask",
    ) -> PermissionEngine:
        """An engine reading ``[permissions]`` from ``config`` on every check.

        Pass a callable returning the current config to follow reloads. The shell
        allowlist is :data:`DEFAULT_ALLOWED_COMMANDS` plus ``shell_allowlist``;
        ``extra_roots`` (e.g. folders granted at runtime) join ``writable_roots``;
        ``mode`` overrides ``permissions.mode`` (e.g. the session's own mode).
        """

        def cfg() -> ConfigLike:
            return config() if callable(config) else config

        def strings(key: str) -> list[str]:
            value = cfg().get(f"permissions.{key}", [])
            return [str(v) for v in value] if isinstance(value, list) else []

        def roots() -> list[PathLike]:
            return [*strings("writable_roots"), *_live(extra_roots)]

        def overrides() -> Mapping[str, RiskClass | str]:
            value = cfg().get("permissions.risk_overrides", {})
            return value if isinstance(value, Mapping) else {}

        def config_mode() -> str:
            return str(cfg().get("permissions.mode", PermissionMode.INTERACTIVE.value))

        return cls(
            workspace=workspace,
            mode=mode if mode is not None else config_mode,
            writable_roots=roots,
            shell_allowlist=lambda: [*DEFAULT_ALLOWED_COMMANDS, *strings("shell_allowlist")],
            auto_allow=lambda: strings("auto_allow"),
            risk_overrides=overrides,
            rules=rules,
            task_id=task_id,
            outside_roots=outside_roots,
        )

    # ------------------------------------------------------------ live settings

    @property
    def mode(self) -> PermissionMode:
        """The current mode. An unknown value from a live source falls back to interactive."""
        try:
            return parse_mode(_live(self._mode))
        except ValueError:
            return PermissionMode.INTERACTIVE

    @mode.setter
    def mode(self, value: PermissionMode | str) -> None:
        self._mode = parse_mode(value)

    def workspace(self) -> Path:
        return Path(os.path.expanduser(str(_live(self._workspace)))).resolve()

    def writable_roots(self) -> list[Path]:
        """The current writable roots, resolved (symlinks and ``..``), without duplicates."""
        ws = self.workspace()
        raw: list[PathLike] = [ws] if self.include_workspace else []
        raw += [r for r in _live(self._roots) or () if str(r).strip()]
        out: list[Path] = []
        for item in raw:
            resolved = self._resolve(str(item), ws)
            if resolved is not None and resolved not in out:
                out.append(resolved)
        return out

    def shell_allowlist(self) -> list[str]:
        return [str(e) for e in _live(self._allowlist) or ()]

    def auto_allow(self) -> set[str]:
        return {str(e) for e in _live(self._auto_allow) or ()}

    def risk_overrides(self) -> dict[str, RiskClass]:
        out: dict[str, RiskClass] = {}
        for name, value in dict(_live(self._overrides) or {}).items():
            try:
                out[str(name)] = value if isinstance(value, RiskClass) else parse_risk(str(value))
            except ValueError:
                continue  # the config loader reports bad values; an unknown one is ignored here
        return out

    def risk_of(self, call: ToolCallInfo) -> RiskClass:
        """The call's risk class; a user override beats whatever the call was classified as."""
        return self.risk_overrides().get(call.name, call.risk)

    # ------------------------------------------------------------------ paths

    @staticmethod
    def _resolve(raw: str, workspace: Path) -> Path | None:
        try:
            p = Path(os.path.expanduser(raw))
            return (p if p.is_absolute() else workspace / p).resolve()
        except (OSError, RuntimeError, ValueError):
            return None

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

    def _targets_of_write(self, call: ToolCallInfo) -> list[str]:
        if self._write_paths is not None:
            return [p for p in (self._write_paths(call) or ()) if p]
        if call.target:
            return [call.target]
        return []

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
        risk = self.risk_of(call)
        if risk is RiskClass.READ:
            return Decision(allowed=True, reason="read-only tool", rule="risk:read")
        mode = self.mode
        target = call.target if risk is RiskClass.EXTERNAL else None
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
            return self._write(call, mode)
        if risk is RiskClass.EXEC:
            return self._exec(call)
        return self._external(call, mode, target)

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
        roots = self.writable_roots()
        inside: list[tuple[Path, Path]] = []
        outside: list[str] = []
        ws = self.workspace()
        for raw in raws:
            resolved = self._resolve(raw, ws)
            root = next((r for r in roots if resolved and resolved.is_relative_to(r)), None)
            if resolved is None or root is None:
                outside.append(str(resolved) if resolved is not None else raw)
            else:
                inside.append((resolved, root))
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
        if mode is PermissionMode.AUTO:
            return Decision(allowed=True, reason=f"auto mode, inside {inside[0][1]}", rule="mode:auto")
        if mode is PermissionMode.CUSTOM and call.name in self.auto_allow():
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
        if command in self._commands.get(call.session_id, ()):
            return Decision(
                allowed=True,
                reason="you allowed this exact command for this session",
                rule="session:always_command",
            )
        verdict = check_command(command, self.shell_allowlist())
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
        if mode is PermissionMode.CUSTOM and call.name in self.auto_allow():
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
        where = f" ({target})" if target else ""
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
        if not call.target:
            raise ValueError(f"this {call.name} call has no target to bind a standing rule to")
        if scope == "task":
            if not self.task_id:
                raise ValueError("a task rule needs an engine with a task_id")
            scope_id = self.task_id
        else:
            scope_id = call.session_id
        return self.rules.add(
            call.name, call.target, scope=scope, scope_id=scope_id, uses=uses,
            ttl_seconds=ttl_seconds,
        )

    def remember(self, call: ToolCallInfo, outcome: ApprovalOutcome) -> None:
        """Keep what an "always" answer grants; once and deny leave nothing behind."""
        risk = self.risk_of(call)
        if outcome is ApprovalOutcome.ALWAYS and standing_rule_candidate_for(risk, call):
            self.grant(call)
        elif outcome is ApprovalOutcome.ALWAYS_COMMAND and risk is RiskClass.EXEC:
            command = self._command_of(call)
            if command:
                self.allow_command(call.session_id, command)
