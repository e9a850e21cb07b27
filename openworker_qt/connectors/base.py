"""The connector contract: what a connector declares, and the HTTP client they share.

A connector is one :class:`ConnectorSpec` (its *descriptor*): an id, a name, a
category, the fields the user fills in (each with help text; secret fields go to
the keyring, the others to the database), how to build a client from those
values, a validation call returning the :class:`Identity` shown to the user
("Connected as @ana in Acme"), and its tools as :class:`ToolDef` rows:

* read tools run as READ (they only look);
* action tools are EXTERNAL and need approval, and each names its *target*
  argument (the channel, the repository, the address) so that an "always"
  answer or a scheduled task's rule binds to that exact target and no other.

Every HTTP connector talks through :class:`HttpApi` (httpx2): rate limits are
honoured (429 and ``Retry-After``, waiting at most :attr:`RetryPolicy.max_wait`
before saying so), reads are retried with back-off on a server error, writes are
never repeated after the server may have acted on them (a 5xx on a POST is
reported, not retried: a message is sent at most once), and every failure
becomes a :class:`ConnectorError` whose message is written for the user.

Addresses: an argument that goes into an address path goes in through
:func:`path_segment` (one segment, encoded whole) or :func:`owner_repo` (an
``owner/name`` pair, its shape checked, each part encoded), and
:meth:`HttpApi.request` refuses, before anything is sent, a path that could
reach another of the service's addresses (a ``.`` or ``..`` segment, also
percent-encoded, a raw ``#``, ``?`` or ``\\``, a full address): no model's words
can turn ``repos/<repo>/issues`` into ``user``.

Answers: a request expects data (JSON) unless it says ``expect="text"``; a web
page (a proxy's or a sign-in page) or broken JSON with a success status is a
``ConnectorError`` of kind ``answer`` saying so — never an empty success, never
a crash of the tool on a string where it wanted an object.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote, unquote

#: ``answer``: the service answered, but not with data (a web page, broken JSON).
ErrorKind = Literal["auth", "rate_limited", "server", "request", "network", "config", "answer"]
#: What a request expects back: ``json`` (data: anything else is an ``answer``
#: error) or ``text`` (a file's own text; JSON is still parsed).
Expect = Literal["json", "text"]
Credentials = Mapping[str, str]
#: ``text``: typed in; ``bool``: a yes/no switch (a checkbox on the settings page),
#: stored as ``yes`` when on and left out when off.
FieldKind = Literal["text", "bool"]
YES = frozenset({"yes", "on", "true", "1", "y"})
NO = frozenset({"no", "off", "false", "0", "n"})


def is_on(value: str | None) -> bool:
    """Whether a yes/no field's stored (or typed) value is on."""
    return str(value or "").strip().lower() in YES


class Words(tuple[str, ...]):
    """A placeholder's value that is itself connector words (fields' labels): on
    screen each is translated too, and they are joined with ", "."""


class ConnectorError(Exception):
    """A failure of a connector's call, with a message for the user.

    ``message`` is an English *template*, a constant string whose ``{name}``
    placeholders are filled from ``values`` (the service's name, an HTTP status,
    the service's own detail): :attr:`message` is the English sentence (for the
    model, the logs and the CLI), while the settings page translates
    :attr:`template` (scripts/connector_strings.py collects every template of the
    connectors) and fills the placeholders after. Braces are literal when no
    value is given."""

    def __init__(self, kind: ErrorKind, message: str, *, status: int | None = None,
                 **values: object) -> None:
        self.kind: ErrorKind = kind
        self.template = message
        self.values: dict[str, str | list[str]] = {
            k: list(v) if isinstance(v, Words) else str(v) for k, v in values.items()}
        self.message = fill(message, self.values)
        self.status = status
        super().__init__(self.message)


def fill(template: str, values: Mapping[str, str | list[str]]) -> str:
    """A template's placeholders filled (a list of words joined with ", ")."""
    if not values:
        return template
    return template.format_map({k: v if isinstance(v, str) else ", ".join(v)
                                for k, v in values.items()})


@dataclass(frozen=True, slots=True)
class Field:
    """One value the user gives a connector. ``secret`` ones live in the keyring."""

    key: str
    label: str
    help: str = ""
    secret: bool = True
    required: bool = True
    placeholder: str = ""
    kind: FieldKind = "text"

    def __post_init__(self) -> None:
        if self.kind == "bool" and self.secret:
            raise ValueError(f"the yes/no field {self.key} cannot be secret")


@dataclass(frozen=True, slots=True)
class Identity:
    """Who the credentials belong to, as the service says."""

    user: str
    workspace: str = ""

    def text(self) -> str:
        where = f" in {self.workspace}" if self.workspace else ""
        return f"Connected as {self.user}{where}"


@dataclass(frozen=True, slots=True)
class ToolDef:
    """One tool of a connector. ``run(client, arguments)`` returns the model's text."""

    name: str
    description: str
    parameters: Mapping[str, Any]
    run: Callable[[Any, dict[str, Any]], Awaitable[str]]
    action: bool = False
    target_arg: str | None = None

    def __post_init__(self) -> None:
        if self.action and not self.target_arg:
            raise ValueError(f"the action tool {self.name} must name its target argument")
        if self.target_arg and self.target_arg not in self.parameters.get("properties", {}):
            raise ValueError(f"{self.name}: target {self.target_arg!r} is not an argument")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How long to wait out rate limits and server errors."""

    attempts: int = 3  # tries in all, per request
    max_wait: float = 60.0  # a longer Retry-After is reported instead of waited for
    backoff: float = 1.0  # first wait after a server error; doubled each time
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep


@dataclass(frozen=True, slots=True)
class ConnectorSpec:
    """A connector's descriptor (see module docstring).

    ``client(values, policy)`` builds the object the tools and ``validate`` use;
    it may be an async context manager (closed after the call). ``api_url`` is
    the service's default endpoint; a value ``api_url`` among the settings (a
    self-hosted server, GitHub Enterprise) replaces it.
    """

    id: str
    name: str
    category: str
    description: str
    fields: tuple[Field, ...]
    client: Callable[[Credentials, RetryPolicy], Any]
    validate: Callable[[Any], Awaitable[Identity]]
    tools: tuple[ToolDef, ...] = ()
    api_url: str = ""
    instructions: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def field(self, key: str) -> Field | None:
        return next((f for f in self.fields if f.key == key), None)

    @property
    def secret_keys(self) -> tuple[str, ...]:
        return tuple(f.key for f in self.fields if f.secret)

    def url(self, values: Credentials) -> str:
        return (values.get("api_url") or self.api_url).rstrip("/")


def obj(properties: Mapping[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """A JSON schema object (shorthand for tool parameters)."""
    return {"type": "object", "properties": dict(properties), "required": list(required)}


def s(description: str) -> dict[str, str]:
    return {"type": "string", "description": description}


def n(description: str) -> dict[str, str]:
    return {"type": "integer", "description": description}


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date)."""
    if not value:
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def _detail(body: Any) -> str:
    if isinstance(body, list) and body and isinstance(body[0], dict):  # Salesforce: a list
        body = body[0]
    if isinstance(body, dict):
        for key in ("message", "error_description", "error", "errorMessages", "errors"):
            value = body.get(key)
            if value:
                return value if isinstance(value, str) else json.dumps(value)[:300]
    if isinstance(body, str):
        return body.strip()[:300]
    return ""


IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


class HttpApi:
    """A JSON HTTP API on httpx2 with the rate-limit and error rules of the module."""

    def __init__(
        self,
        service: str,
        base_url: str,
        *,
        headers: Mapping[str, str] | None = None,
        policy: RetryPolicy | None = None,
        auth: Any = None,
    ) -> None:
        import httpx2

        self.service = service
        self.policy = policy or RetryPolicy()
        self._http = httpx2.AsyncClient(
            base_url=base_url.rstrip("/") + "/", headers=dict(headers or {}), auth=auth,
            timeout=httpx2.Timeout(30.0, connect=10.0), follow_redirects=True,
        )

    async def __aenter__(self) -> HttpApi:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def get(self, path: str, **kw: Any) -> Any:
        return await self.request("GET", path, **kw)

    async def post(self, path: str, **kw: Any) -> Any:
        return await self.request("POST", path, **kw)

    async def request(
        self, method: str, path: str, *, params: Mapping[str, Any] | None = None,
        json_body: Any = None, data: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None, idempotent: bool | None = None,
        expect: Expect = "json", absolute: bool = False,
    ) -> Any:
        """``idempotent``: whether a server error may be retried (default: by method;
        a search sent as POST says True). ``expect``: see :data:`Expect`.
        ``absolute``: ``path`` is a full address from the settings (a sign-in
        endpoint), never from a model's words."""
        import httpx2

        policy = self.policy
        method = method.upper()
        safe = method in IDEMPOTENT if idempotent is None else idempotent
        if not absolute:
            path = path.lstrip("/")
            check_path(self.service, path)
        for attempt in range(1, policy.attempts + 1):
            last = attempt == policy.attempts
            try:
                response = await self._http.request(
                    method, path, params=params, json=json_body, data=data, headers=headers)
            except httpx2.HTTPError as exc:
                if safe and not last and isinstance(exc, httpx2.ConnectError):
                    await policy.sleep(policy.backoff * 2 ** (attempt - 1))
                    continue
                raise ConnectorError(
                    "network", "{service} could not be reached ({problem}).",
                    service=self.service, problem=type(exc).__name__) from exc
            status = response.status_code
            if status == 429 or (status == 403 and (  # GitHub's primary and secondary limits
                    response.headers.get("x-ratelimit-remaining") == "0"
                    or "retry-after" in response.headers)):
                wait = retry_after(response.headers.get("retry-after"))
                if wait is None:
                    wait = policy.backoff * 2 ** (attempt - 1)
                if wait > policy.max_wait or last:
                    raise ConnectorError(
                        "rate_limited", "{service} is rate limiting requests; it asks to wait "
                        "{seconds} s. Try again later.", status=status,
                        service=self.service, seconds=f"{wait:.0f}")
                await policy.sleep(wait)
                continue
            if status >= 500:
                if safe and not last:
                    await policy.sleep(policy.backoff * 2 ** (attempt - 1))
                    continue
                raise ConnectorError(
                    "server", "{service} had a problem on its side (HTTP {code}). "
                    "Try again later.", status=status, service=self.service, code=status)
            body = _body(response)
            if status == 401:
                raise refused(self.service, status=status)
            if status >= 400:
                detail = _detail(body)
                if detail:
                    raise ConnectorError(
                        "request", "{service} refused the request (HTTP {code}): {detail}",
                        status=status, service=self.service, code=status, detail=detail)
                raise ConnectorError("request", "{service} refused the request (HTTP {code}).",
                                     status=status, service=self.service, code=status)
            return answer(self.service, response, expect)
        raise AssertionError("unreachable")  # pragma: no cover


def refused(service: str, *, status: int | None = None) -> ConnectorError:
    """The service refused the stored credentials: the user reconnects."""
    return ConnectorError(
        "auth", "{service} refused the credentials (expired or revoked). "
        "Reconnect {service} in Settings → Connectors.", status=status, service=service)


def _body(response: Any) -> Any:
    if not response.content:
        return None
    if "json" in response.headers.get("content-type", ""):
        try:
            return response.json()
        except ValueError:
            return response.text
    return response.text


def _looks_like_html(response: Any) -> bool:
    ctype = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype in ("text/html", "application/xhtml+xml"):
        return True
    head = bytes(response.content[:512]).lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body"))


def answer(service: str, response: Any, expect: Expect = "json") -> Any:
    """The data of a successful answer (``None`` when it has no body), or a
    :class:`ConnectorError` of kind ``answer`` when it is not data."""
    if not response.content:
        return None
    if expect == "text":
        return _body(response)
    if _looks_like_html(response):
        raise not_data(service, page=True, status=response.status_code)
    try:
        return json.loads(response.content)
    except ValueError:
        raise not_data(service, page=False, status=response.status_code) from None


def not_data(service: str, *, page: bool, status: int | None = None) -> ConnectorError:
    """The error of a successful answer that is not data: a web page (``page``) or
    broken JSON. For connectors that read answers through an SDK too (Slack)."""
    if page:
        return ConnectorError(
            "answer", "{service} answered with a web page instead of data. Check the "
            "address in its settings: a proxy or a sign-in page may be in the way.",
            status=status, service=service)
    return ConnectorError(
        "answer", "{service} answered with something that is not readable data "
        "(broken JSON). Check the address in its settings: a proxy may be in the way.",
        status=status, service=service)


def _decoded(text: str) -> str:
    """``text`` percent-decoded until nothing changes (``%252e`` is ``.`` too)."""
    for _ in range(4):
        plain = unquote(text)
        if plain == text:
            break
        text = plain
    return text


def _unsafe(text: str) -> bool:
    """``text`` (one path segment) could move a path elsewhere once decoded: it is or
    holds a ``.`` or ``..`` part, or a control character. (An encoded ``#`` or ``?``
    is only a character of a name: a calendar's id may hold one.)"""
    plain = _decoded(text)
    return (any(part.strip() in (".", "..") for part in plain.replace("\\", "/").split("/"))
            or any(ord(c) < 0x20 or ord(c) == 0x7F for c in plain))


def check_path(service: str, path: str) -> None:
    """Refuse a request path that could reach another of the service's addresses
    than the one it names (see the module docstring)."""
    bad: str | None = None
    if "://" in path or path.startswith("/") or any(c in path for c in "#?\\"):
        bad = path
    else:
        segments = path.split("/")
        for i, segment in enumerate(segments):
            if (not segment and 0 < i < len(segments) - 1) or (segment and _unsafe(segment)):
                bad = segment or "//"
                break
    if bad is not None:
        raise ConnectorError(
            "request", "{service} was not called: a name given would lead to another of "
            "its addresses ({part}). Check the names given.",
            service=service, part=bad[:80])


def clip(text: str, limit: int = 12_000) -> str:
    """Tool output kept to a size the model can use."""
    return text if len(text) <= limit else text[:limit] + "\n… (cut)"


def dumps(value: Any) -> str:
    return clip(json.dumps(value, ensure_ascii=False, indent=1, default=str))


# ------------------------------------------------------- helpers for connector modules


def token_field(label: str, help_text: str) -> Field:
    """The usual secret field: an API token."""
    return Field("token", label, help_text)


def api_url(values: Credentials, default: str) -> str:
    """The service's address: the ``api_url`` setting (self-hosted, tests) or ``default``."""
    return values.get("api_url") or default


def bearer_headers(values: Credentials, **headers: str) -> dict[str, str]:
    """Request headers sending the ``token`` field as a bearer token (with ``headers``)."""
    return {"Authorization": f"Bearer {values.get('token', '')}", **headers}


def bearer_api(service: str, values: Credentials, default: str, policy: RetryPolicy,
               **headers: str) -> HttpApi:
    """An :class:`HttpApi` sending the ``token`` field as a bearer token."""
    return HttpApi(service, api_url(values, default), policy=policy,
                   headers=bearer_headers(values, **headers))


def path_segment(value: object) -> str:
    """One segment of an address path, from a value the model gave: encoded whole, so it
    can name one thing and never step to another of the service's addresses (``/``,
    ``#`` and ``?`` are encoded). Empty, ``.`` and ``..`` (also percent-encoded, also
    as a part between slashes) and control characters are refused."""
    text = str(value).strip() if value is not None else ""
    if not text or _unsafe(text):
        raise ConnectorError("request", "{value} is not a valid id.", value=repr(text))
    return quote(text, safe="")


_NAME_PART = re.compile(r"[A-Za-z0-9_.-]+")


def owner_repo(value: object, example: str = "owner/repository") -> str:
    """An ``owner/name`` pair (a GitHub repository, a Bitbucket workspace and
    repository) as two path segments: exactly two parts of letters, digits, ``.``,
    ``_`` and ``-`` (never ``.`` or ``..`` alone), each encoded."""
    text = str(value).strip().strip("/") if value is not None else ""
    parts = text.split("/")
    if len(parts) != 2 or not all(_NAME_PART.fullmatch(p) and p not in (".", "..")
                                  for p in parts):
        raise ConnectorError("request", "Name the repository as {example} (letters, digits, "
                             "'.', '_' and '-'), not {value}.", example=example,
                             value=repr(text))
    return "/".join(quote(p, safe="") for p in parts)
