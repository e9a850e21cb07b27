"""Every HTTP connector against a local stub of its service (real HTTP on 127.0.0.1),
through the same six checks: validation shows the identity and keeps the secret
in the keyring, a read tool reads, an action tool parks, is approved and is sent
exactly once, an expired token is reported and marks the connector failed, a 429
is waited out per Retry-After, a 500 is retried for reads and never repeated for
a write. Each connector is a :class:`~tests.connectors.helpers.Case`; the tables
are in test_services.py, test_catalog_a.py and test_catalog_b.py, beside each
set's particular rules."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio

from openworker_qt.connectors.base import ConnectorError
from openworker_qt.connectors.registry import secret_name
from openworker_qt.runtime import Runtime
from openworker_qt.storage import secrets
from tests.connectors import test_catalog_a, test_catalog_b, test_services
from tests.connectors.helpers import (
    Case,
    Sleeps,
    add,
    at,
    connect,
    json_reply,
    park_and_approve,
    reply,
    reset,
    run_tool,
    values,
)
from tests.providers.stubs import Reply, StubServer

CASES: list[Case] = [*test_services.CASES, *test_catalog_a.CASES, *test_catalog_b.CASES]
IDS = [c.id for c in CASES]
OOPS = Reply(status=500, body="oops", content_type="text/plain")


@pytest_asyncio.fixture(params=CASES, ids=IDS)
async def case(request: pytest.FixtureRequest, rt: Runtime, stub: StubServer) -> Case:
    """Each connector in turn, connected through the registry (the stub reset after)."""
    case: Case = request.param
    await connect(rt, case, stub)
    return case


def test_every_connector_has_one_case() -> None:
    assert len(IDS) == len(set(IDS)) == 42


def credentials_went_in_the_request(case: Case, stub: StubServer, path: str | None = None) -> None:
    """The secret went in a header (or, for Telegram, the address path), never in a query."""
    seen = [s for s in stub.seen if path is None or s.path == path]
    assert seen
    assert all(case.token not in repr(s.query) for s in seen)
    access = {f"Bearer {body['access_token']}" for _m, _p, body in case.always}
    assert any(case.token in v or v.startswith("Basic ") or v in access
               for s in seen for v in s.headers.values()) or any(case.token in s.path for s in seen)


async def test_validation_shows_the_identity_and_keeps_the_secret_in_the_keyring(
    rt: Runtime, stub: StubServer, case: Case
) -> None:
    state = rt.connectors.state(case.id)
    assert state.status == "connected"
    assert state.identity == case.identity
    assert secrets.get_secret(secret_name(case.id, "token")) == case.token
    dumped = [tuple(r) for r in rt.db.query("SELECT * FROM connectors")]
    assert case.token not in repr(dumped)
    # Only connected connectors bring their tools: all of this one's.
    assert {t.name for t in rt.connectors.tools()} == {t.name for t in
                                                       rt.connectors.spec(case.id).tools}
    assert all(t.origin == f"connector:{case.id}" for t in rt.connectors.tools())
    # Tested again: the stored secret goes out, in a header.
    add(stub, case, case.validate)
    assert (await rt.connectors.test(case.id)).status == "connected"
    credentials_went_in_the_request(case, stub)


async def test_read_tool_reads(rt: Runtime, stub: StubServer, case: Case, tmp_path: Path) -> None:
    name, arguments, routes, expected = case.read
    add(stub, case, routes)
    result = await run_tool(rt, name, arguments, tmp_path)
    assert not result.is_error, result.content
    assert expected in result.content
    tool = next(t for t in rt.connectors.tools() if t.name == name)
    assert tool.risk_class().value == "read"
    # The credentials went in the request, never in the tool's output.
    assert case.token not in result.content
    credentials_went_in_the_request(case, stub, at(routes[0][1], case))


async def test_action_tool_parks_is_approved_and_is_sent_once(
    rt: Runtime, stub: StubServer, case: Case, tmp_path: Path
) -> None:
    name, arguments, routes, target, sent_body = case.action
    add(stub, case, routes)
    method, path = routes[-1][0], at(routes[-1][1], case)
    tool = next(t for t in rt.connectors.tools() if t.name == name)
    assert tool.risk_class().value == "external"
    assert tool.target_arg and tool.target(arguments) == target
    assert not [s for s in stub.seen if s.path == path]  # nothing sent before the answer
    item, messages = await park_and_approve(rt, tmp_path, name, arguments)
    assert item.tool == name
    assert item.target == target
    sent = [s for s in stub.seen if s.method == method and s.path == path]
    assert len(sent) == 1
    if sent_body is not None:
        assert sent[0].body == sent_body
    results = [m for m in messages if m.get("role") == "tool"]
    assert results and "refused" not in str(results[-1].get("content"))
    assert "problem" not in str(results[-1].get("content"))


async def test_an_expired_token_is_reported_and_keeps_what_worked(
    rt: Runtime, stub: StubServer, case: Case, tmp_path: Path
) -> None:
    # Connecting again with a token the service refuses changes nothing stored.
    expired = "tok-expired-999999"
    method, path, _ = case.validate[0]
    stub.add(method, at(path, case, expired), case.expired)
    with pytest.raises(ConnectorError) as raised:
        await rt.connectors.connect(case.id, values(case, stub, expired))
    assert raised.value.kind == "auth"
    assert "Reconnect" in raised.value.message
    assert secrets.get_secret(secret_name(case.id, "token")) == case.token
    assert rt.connectors.state(case.id).status == "connected"
    # A tool call refused the same way says so and marks the connector failed.
    name, arguments, routes, _ = case.read
    reset(stub, case)
    stub.add(routes[0][0], at(routes[0][1], case), case.expired)
    result = await run_tool(rt, name, arguments, tmp_path)
    assert result.is_error and "Reconnect" in result.content
    state = rt.connectors.state(case.id)
    assert state.status == "failed" and "Reconnect" in state.error
    assert name not in {t.name for t in rt.connectors.tools()}


async def test_a_429_is_waited_out_as_retry_after_says(
    rt: Runtime, stub: StubServer, sleeps: Sleeps, case: Case, tmp_path: Path
) -> None:
    name, arguments, routes, expected = case.read
    (method, path, body), *rest = routes
    path = at(path, case)
    stub.add(method, path, json_reply({"message": "slow down"}, 429, **{"Retry-After": "7"}),
             reply(body))
    add(stub, case, rest)
    result = await run_tool(rt, name, arguments, tmp_path)
    assert not result.is_error, result.content
    assert expected in result.content
    assert sleeps.asked == [7.0]
    assert len([s for s in stub.seen if s.path == path]) == 2
    # A wait longer than the policy allows is reported rather than waited for.
    reset(stub, case)
    stub.add(method, path, json_reply({}, 429, **{"Retry-After": "3600"}))
    result = await run_tool(rt, name, arguments, tmp_path)
    assert result.is_error and "3600 s" in result.content
    assert sleeps.asked == [7.0]


async def test_a_500_is_retried_for_reads_then_reported_and_never_repeats_a_write(
    rt: Runtime, stub: StubServer, sleeps: Sleeps, case: Case, tmp_path: Path
) -> None:
    name, arguments, routes, _ = case.read
    method, path = routes[0][0], at(routes[0][1], case)
    stub.add(method, path, OOPS)
    result = await run_tool(rt, name, arguments, tmp_path)
    assert result.is_error and "HTTP 500" in result.content
    assert len([s for s in stub.seen if s.path == path]) == 3  # three tries in all
    assert sleeps.asked == [1.0, 2.0]  # backing off between them
    assert rt.connectors.state(case.id).status == "connected"  # not the token's fault
    reset(stub, case)
    act, act_args, act_routes, _, _ = case.action
    *before, (a_method, a_path, _) = act_routes
    add(stub, case, before)
    stub.add(a_method, at(a_path, case), OOPS)
    result = await run_tool(rt, act, act_args, tmp_path)
    assert result.is_error and "HTTP 500" in result.content
    # The server may have acted: never sent twice (and nothing else was sent after it).
    always = {at(p, case) for _m, p, _b in case.always}
    assert [(s.method, s.path) for s in stub.seen if s.path not in always][-1:] == [
        (a_method, at(a_path, case))]
    assert len([s for s in stub.seen if s.method == a_method and s.path == at(a_path, case)]) == 1
