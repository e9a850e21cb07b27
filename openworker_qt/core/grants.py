"""What the user has granted beyond the settings: standing rules and exact commands.

:class:`Grants` is the one mutable part of a permission decision: the standing
rule store (rules for an EXTERNAL tool and exact target, per session or per
scheduled task), the exact shell commands allowed for the rest of a session, and
the session's wider answers: command prefixes (each command still checked as an
allowlisted one) and folders its writes may go to (see ``Decision.always_scope``),
kept in the rule store's :class:`~openworker_qt.core.wider_grants.WiderGrants`.
"""

from __future__ import annotations

from pathlib import Path

from openworker_qt.core.approvals import ToolCallInfo
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.standing_rules import RuleScope, StandingRule, StandingRuleStore


def standing_rule_candidate(call: ToolCallInfo) -> str | None:
    """The target an "always" answer would bind to: EXTERNAL calls with a target only."""
    return standing_rule_candidate_for(call.risk, call)


def standing_rule_candidate_for(risk: RiskClass, call: ToolCallInfo) -> str | None:
    if risk is RiskClass.EXTERNAL and (call.target or call.tool_key):
        return call.target or call.tool_key  # (a tool without targets: the tool itself)
    return None


class Grants:
    """The session grants. ``rules``: the standing rule store (an in-memory one if
    omitted); ``task_id``: the scheduled task whose task-scoped rules apply
    (automation runs)."""

    def __init__(self, rules: StandingRuleStore | None = None, task_id: str | None = None) -> None:
        self.rules = rules if rules is not None else StandingRuleStore.in_memory()
        self.task_id = task_id
        self._commands: dict[str, set[str]] = {}
        self.wider = self.rules.wider  # (shared by every session: Settings lists them)

    # --------------------------------------------------------------- lookups

    def scopes(self, session_id: str) -> list[tuple[RuleScope, str]]:
        scopes: list[tuple[RuleScope, str]] = [("session", session_id)]
        if self.task_id:
            scopes.append(("task", self.task_id))
        return scopes

    def task_command_rule(self, call: ToolCallInfo, command: str) -> StandingRule | None:
        """The rule of this engine's task allowing this exact command, if any."""
        if not self.task_id:
            return None
        return self.rules.match(call.name, command, [("task", self.task_id)],
                                call=(call.session_id, call.call_id))

    def command_allowed(self, session_id: str, command: str) -> bool:
        return command in self._commands.get(session_id, ())

    def target_rule(self, call: ToolCallInfo, target: str) -> StandingRule | None:
        """The standing rule (session or task) for the call's tool and ``target``."""
        return self.rules.match(call.name, target, self.scopes(call.session_id),
                                call=(call.session_id, call.call_id))

    # -------------------------------------------------------------- granting

    def grant(
        self,
        call: ToolCallInfo,
        *,
        scope: RuleScope = "session",
        uses: int | None = None,
        ttl_seconds: float | None = None,
    ) -> StandingRule:
        """A standing rule for the call's tool and exact target (the caller has
        checked the call is EXTERNAL)."""
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

    def allow_task_command(self, call: ToolCallInfo, command: str) -> None:
        """"Always for this task: this exact command": kept with the task, for its
        later runs."""
        if self.task_id:
            self.rules.add(call.name, command, scope="task", scope_id=self.task_id)

    def allow_command(self, session_id: str, command: str) -> None:
        """Let this exact command string run without asking for the rest of the session."""
        self._commands.setdefault(session_id, set()).add(command)

    def remembered_commands(self, session_id: str) -> set[str]:
        return set(self._commands.get(session_id, set()))

    def allow_prefix(self, session_id: str, prefix: str) -> None:
        """Commands starting with ``prefix`` pass the allowlist for the rest of the
        session (their arguments are still checked)."""
        self.wider.add(session_id, "prefix", prefix)

    def command_prefixes(self, session_id: str) -> tuple[str, ...]:
        return self.wider.prefixes(session_id)

    def allow_write_folder(self, session_id: str, folder: str) -> None:
        """Writes inside ``folder`` (a folder within the writable roots) run without
        asking for the rest of the session."""
        self.wider.add(session_id, "folder", str(Path(folder)))

    def write_folder_for(self, session_id: str, paths: list[Path]) -> Path | None:
        """The session's write folder holding every one of ``paths``, if any."""
        for folder in self.wider.folders(session_id):
            if all(p.is_relative_to(folder) for p in paths):
                return folder
        return None

    def forget_session(self, session_id: str) -> None:
        self._commands.pop(session_id, None)
        self.wider.forget(session_id)
