"""The tool step of a turn: parse, authorise and run one model response's calls.

The engine builds a :class:`ToolStep` for each model response that asked for
tools and hands it everything it may use: the session's log (where results are
committed), the tools, the decider, the approver and questioner, the audit
trail, the workspace and the turn's :class:`StopSignal`. :meth:`ToolStep.run`
yields the step's events and, last, a :class:`StepEnd` saying how it ended; the
step never reads or writes the engine. It holds everything between "the model
asked for these calls" and "each call has its result in history": risk and
permission decisions, approvals and questions, concurrent reads, serial
everything-else, the audit trail, interruption and suspension. See ``docs/architecture.md``
for the guarantees.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar, cast

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import (
    ApprovalRequest,
    Decider,
    Decision,
    Questioner,
    QuestionRequest,
    ToolCallInfo,
)
from openworker_qt.core.approvals import Approver as ApproverFn
from openworker_qt.core.approvers import TurnSuspended
from openworker_qt.core.audit import AuditSink
from openworker_qt.core.faults import crash_point
from openworker_qt.core.inbox import args_preview
from openworker_qt.core.messages import (
    INTERRUPTED_RESULT,
    notice,
    tool_result,
)
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.stop import StopRequested, StopSignal, until_stopped
from openworker_qt.core.tool_api import (
    PREPARE_TIMEOUT,
    Tool,
    ToolContext,
    ToolRegistry,
    ToolResult,
)
from openworker_qt.core.tool_calls import (
    DENIED_RESULT,
    RERUN_DENIED_RESULT,
    RERUN_INTERRUPTED_RESULT,
    RERUN_NOBODY_RESULT,
    RERUN_REASON,
    ParsedCall,
    parse_call,
    rerun_key,
    truncate,
)
from openworker_qt.domain.choices import labels_of, prompt_of
from openworker_qt.domain.messages import MessageT, ToolCall
from openworker_qt.domain.text import storable, storable_text

T = TypeVar("T")


class SessionLog(Protocol):
    """Where a step's messages go: ``append`` commits one (and returns what was
    stored); inside ``batch()`` appends commit together when the block ends."""

    def append(self, message: MessageT) -> MessageT: ...

    def batch(self) -> AbstractContextManager[None]: ...

    def writing(self) -> AbstractAsyncContextManager[None]: ...


@dataclass(frozen=True, slots=True)
class StepEnd:
    """How a tool step ended: ``done`` (every call has its result: ask the model
    again), ``interrupted`` (the user stopped; every call has its result) or
    ``suspended`` (parked on the inbox; the open calls wait for a resume)."""

    status: Literal["done", "interrupted", "suspended"]


class ToolStep:
    """Runs one model response's tool calls (see the module docstring).

    Built per step with explicit collaborators; :meth:`run` yields events, then a
    :class:`StepEnd`. ``started`` holds the ids of calls whose tool began to run
    (the engine's catch-all says those may have taken effect); ``waiting_for_user``
    is true while an approval or a question is open.
    """

    def __init__(
        self,
        *,
        session_id: str,
        log: SessionLog,
        tools: ToolRegistry,
        decider: Decider,
        approver: ApproverFn | None,
        questioner: Questioner | None,
        audit: AuditSink | None,
        workspace: Path,
        tool_state: dict[str, Any],
        stop: StopSignal,
        risk_overrides: dict[str, RiskClass] | None = None,
        step_id: str | None = None,
    ) -> None:
        self.session_id = session_id
        self.log = log
        self.tools = tools
        self.decider = decider
        self.approver = approver
        self.questioner = questioner
        self.audit = audit
        self.workspace = workspace
        self.tool_state = tool_state
        self.stop = stop
        self.risk_overrides = risk_overrides or {}
        self.step_id = step_id
        self.started: set[str] = set()
        self.answered: set[str] = set()
        self.running_since: dict[str, float] = {}  # call id → when it began to run (monotonic)
        self.waiting_for_user = False

    def _started_before(self, call: ParsedCall) -> bool:
        return self.audit is not None and self.audit.was_started(
            self.session_id, call.id, call_key=call.key
        )

    async def _ask_user(self, ask: Callable[[Any], Awaitable[T]], request: Any) -> T:
        """Await an approver or questioner. On a user's stop the ask is withdrawn
        (``ask.cancel(request)``, e.g. the inbox item is resolved "cancelled"); a
        cancelled task (app quitting) leaves it parked, to be resumed next start."""
        self.waiting_for_user = True
        try:
            return await until_stopped(self.stop, ask(request))
        except StopRequested:
            cancel = getattr(ask, "cancel", None)
            if callable(cancel):
                with contextlib.suppress(Exception):
                    cancel(request)
            raise
        finally:
            self.waiting_for_user = False

    def _audit(self, call: ParsedCall, stage: str, *, rule: str | None = None, **detail: Any) -> None:
        if self.audit is not None:
            self.audit.record(
                self.session_id, call.id, call.name, stage, rule=rule, call_key=call.key, **detail
            )

    def _one_reading(self) -> AbstractContextManager[Any]:
        """Decisions made together (nothing awaited between them) read the decider's
        live settings once, when it can (``PermissionEngine.snapshot``)."""
        snapshot = getattr(self.decider, "snapshot", None)
        return snapshot() if callable(snapshot) else contextlib.nullcontext()

    def _info(self, call: ParsedCall) -> ToolCallInfo:
        tool = call.tool
        target = tool.target(call.arguments) if tool else None
        always = bool(tool and tool.always_ask)
        return ToolCallInfo(
            session_id=self.session_id,
            call_id=call.id,
            name=call.name,
            arguments=call.arguments,
            risk=call.risk,
            target=target,
            needs_approval=bool(tool and tool.needs_approval),
            always_ask=always,
            explained=self._explained(tool, call.arguments, call.facts) if always else "",
            persists=bool(tool and tool.persists),
            tool_key=tool.tool_key if tool else None,
        )

    def _explained(self, tool: Tool | None, arguments: dict[str, Any],
                   facts: dict[str, Any]) -> str:
        """What the call would do in the tool's own words (``Tool.explain``); empty
        when it has none or cannot say (the card then shows the generic reason)."""
        if tool is None or tool.explain is None:
            return ""
        ctx = ToolContext(session_id=self.session_id, workspace=self.workspace,
                          state=self.tool_state, facts=facts)
        try:
            return storable_text(str(tool.explain(arguments, ctx) or ""))
        except Exception:
            return ""

    async def _prepare(self, call: ParsedCall) -> None:
        """The facts the card of ``call`` needs (``Tool.prepare``), once, bounded."""
        tool = call.tool
        if tool is None or tool.prepare is None or call.facts or call.error is not None:
            return
        try:
            facts = await until_stopped(self.stop, asyncio.wait_for(
                tool.prepare(call.arguments), PREPARE_TIMEOUT))
        except (StopRequested, asyncio.CancelledError):
            raise
        except Exception:  # a card without the facts is still a card
            return
        call.facts = dict(facts)

    def _finish(
        self,
        call: ParsedCall,
        status: ev.ToolStatus,
        content: str,
        *,
        display: Any = None,
        rule: str | None = None,
        attachments: Sequence[dict[str, Any]] = (),
    ) -> ev.ToolFinished:
        # The event carries what was stored (redacted: a tool output may echo a key).
        # Storable: a tool output may hold a lone surrogate (a file name that is not
        # UTF-8, read with surrogateescape), which SQLite cannot encode.
        since = self.running_since.pop(call.id, None)
        stored = self.log.append(
            tool_result(call.id, call.name, storable_text(truncate(content)), status=status,
                        display=storable(display), rule=rule, attachments=attachments,
                        duration=None if since is None else time.monotonic() - since)
        )
        self.answered.add(call.id)
        self._audit(call, "finished" if status in ("ok", "error") else status, status=status)
        return ev.ToolFinished(
            session_id=self.session_id,
            call_id=call.id,
            name=call.name,
            status=status,
            result=str(stored["content"]),
            display=dict(stored["_display"]) if stored.get("_display") else None,
            rule=rule,
            duration=stored.get("duration"),
        )

    def _running(self, call: ParsedCall) -> ev.ToolStarted:
        """The call begins to run now (its result will say for how long)."""
        self.running_since[call.id] = time.monotonic()
        return ev.ToolStarted(session_id=self.session_id, call_id=call.id, name=call.name)

    def _concurrent(self, call: ParsedCall, decision: Decision) -> bool:
        return (
            call.error is None
            and call.tool is not None
            and call.tool.concurrency_safe
            and call.tool.interaction is None
            and call.risk is RiskClass.READ
            and decision.allowed
        )

    def _parse(self, raw_calls: Sequence[ToolCall]) -> list[ParsedCall]:
        calls = [parse_call(c, self.tools, self.risk_overrides) for c in raw_calls]
        for call in calls:
            call.key = f"{self.step_id}/{call.id}" if self.step_id else call.id
        return calls

    def _propose(self, calls: Sequence[ParsedCall]) -> None:
        for call in calls:
            self._audit(
                call, "proposed", arguments=args_preview(call.arguments),
                risk=call.risk.value, origin=call.tool.origin if call.tool else None,
            )

    def propose(self, raw_calls: Sequence[ToolCall]) -> list[ParsedCall]:
        """Record the calls as proposed, inside the caller's write block (the engine
        stores them with the assistant message that asked for them: one commit);
        pass the result to :meth:`run` as ``proposed``."""
        calls = self._parse(raw_calls)
        self._propose(calls)
        return calls

    async def run(
        self, raw_calls: Sequence[ToolCall], *, resuming: bool = False,
        proposed: list[ParsedCall] | None = None,
    ) -> AsyncIterator[ev.Event | StepEnd]:
        """Run the calls; yield their events, then how the step ended.

        ``resuming``: the calls were left open by an earlier process (nothing is
        proposed again, and a consequential call that had started is confirmed
        before it runs again). ``proposed``: :meth:`propose` already recorded them.
        """
        sid = self.session_id
        if proposed is not None:
            calls = proposed
        else:
            calls = self._parse(raw_calls)
            if not resuming:
                async with self.log.writing():  # one commit for the step's proposals
                    self._propose(calls)
        for call in calls:
            yield ev.ToolProposed(
                session_id=sid,
                call_id=call.id,
                name=call.name,
                arguments=call.arguments,
                risk=call.risk.value,
            )
        i = 0
        reruns: set[str] = set()
        try:
            while i < len(calls):
                if self.stop.requested:
                    raise StopRequested
                call = calls[i]
                if call.error is not None:
                    async with self.log.writing():
                        broken = self._finish(
                            call, "error", f"Error: {call.error}. The tool was not run.")
                    yield broken
                    i += 1
                    continue
                await self._prepare(call)  # (before the write lock: it may go online)
                # Decided, and a batch of reads marked started, in one transaction
                # (a decision may spend a standing rule's use).
                async with self.log.writing():
                    with self._one_reading():
                        decision = self.decider.evaluate(self._info(call))
                        rerun = resuming and call.risk.consequential and self._started_before(call)
                        batch: list[tuple[ParsedCall, Decision]] = []
                        if not rerun and self._concurrent(call, decision):
                            # The reads that follow: decided now, with no await between.
                            batch.append((call, decision))
                            for nxt in calls[i + 1:]:
                                if nxt.error is not None:
                                    break
                                d = self.decider.evaluate(self._info(nxt))
                                if not self._concurrent(nxt, d):
                                    break
                                batch.append((nxt, d))
                    if rerun:
                        decision = Decision(allowed=False, needs_user=True, reason=RERUN_REASON)
                        self._audit(call, "rerun_confirmation")
                        reruns.add(call.id)
                    for started, allowed in batch:
                        self._audit(started, "auto_allowed", rule=allowed.rule)
                        self._audit(started, "started")
                        self.started.add(started.id)
                if rerun:
                    async for event in self._run_serial(call, decision, rerun=True):
                        yield event
                    i += 1
                    continue
                if batch:
                    async for event in self._run_batch(batch):
                        yield event
                    i += len(batch)
                    continue
                async for event in self._run_serial(call, decision):
                    yield event
                i += 1
        except TurnSuspended as exc:
            async with self.log.writing():
                self.log.append(notice("suspended", str(exc)))
            yield ev.NoticeAdded(session_id=sid, kind="suspended", text=str(exc))
            yield StepEnd("suspended")
            return
        except StopRequested:
            async with self.log.writing():
                closed = [
                    self._finish(call, "interrupted", RERUN_INTERRUPTED_RESULT
                                 if call.id in reruns else INTERRUPTED_RESULT)
                    for call in calls if call.id not in self.answered
                ]
                self.log.append(notice("interrupted", "Stopped by user."))
            for event in closed:
                yield event
            yield ev.Interrupted(session_id=sid)
            yield StepEnd("interrupted")
            return
        yield StepEnd("done")

    async def _run_batch(self, batch: list[tuple[ParsedCall, Decision]]) -> AsyncIterator[ev.Event]:
        """Run reads already marked started (committed with their decisions)."""
        sid = self.session_id
        tasks: dict[asyncio.Task[ToolResult], tuple[ParsedCall, Decision]] = {}
        # What the running reads report, each piece with its call (shown in its card).
        pieces: asyncio.Queue[tuple[ParsedCall, str]] = asyncio.Queue()
        for call, decision in batch:
            yield self._running(call)
            assert call.tool is not None
            task = asyncio.ensure_future(self._execute(
                call.tool, call.arguments,
                lambda text, c=call: pieces.put_nowait((c, text))))  # type: ignore[misc]
            tasks[task] = (call, decision)
        pending: set[asyncio.Future[Any]] = set(tasks)
        stop = self.stop.future
        getter: asyncio.Future[Any] | None = None
        try:
            while pending:
                if getter is None:
                    getter = asyncio.ensure_future(pieces.get())
                waiting = pending | {stop, getter}
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    got = [getter.result()]
                    getter = None
                    while not pieces.empty():
                        got.append(pieces.get_nowait())
                    redact = getattr(self.log, "redact", None)
                    for call, text in got:
                        if _batch_task_done(tasks, call):
                            continue  # its result replaces what it reported
                        shown = redact(text) if callable(redact) else text
                        yield ev.ToolProgress(session_id=sid, call_id=call.id,
                                              name=call.name, text=shown)
                    if stop.done() and pending:
                        raise StopRequested
                    continue
                finished: list[ev.ToolFinished] = []
                # Results that arrived together are committed together, then announced.
                async with self.log.writing():
                    for fut in done:
                        if fut is stop:
                            continue
                        pending.discard(fut)
                        call, decision = tasks[fut]  # type: ignore[index]
                        result = cast(ToolResult, fut.result())
                        status: ev.ToolStatus = "error" if result.is_error else "ok"
                        finished.append(self._finish(
                            call, status, result.content, display=result.display,
                            rule=decision.rule, attachments=result.attachments,
                        ))
                for event in finished:
                    yield event
                if stop.done() and pending:
                    raise StopRequested
        finally:
            if getter is not None:
                getter.cancel()
            for fut in pending:
                fut.cancel()
            for fut in pending:
                with contextlib.suppress(BaseException):
                    await fut

    async def _run_serial(
        self, call: ParsedCall, decision: Decision, *, rerun: bool = False
    ) -> AsyncIterator[ev.Event]:
        """Authorise and run one call. ``rerun``: the call started before the app
        stopped; the user is asked (as ``<call id>:rerun``) whether to run it again."""
        sid = self.session_id
        tool = call.tool
        assert tool is not None
        info = self._info(call)
        rule = decision.rule
        user_approved = False
        writing = self.log.writing
        if not decision.allowed and not decision.needs_user:
            async with writing():
                refused = self._finish(call, "denied", f"Not executed: {decision.reason}")
            yield refused
            return
        started = False
        if decision.allowed and not decision.needs_user and tool.interaction is None:
            async with writing():  # allowed and started: one commit
                self._audit(call, "auto_allowed", rule=decision.rule)
                self._audit(call, "started")
                self.started.add(call.id)
            started = True
        elif decision.allowed:
            async with writing():
                self._audit(call, "auto_allowed", rule=decision.rule)
        if decision.needs_user:
            yield ev.PermissionRequired(
                session_id=sid,
                call_id=call.id,
                name=call.name,
                arguments=call.arguments,
                risk=call.risk.value,
                reason=decision.reason,
                target=info.target,
                standing_target=decision.standing_target,
            )
            if self.approver is None:
                async with writing():
                    nobody = self._finish(
                        call, "denied", RERUN_NOBODY_RESULT if rerun else
                        "Not executed: approval is needed and nobody can be asked here."
                    )
                yield nobody
                return
            request = ApprovalRequest(
                session_id=sid,
                call_id=f"{call.id}:rerun" if rerun else call.id,
                tool=call.name,
                arguments=call.arguments,
                risk=call.risk,
                reason=decision.reason,
                target=info.target,
                can_always=decision.can_always,
                standing_target=decision.standing_target,
                always_scope=None if rerun else decision.always_scope,
                call_key=rerun_key(call.key) if rerun else call.key,
                about=tool.description if tool.origin.startswith("mcp:") else "",
            )
            async with writing():
                self._audit(call, "approval_requested", reason=decision.reason)
            crash_point("before_approval_item")
            try:
                answer = await self._ask_user(self.approver, request)
            except (StopRequested, TurnSuspended):
                raise
            except Exception as exc:
                verb = "Not run again: it may already have taken effect, and" if rerun else (
                    "Not executed:")
                async with writing():
                    failed = self._finish(
                        call, "error", f"{verb} asking for approval failed ({exc}).")
                yield failed
                return
            async with writing():
                self._audit(call, "approval_resolved", outcome=answer.value)
                self.decider.remember(info, answer)
                denied = None if answer.allows else self._finish(
                    call, "denied", RERUN_DENIED_RESULT if rerun else DENIED_RESULT)
            if denied is not None:
                yield denied
                return
            user_approved = True
            rule = f"user:{answer.value}"
        if tool.interaction is not None:
            async for event in self._interact(call, tool):
                yield event
            return
        if not started:
            async with writing():
                self._audit(call, "started")
                self.started.add(call.id)
        yield self._running(call)
        pieces: asyncio.Queue[str] = asyncio.Queue()
        work: Awaitable[ToolResult] = self._execute(tool, call.arguments, pieces.put_nowait)
        if not (user_approved and self.stop.requested):
            # (When the user approved while the stop arrived, honour the decision they
            # made, then stop before anything else runs.)
            work = until_stopped(self.stop, work)
        result: ToolResult | None = None
        async for out in _with_progress(work, pieces):
            if isinstance(out, ToolResult):
                result = out
            else:  # shown, never stored; redacted like what is stored (piece by piece)
                redact = getattr(self.log, "redact", None)
                text = redact(out) if callable(redact) else out
                yield ev.ToolProgress(session_id=sid, call_id=call.id, name=call.name, text=text)
        assert result is not None
        crash_point("after_tool_before_result")
        status: ev.ToolStatus = "error" if result.is_error else "ok"
        async with writing():
            done = self._finish(call, status, result.content, display=result.display, rule=rule,
                                attachments=result.attachments)
        yield done

    async def _interact(self, call: ParsedCall, tool: Tool) -> AsyncIterator[ev.Event]:
        sid = self.session_id
        kind = tool.interaction or "question"
        args = call.arguments
        prompt = (prompt_of(args) if kind == "question" else
                  str(args.get("plan") or args.get("path") or ""))
        options = labels_of(args) if kind == "question" else ()
        if kind == "plan":
            yield ev.PlanRequested(session_id=sid, call_id=call.id, plan=prompt)
        elif kind == "directory":
            yield ev.DirectoryRequested(
                session_id=sid,
                call_id=call.id,
                path=prompt,
                writable=bool(args.get("writable")),
                reason=str(args.get("reason", "")),
            )
        else:
            yield ev.QuestionRequested(
                session_id=sid, call_id=call.id, question=prompt, options=options
            )
        if self.questioner is None:
            async with self.log.writing():
                nobody = self._finish(call, "error", "Nobody can answer questions in this session.")
            yield nobody
            return
        request = QuestionRequest(
            session_id=sid, call_id=call.id, kind=kind, prompt=prompt, options=options,
            extra={**args, "_tool": call.name}, call_key=call.key,
        )
        answer: str = await self._ask_user(self.questioner, request)
        # Started once answered: while the question is open the call is waiting, not running.
        yield self._running(call)
        self.started.add(call.id)
        handled: ToolResult | str = await self._execute(tool, {**args, "_answer": answer})
        result = handled if isinstance(handled, ToolResult) else ToolResult(str(handled))
        async with self.log.writing():
            done = self._finish(call, "error" if result.is_error else "ok", result.content)
        yield done

    async def _execute(
        self, tool: Tool, arguments: dict[str, Any],
        progress: Callable[[str], None] | None = None,
    ) -> ToolResult:
        sensitive = getattr(self.decider, "sensitive_paths", None)
        ctx = ToolContext(session_id=self.session_id, workspace=self.workspace,
                          state=self.tool_state, progress=progress,
                          sensitive=tuple(sensitive()) if callable(sensitive) else None)
        started = time.perf_counter()
        try:
            out = await tool.handler(arguments, ctx)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            return ToolResult(f"Error: {tool.name} failed: {type(exc).__name__}: {exc}", is_error=True)
        result = out if isinstance(out, ToolResult) else ToolResult(str(out))
        if result.display is None:
            return result
        display = dict(result.display)
        display.setdefault("elapsed_ms", round((time.perf_counter() - started) * 1000, 1))
        return ToolResult(result.content, result.is_error, display, result.attachments)


def _batch_task_done(
    tasks: dict[asyncio.Task[ToolResult], tuple[ParsedCall, Decision]], call: ParsedCall
) -> bool:
    """Whether the task running ``call`` in a batch has ended."""
    return any(task.done() for task, (c, _d) in tasks.items() if c is call)


async def _with_progress(
    work: Awaitable[ToolResult], pieces: asyncio.Queue[str]
) -> AsyncIterator[ToolResult | str]:
    """The output pieces a running tool reports (joined, as they arrive), then its
    result. What ``work`` raises (StopRequested, say) is raised here; when this
    generator is closed or cancelled first, ``work`` is cancelled and awaited."""
    task = asyncio.ensure_future(work)
    try:
        while not task.done():
            getter = asyncio.ensure_future(pieces.get())
            try:
                await asyncio.wait({task, getter}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                if not getter.done():
                    getter.cancel()
            got = [getter.result()] if getter.done() and not getter.cancelled() else []
            while not pieces.empty():
                got.append(pieces.get_nowait())
            if got and not task.done():  # once the result is in, it replaces them
                yield "".join(got)
        yield task.result()
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
