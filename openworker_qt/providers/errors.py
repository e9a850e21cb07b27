"""Map whatever an SDK or transport raises to one :class:`ProviderError` taxonomy.

No SDK is imported here: exceptions are recognised by their attributes
(``status_code`` / ``code``, ``response``, ``body``) and class names, so this
module stays cheap to import and works for openai, anthropic, google-genai and
the httpx/httpx2/aiohttp transports alike.

Messages are written for the user: what went wrong, what to do, then the API's
own words. The provider and model are attached so ``str(error)`` names them.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import re
import time
from collections.abc import Mapping
from typing import Any

from openworker_qt.core.provider_api import ErrorKind, ProviderError

_CONTEXT_RE = re.compile(
    r"context[ _-]?length|context window|maximum context|prompt is too long|too many tokens"
    r"|input token count|exceeds the maximum number of tokens|reduce the length|token limit"
    r"|input is too long|request too large",
    re.I,
)

_TITLE_RE = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)
_OVERLOADED_RE = re.compile(r"overloaded|over capacity|at capacity|temporarily unavailable", re.I)

_TYPE_KINDS: dict[str, ErrorKind] = {
    "authentication_error": "auth",
    "invalid_api_key": "auth",
    "permission_error": "permission",
    "permission_denied": "permission",
    "rate_limit_error": "rate_limit",
    "rate_limit_exceeded": "rate_limit",
    "resource_exhausted": "rate_limit",
    "insufficient_quota": "rate_limit",
    "overloaded_error": "overloaded",
    "api_error": "server",
    "server_error": "server",
    "unavailable": "overloaded",
    "internal": "server",
    "not_found_error": "not_found",
    "model_not_found": "not_found",
    "invalid_request_error": "bad_request",
    "invalid_argument": "bad_request",
    "context_length_exceeded": "context_length",
    "request_too_large": "context_length",
    "unauthenticated": "auth",
}

_ADVICE: dict[str, str] = {
    "auth": "authentication failed — check the API key",
    "permission": "the key is not allowed to use this model or feature",
    "rate_limit": "rate limited by the provider",
    "context_length": "the conversation is too long for this model's context window",
    "bad_request": "the provider rejected the request",
    "not_found": "model or endpoint not found — check the model name and base URL",
    "server": "the provider had a server error",
    "overloaded": "the provider is overloaded right now",
    "network": "could not reach the provider",
    "timeout": "the provider did not answer in time",
    "malformed": "the provider sent a response that could not be understood",
    "unknown": "the call failed",
}


def _status_kind(status: int) -> ErrorKind:
    if status == 401:
        return "auth"
    if status == 403:
        return "permission"
    if status == 404:
        return "not_found"
    if status in (408, 504):
        return "timeout"
    if status == 413:
        return "context_length"
    if status == 429:
        return "rate_limit"
    if status == 529:
        return "overloaded"  # Anthropic's "overloaded_error"
    if status >= 500:
        return "server"
    if status >= 400:
        return "bad_request"
    return "unknown"


def _header(headers: Any, name: str) -> str | None:
    if headers is None:
        return None
    try:
        value = headers.get(name)
    except Exception:
        return None
    return str(value) if value is not None else None


def retry_after_seconds(headers: Any, body: Any = None, *, now: float | None = None) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms``, ``retry-after``
    as seconds or HTTP date, Google's ``RetryInfo.retryDelay``), or None."""
    ms = _header(headers, "retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    ra = _header(headers, "retry-after")
    if ra:
        try:
            return max(0.0, float(ra))
        except ValueError:
            parsed = email.utils.parsedate_to_datetime(ra) if ra else None
            if parsed is not None:
                return max(0.0, parsed.timestamp() - (now if now is not None else time.time()))
    for detail in _find_details(body):
        delay = detail.get("retryDelay") if isinstance(detail, Mapping) else None
        if isinstance(delay, str) and delay.endswith("s"):
            try:
                return max(0.0, float(delay[:-1]))
            except ValueError:
                pass
    return None


def _find_details(body: Any) -> list[Any]:
    if isinstance(body, Mapping):
        err = body.get("error", body)
        if isinstance(err, Mapping) and isinstance(err.get("details"), list):
            return list(err["details"])
    return []


def _api_message(body: Any, fallback: str, limit: int = 800) -> tuple[str, str | None]:
    """(the API's own message, its error type/code) from an error body."""
    if isinstance(body, str):
        try:
            body = json.loads(body)
        except ValueError:
            return _readable(body.strip() or fallback, limit), None
    if isinstance(body, list) and body and isinstance(body[0], Mapping):
        body = body[0]  # Gemini streaming errors arrive as a one-element array
    if isinstance(body, Mapping):
        err = body.get("error", body)
        if isinstance(err, Mapping):
            msg = str(err.get("message") or fallback)
            meta = err.get("metadata")
            if isinstance(meta, Mapping) and meta.get("raw"):
                msg = f"{msg}: {meta['raw']}"  # OpenRouter puts the upstream reason here
            etype = err.get("type") or err.get("status") or err.get("code")
            return _readable(msg, limit), (str(etype).lower() if etype is not None else None)
        if isinstance(err, str):
            return _readable(err, limit), None
    return _readable(fallback, limit), None


_VALIDATION_RE = re.compile(r"validation errors?\b|'loc': [(\[]|\"loc\": \[", re.I)
_LOC_MSG_RE = re.compile(r"""['"]loc['"]: [(\[]([^)\]]*)[)\]], ['"]msg['"]: (['"])(.*?)\2""")
_SHOWN_PROBLEMS = 8


def _validation_problems(body: Any, text: str) -> list[str]:
    """``where: what`` lines of a request validation error (FastAPI / pydantic, as
    llama-cpp-python's server and others report it), from the body or its text."""
    details = body.get("detail") if isinstance(body, Mapping) else None
    lines: list[str] = []
    if isinstance(details, list):
        for item in details:
            if isinstance(item, Mapping):
                loc = [str(p) for p in item.get("loc") or [] if str(p) != "body"]
                lines.append(f"{'.'.join(loc) or 'request'}: {item.get('msg') or item.get('type')}")
        return lines
    for match in _LOC_MSG_RE.finditer(text):
        loc = [p.strip().strip("'\"") for p in match.group(1).split(",")]
        loc = [p for p in loc if p and p != "body"]
        lines.append(f"{'.'.join(loc) or 'request'}: {match.group(3)}")
    return lines


def _invalid_request(status: int, api_msg: str, body: Any) -> str | None:
    """The readable message for a request the server says is invalid, or None."""
    detail = body.get("detail") if isinstance(body, Mapping) else None
    if not (_VALIDATION_RE.search(api_msg) or isinstance(detail, list)):
        return None
    problems = _validation_problems(body, api_msg)
    if not problems:
        return None
    shown = problems[:_SHOWN_PROBLEMS]
    more = len(problems) - len(shown)
    lines = "\n".join(f"  - {p}" for p in shown) + (f"\n  (and {more} more)" if more else "")
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    return (f"the server rejected the request as invalid (HTTP {status}, {count}); trying "
            f"again would fail the same way:\n{lines}")


def _readable(text: str, limit: int = 800) -> str:
    """``text`` cut at a word near ``limit``, saying so (never mid-word)."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = max(cut.rfind("\n"), cut.rfind(" "))
    return (cut[:space] if space > limit // 2 else cut).rstrip() + " …"


def _page_summary(page: str) -> str:
    title = _TITLE_RE.search(page)
    name = " ".join(title.group(1).split())[:120] if title else ""
    return f'the server answered with a web page titled "{name}"' if name else (
        "the server answered with a web page")


def _names(exc: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(exc).__mro__}


def _wrapped_provider_error(exc: BaseException) -> ProviderError | None:
    seen: set[int] = set()
    inner = exc.__cause__ or exc.__context__
    while inner is not None and id(inner) not in seen:
        if isinstance(inner, ProviderError):
            return inner
        seen.add(id(inner))
        inner = inner.__cause__ or inner.__context__
    return None


def classify(exc: BaseException, *, provider: str = "", model: str = "") -> ProviderError:
    """The :class:`ProviderError` for ``exc`` (returned as is if it already is one)."""
    if not isinstance(exc, ProviderError):
        cause = _wrapped_provider_error(exc)
        if cause is not None:  # raised in a transport hook, wrapped by the SDK
            exc = cause
    if isinstance(exc, ProviderError):
        if not exc.provider:
            exc.provider = provider
        if not exc.model:
            exc.model = model
        return exc
    names = _names(exc)
    status_attr = getattr(exc, "status_code", None)
    if not isinstance(status_attr, int):
        status_attr = getattr(exc, "code", None)  # google.genai.errors.APIError
    status = status_attr if isinstance(status_attr, int) and 100 <= status_attr < 600 else None
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    body = getattr(exc, "body", None)
    if body is None:
        body = getattr(exc, "details", None)  # google-genai keeps the parsed JSON here
    raw_msg = str(getattr(exc, "message", "") or exc) or type(exc).__name__
    api_msg, etype = _api_message(body, raw_msg) if body is not None else (_readable(raw_msg), None)

    if api_msg.lstrip()[:15].lower().startswith(("<!doctype", "<html")):
        api_msg = _page_summary(api_msg)  # a proxy's error page: its title, not its markup
    kind: ErrorKind
    if status is not None:
        kind = _status_kind(status)
        if etype in _TYPE_KINDS and kind in ("bad_request", "unknown"):
            kind = _TYPE_KINDS[etype]
        if status == 200 and etype in _TYPE_KINDS:  # an error event inside a 200 stream
            kind = _TYPE_KINDS[etype]
    elif etype in _TYPE_KINDS:
        kind = _TYPE_KINDS[etype]
    elif etype and etype.isdigit() and 400 <= int(etype) < 600:
        kind = _status_kind(int(etype))  # an in-stream error naming the upstream's HTTP status
    elif names & {"TimeoutError", "APITimeoutError", "TimeoutException", "ReadTimeout",
                  "ConnectTimeout", "ServerTimeoutError"}:
        kind = "timeout"
    elif names & {"RemoteProtocolError", "IncompleteRead", "ClientPayloadError",
                  "TransferEncodingError", "ContentLengthError"}:
        kind = "network"  # the connection broke mid-response: worth a retry
    elif names & {"APIConnectionError", "ConnectError", "NetworkError", "ConnectionError",
                  "ClientConnectorError", "ClientOSError", "ServerDisconnectedError",
                  "OSError", "ReadError", "WriteError"}:
        kind = "network"
    elif names & {"JSONDecodeError", "ValidationError", "UnknownApiResponseError",
                  "DecodingError", "UnicodeDecodeError"}:
        kind = "malformed"
    elif isinstance(exc, asyncio.TimeoutError):
        kind = "timeout"
    else:
        kind = "unknown"
    if kind in ("bad_request", "unknown") and _CONTEXT_RE.search(api_msg):
        kind = "context_length"
    if kind == "server" and (etype == "unavailable" or _OVERLOADED_RE.search(api_msg)):
        kind = "overloaded"  # OpenAI's and Gemini's 503 "overloaded" / UNAVAILABLE
    if status is not None and status >= 400 and kind != "context_length":
        full = _api_message(body, raw_msg, limit=20_000)[0] if body is not None else raw_msg
        invalid = _invalid_request(status, full, body)
        if invalid is not None:  # a deterministic rejection, even as a 500: not retried
            return ProviderError("bad_request", invalid, provider=provider, model=model,
                                 status=status)

    retry_after = (
        retry_after_seconds(headers, body) if kind in ("rate_limit", "server", "overloaded") else None
    )
    advice = _ADVICE[kind]
    if kind in ("rate_limit", "overloaded") and retry_after is not None:
        advice += f" (retry after {retry_after:g} s)"
    detail = f"HTTP {status}: {api_msg}" if status else api_msg
    message = f"{advice}. {detail}" if detail and detail not in advice else advice
    return ProviderError(
        kind, message, provider=provider, model=model, status=status, retry_after=retry_after
    )


def stream_error(error: Any, *, provider: str = "", model: str = "") -> ProviderError:
    """The :class:`ProviderError` for an error reported *inside* a 200 stream
    (an OpenAI-compatible chunk's ``error``, a Responses ``response.failed``):
    a dict or object with ``message`` and ``code`` / ``type``."""
    if not isinstance(error, Mapping):
        error = {
            name: getattr(error, name)
            for name in ("message", "code", "type", "status")
            if getattr(error, name, None) is not None
        }
    message = str(error.get("message") or "the provider reported an error mid-stream")
    code = error.get("code")
    names = [str(error.get(k) or "").lower() for k in ("type", "status", "code")]
    names = [n for n in names if n and n != "error" and not n.isdigit()]
    etype = next((n for n in names if n in _TYPE_KINDS), names[0] if names else "")
    status = code if isinstance(code, int) and 400 <= code < 600 else None
    kind: ErrorKind
    if status is not None:
        kind = _status_kind(status)
    elif etype in _TYPE_KINDS:
        kind = _TYPE_KINDS[etype]
    elif "rate_limit" in etype:
        kind = "rate_limit"
    elif etype.startswith("invalid"):
        kind = "bad_request"
    else:
        kind = "server"
    if kind == "server" and (etype == "unavailable" or _OVERLOADED_RE.search(message)):
        kind = "overloaded"
    if kind in ("bad_request", "unknown") and _CONTEXT_RE.search(message):
        kind = "context_length"
    detail = f"{message} ({etype})" if etype and etype not in message.lower() else message
    return ProviderError(kind, f"{_ADVICE[kind]}. {detail}", provider=provider, model=model, status=status)


class IncompleteAnswer(ProviderError):
    """The stream ended without the vendor's end marker (no finish reason, no
    ``message_stop``, no ``response.completed``): the answer did not finish, whatever
    part of it arrived. A network error (retried while nothing was shown)."""


def incomplete_answer(
    label: str, *, provider: str, model: str, empty: bool, hint: str = ""
) -> IncompleteAnswer:
    """The error for a stream that ended before its end marker (``empty``: nothing of
    the answer had arrived, e.g. HTTP 200 and then an empty body)."""
    if empty:
        text = (f"the connection closed before the answer finished: {label} accepted the "
                "request but sent no answer")
    else:
        text = f"the connection closed before the answer finished: {label} stopped mid-answer"
    if hint:
        text += f". {hint}"
    return IncompleteAnswer("network", text, provider=provider, model=model)


class NotTheApi(ProviderError):
    """A 200 whose body is not the API's (an HTML page from a proxy, a captive portal
    or a wrong base URL). Not retried: the same address gives the same page."""


def not_the_api(server: str, body: bytes, content_type: str, *, provider: str = "",
                model: str = "") -> NotTheApi:
    """The error for a 200 from ``server`` (host[:port]) whose body is not the API's
    (``content_type``: what it said it was, e.g. ``text/html``)."""
    text_body = body.decode("utf-8", "replace")
    ctype = content_type.split(";", 1)[0].strip()
    if "html" in ctype or text_body.lstrip()[:15].lower().startswith(("<!doctype", "<html")):
        title = _TITLE_RE.search(text_body)
        what = "a web page"
        if title and title.group(1).strip():
            what += f' titled "{" ".join(title.group(1).split())[:120]}"'
    else:
        first = " ".join(text_body.split())[:120]
        what = f'"{first}"' if first else "an empty body"
    text = (f"the reply from {server} was not the API's: it sent {what} instead of a "
            "model's answer. Check the provider's base URL, or whether a proxy or a "
            "network sign-in page is in the way")
    return NotTheApi("malformed", text, provider=provider, model=model, status=200)
