"""The permission engine: the session's :class:`~openworker_qt.core.approvals.Decider`.

:class:`PermissionEngine` joins the three parts of a permission decision: the
live settings (:mod:`~openworker_qt.core.permission_settings`, read into a frozen
snapshot for each check, or once for a block of checks), the grants
(:mod:`~openworker_qt.core.grants`) and the decision table
(:func:`~openworker_qt.core.decide.decide`). The table and its notes:
``docs/architecture.md``, "Permissions".
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Literal

from openworker_qt.core import fence
from openworker_qt.core.approvals import ApprovalOutcome, Decision, ToolCallInfo
from openworker_qt.core.decide import command_of, decide
from openworker_qt.core.grants import Grants, standing_rule_candidate, standing_rule_candidate_for
from openworker_qt.core.permission_settings import (
    MODE_NAMES,
    ConfigLike,
    Live,
    LiveSettings,
    PathLike,
    PermissionMode,
    PermissionSettings,
    parse_mode,
)
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.shell_policy import DEFAULT_ALLOWED_COMMANDS, shell_folder
from openworker_qt.core.standing_rules import RuleScope, StandingRule, StandingRuleStore

__all__ = [
    "MODE_NAMES",
    "PermissionEngine",
    "PermissionMode",
    "parse_mode",
    "standing_rule_candidate",
]


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
    :func:`~openworker_qt.core.decide.default_read_paths`).
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
        self.live = LiveSettings(
            workspace=workspace, mode=mode, writable_roots=writable_roots,
            include_workspace=include_workspace, read_roots=read_roots,
            attached_files=attached_files, shell_allowlist=shell_allowlist,
            auto_allow=auto_allow, risk_overrides=risk_overrides, risk_raises=risk_raises,
            protected=protected if protected is not None else fence.app_state_paths,
            sensitive=sensitive if sensitive is not None else fence.sensitive_paths,
            outside_roots=outside_roots, write_paths=write_paths, read_paths=read_paths,
            command_arg=command_arg,
        )
        self.grants = Grants(rules, task_id)
        self._held = threading.local()  # .settings: the snapshot block's reading

    @property
    def rules(self) -> StandingRuleStore:
        return self.grants.rules

    @property
    def task_id(self) -> str | None:
        return self.grants.task_id

    # --------------------------------------------------------------- settings

    def _block(self) -> PermissionSettings | None:
        held: PermissionSettings | None = getattr(self._held, "settings", None)
        return held

    def settings(self) -> PermissionSettings:
        """The settings a check made now reads: the reading of the :meth:`snapshot`
        block this thread is in, else a new one."""
        held = self._block()
        return held if held is not None else self.live.read()

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """Checks made in this block (on this thread, with nothing awaited between
        them, e.g. the calls of one model response) share one reading of the live
        settings — mode, workspace and roots (resolved once), sets, lists and risk
        tables — instead of one each. Every path a call names is still resolved
        afresh by its own check; standing rules are still looked up per call."""
        if self._block() is not None:  # nested: the outer block's reading holds
            yield
            return
        self._held.settings = self.live.read()
        try:
            yield
        finally:
            self._held.settings = None

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
            extra = extra_roots() if callable(extra_roots) else extra_roots
            return [*strings("writable_roots"), *extra]

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

    # ------------------------------------------------------ current settings

    @property
    def mode(self) -> PermissionMode:
        """The current mode. An unknown value from a live source falls back to interactive."""
        held = self._block()
        return held.mode if held is not None else self.live.mode()

    @mode.setter
    def mode(self, value: PermissionMode | str) -> None:
        self.live.set_mode(value)
        if self._block() is not None:  # inside a block: its reading is made again
            self._held.settings = self.live.read()

    @property
    def include_workspace(self) -> bool:
        return self.live.include_workspace

    @property
    def outside_roots(self) -> Literal["ask", "deny"]:
        return self.live.outside_roots

    @property
    def command_arg(self) -> str:
        return self.live.command_arg

    def workspace(self) -> Path:
        held = self._block()
        return held.workspace if held is not None else self.live.workspace()

    def writable_roots(self) -> list[Path]:
        """The current writable roots, resolved (symlinks and ``..``), without duplicates."""
        held = self._block()
        if held is not None:
            return list(held.writable_roots)
        return list(self.live.writable(self.live.workspace()))

    def read_roots(self) -> list[Path]:
        """Folders that may be read: the writable roots plus the read-only grants
        (attached files are separate: see :meth:`attached_files`)."""
        held = self._block()
        if held is not None:
            return list(held.read_roots)
        ws = self.live.workspace()
        return list(self.live.readable(ws, self.live.writable(ws)))

    def attached_files(self) -> list[Path]:
        return list(self.settings().attached_files)

    def protected_paths(self) -> tuple[str, ...]:
        return self.settings().protected

    def sensitive_paths(self) -> tuple[str, ...]:
        held = self._block()
        return held.sensitive if held is not None else self.live.sensitive()

    def shell_allowlist(self) -> list[str]:
        return list(self.settings().shell_allowlist)

    def auto_allow(self) -> set[str]:
        return set(self.settings().auto_allow)

    def risk_overrides(self) -> dict[str, RiskClass]:
        return dict(self.settings().risk_overrides)

    def risk_raises(self) -> dict[str, RiskClass]:
        return dict(self.settings().risk_raises)

    def risk_of(self, call: ToolCallInfo) -> RiskClass:
        """The call's risk class; a user override beats whatever the call was classified as."""
        return self.settings().risk_of(call)

    # ------------------------------------------------------------------ paths

    def resolve_path(self, raw: str) -> Path | None:
        """Where ``raw`` really points (``None`` if it cannot be resolved)."""
        return fence.resolved(raw, self.workspace())

    def root_for(self, raw: str) -> Path | None:
        """The writable root containing ``raw`` once resolved, or ``None``."""
        s = self.settings()
        resolved = fence.resolved(raw, s.workspace)
        return None if resolved is None else s.write_root(resolved)

    def is_writable(self, raw: str) -> bool:
        return self.root_for(raw) is not None

    def read_root_for(self, raw: str) -> Path | None:
        """The read root (or attached file) containing ``raw`` once resolved, or ``None``."""
        s = self.settings()
        resolved = fence.resolved(raw, s.workspace)
        return None if resolved is None else s.read_root(resolved)

    def is_readable(self, raw: str) -> bool:
        return self.read_root_for(raw) is not None

    def sensitive_reason(self, raw: str) -> str | None:
        """Why reading ``raw`` always needs the user, or ``None``."""
        s = self.settings()
        return fence.sensitive_reason(fence.path_forms(raw, s.workspace), s.sensitive,
                                      s.workspace)

    def app_state_reason(self, raw: str) -> str | None:
        """Why ``raw`` may never be written by the agent, or ``None``."""
        s = self.settings()
        return fence.app_state_reason(fence.path_forms(raw, s.workspace), s.protected,
                                      s.anchors)

    # ----------------------------------------------------------------- grants

    def allow_command(self, session_id: str, command: str) -> None:
        """Let this exact command string run without asking for the rest of the session."""
        self.grants.allow_command(session_id, command)

    def remembered_commands(self, session_id: str) -> set[str]:
        return self.grants.remembered_commands(session_id)

    def forget_session(self, session_id: str) -> None:
        self.grants.forget_session(session_id)

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
        return self.grants.grant(call, scope=scope, uses=uses, ttl_seconds=ttl_seconds)

    def remember(self, call: ToolCallInfo, outcome: ApprovalOutcome) -> None:
        """Keep what an "always" answer grants; once and deny leave nothing behind."""
        risk = self.risk_of(call)
        if outcome is ApprovalOutcome.ALWAYS and standing_rule_candidate_for(risk, call):
            # In an automation's run "always" means for this task: a session rule
            # would die with the run.
            self.grant(call, scope="task" if self.task_id else "session")
        elif outcome is ApprovalOutcome.ALWAYS_COMMAND and risk is RiskClass.EXEC:
            command = command_of(call, self.command_arg)
            if command and self.task_id:
                # "Always for this task: this exact command": kept with the task, for
                # its later runs (this run's session holds it too, through the rule).
                self.grants.allow_task_command(call, command)
            elif command:
                self.allow_command(call.session_id, command)
        elif outcome in (ApprovalOutcome.ALWAYS_PREFIX, ApprovalOutcome.ALWAYS_FOLDER):
            self._widen(call, outcome, risk)

    def _widen(self, call: ToolCallInfo, outcome: ApprovalOutcome, risk: RiskClass) -> None:
        """A wider "always": what the engine offers for this call *now* (worked out
        again, so nothing stored with the ask, nor the model, chooses it)."""
        scope = self.evaluate(call).always_scope
        if not scope or self.task_id:
            return
        if outcome is ApprovalOutcome.ALWAYS_PREFIX and risk is RiskClass.EXEC:
            self.grants.allow_prefix(call.session_id, scope)
        elif outcome is ApprovalOutcome.ALWAYS_FOLDER and risk is RiskClass.WRITE_LOCAL:
            self.grants.allow_write_folder(call.session_id, scope)

    # --------------------------------------------------------------- Decider

    def evaluate(self, call: ToolCallInfo) -> Decision:
        return decide(self.settings(), self.grants, call,
                      shell_folder=shell_folder(call.session_id))
