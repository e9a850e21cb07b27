"""Recover tool calls that a model printed as text instead of calling natively.

Local models (Ollama, llama.cpp, small open-weight models) often write a tool
call into their text: bare JSON, ``<tool_call>`` tags (Hermes/Qwen), an array of
calls, arguments as a JSON *string*, prose followed by a JSON call, or the
shorthand ``tool_name {...}`` / ``tool_name [{...}, ...]``; and the native
formats of popular open models, when the server does not parse them:

* Qwen3-Coder's XML: ``<tool_call><function=name><parameter=p>value</parameter>
  </function></tool_call>`` (values are text; converted by the tool's schema);
* Llama 3.x: ``<|python_tag|>{"name": …, "parameters": {…}}`` ending in
  ``<|eom_id|>`` or ``<|eot_id|>`` (or neither);
* Mistral: ``[TOOL_CALLS][{"name": …, "arguments": {…}}]`` and the newer
  ``[TOOL_CALLS]name[ARGS]{…}``;
* DeepSeek: ``<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>name``
  then a fenced JSON block (V3/R1), or ``name<｜tool▁sep｜>{…}`` (V3.1), each
  call closed by ``<｜tool▁call▁end｜>``.

None of this markup stays in the visible text once calls are recovered.

Contract:
  * only runs when tools were offered, and only accepts names that were offered;
  * a candidate object may hold only call-shaped keys (``name``, ``arguments`` /
    ``parameters`` / ``args`` / ``input``, ``id``, ``type``), so ordinary JSON data
    that happens to have a ``name`` field is left alone;
  * only a JSON value that ends the text counts (prose *before* it is kept, as the
    visible text); JSON in the middle of prose is an example, not a call;
  * all-or-nothing: if any candidate in a block is not a valid call, nothing is
    recovered from that block;
  * arguments nested deeper than ``domain.arguments.MAX_DEPTH`` make no call (text
    nested too deep to decode at all is left as text).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from openworker_qt.domain.arguments import ArgumentsError, parse_arguments, too_deep

_ARG_KEYS = ("arguments", "parameters", "args", "input")
_CALL_KEYS = frozenset({"name", "id", "type", *_ARG_KEYS})
_TAG_RE = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)", re.S)
_FENCE_OPEN_RE = re.compile(r"```[a-zA-Z]*\s*\Z")
_FENCE_CLOSE_RE = re.compile(r"\A\s*```\s*\Z")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class RecoveredCall:
    name: str
    arguments: str  # a JSON object string


@dataclass(frozen=True, slots=True)
class Recovery:
    calls: list[RecoveredCall]
    text: str  # what remains visible once the calls are removed


def _arguments(obj: Mapping[str, Any]) -> dict[str, Any] | None:
    present = [k for k in _ARG_KEYS if k in obj]
    if len(present) > 1:
        return None
    if not present:
        return {}
    value = obj[present[0]]
    if value is None:
        return {}
    try:
        return parse_arguments(value)  # a JSON string or an object, of bounded depth
    except ArgumentsError:
        return None


def _call_from(obj: Any, offered: Collection[str]) -> RecoveredCall | None:
    if not isinstance(obj, dict):
        return None
    fn = obj.get("function")
    if isinstance(fn, dict) and set(obj) <= {"function", "type", "id"}:
        obj = fn
    if not set(obj) <= _CALL_KEYS:
        return None
    name = obj.get("name")
    if not isinstance(name, str) or name not in offered:
        return None
    args = _arguments(obj)
    if args is None:
        return None
    return RecoveredCall(name=name, arguments=json.dumps(args, ensure_ascii=False))


def _calls_from(value: Any, offered: Collection[str]) -> list[RecoveredCall] | None:
    items = value if isinstance(value, list) else [value]
    if not items:
        return None
    calls = [_call_from(item, offered) for item in items]
    if any(c is None for c in calls):
        return None
    return [c for c in calls if c is not None]


def _shorthand(name: str, value: Any) -> list[RecoveredCall] | None:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(i, dict) and not too_deep(i) for i in items):
        return None
    return [RecoveredCall(name, json.dumps(i, ensure_ascii=False)) for i in items]


def _from_tags(text: str, offered: Collection[str]) -> Recovery | None:
    matches = list(_TAG_RE.finditer(text))
    if not matches:
        return None
    calls: list[RecoveredCall] = []
    for m in matches:
        body = m.group(1).strip()
        try:
            value, end = _DECODER.raw_decode(body)
        except (json.JSONDecodeError, RecursionError):  # too deep is not a call either
            return None
        if body[end:].strip():
            return None
        found = _calls_from(value, offered)
        if found is None:
            return None
        calls.extend(found)
    remaining = _TAG_RE.sub("", text).strip()
    return Recovery(calls, remaining)


def _trailing_json(text: str, offered: Collection[str]) -> Recovery | None:
    for i, ch in enumerate(text):
        if ch not in "{[":
            continue
        try:
            value, end = _DECODER.raw_decode(text, i)
        except json.JSONDecodeError:
            continue
        except RecursionError:  # nested too deep to be a call; nothing later ends the text
            return None
        tail = text[end:]
        if tail.strip() and not _FENCE_CLOSE_RE.match(tail):
            continue
        prefix = text[:i]
        fence = _FENCE_OPEN_RE.search(prefix)
        if fence:
            prefix = prefix[: fence.start()]
        calls = _calls_from(value, offered)
        if calls is None:
            words = prefix.rstrip().rsplit(None, 1)
            if words and words[-1] in offered and prefix[len(prefix.rstrip()) :] != "":
                calls = _shorthand(words[-1], value)
                prefix = prefix.rstrip()[: -len(words[-1])]
        if calls:
            return Recovery(calls, prefix.strip())
        return None  # the value that ends the text is not a call: leave it alone
    return None


_END_TOKENS_RE = re.compile(r"<\|(?:eom_id|eot_id|eot|end)\|>|</s>|<[|｜]end[▁_ ]of[▁_ ]sentence[|｜]>")
_PY_TAG = "<|python_tag|>"
_MISTRAL = "[TOOL_CALLS]"
_XML_FUNCTION_RE = re.compile(r"<function=([^>\s]+)\s*>(.*?)(?:</function>|\Z)", re.S)
_XML_PARAM_RE = re.compile(
    r"<parameter=([^>\s]+)\s*>(.*?)(?:</parameter>|(?=<parameter=)|\Z)", re.S)
_XML_BLOCK_RE = re.compile(
    r"(?:<tool_call>\s*)?<function=[^>]*>.*?(?:</function>\s*(?:</tool_call>)?|\Z)", re.S)
_MISTRAL_ARGS_RE = re.compile(r"\A\s*([\w.\-]+)\s*(?:\[CALL_ID\]\s*\w*\s*)?\[ARGS\]\s*", re.S)


def _ds(words: str) -> str:
    """A DeepSeek marker, in its full-width spelling or an ASCII one."""
    return "<[|｜]" + words.replace(" ", "[▁_ ]") + "[|｜]>"


_DS_CALLS_BEGIN_RE = re.compile(_ds("tool calls begin") + "|" + _ds("tool call begin"))
_DS_CALL_RE = re.compile(
    _ds("tool call begin") + "(.*?)(?:" + _ds("tool call end") + "|(?=" + _ds("tool call begin")
    + ")|" + _ds("tool calls end") + "|\\Z)", re.S)
_DS_SEP_RE = re.compile(_ds("tool sep"))
_DS_ANY_RE = re.compile("<[|｜]tool[▁_ ][^>]*?[|｜]>")
_FENCED_RE = re.compile(r"\A\s*```[a-zA-Z]*\s*(.*?)\s*```\s*\Z", re.S)

#: Text that opens a call in one of the formats above: a stream holds back what
#: follows it until the answer ends (see ``_assembly.MarkupHold``).
CALL_MARKERS = (
    "<tool_call>", "<function=", _PY_TAG, _MISTRAL,
    "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "<|tool▁calls▁begin|>",
    "<|tool▁call▁begin|>", "<|tool_calls_begin|>", "<|tool_call_begin|>",
)


def _schema_type(schemas: Any, name: str, param: str) -> Any:
    if not isinstance(schemas, Mapping):
        return None
    schema = schemas.get(name)
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    prop = props.get(param) if isinstance(props, Mapping) else None
    return prop.get("type") if isinstance(prop, Mapping) else None


def _xml_value(raw: str, kind: Any) -> Any:
    value = raw[1:] if raw.startswith("\n") else raw
    value = value[:-1] if value.endswith("\n") else value
    if kind == "string" or (isinstance(kind, list) and "string" in kind):
        return value
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):
        return value
    if kind is None and isinstance(parsed, str):
        return value
    return parsed


def _from_xml(text: str, offered: Collection[str]) -> Recovery | None:
    calls: list[RecoveredCall] = []
    for match in _XML_FUNCTION_RE.finditer(text):
        name = match.group(1).strip()
        if name not in offered:
            return None
        args = {p.group(1).strip(): _xml_value(p.group(2), _schema_type(offered, name, p.group(1).strip()))
                for p in _XML_PARAM_RE.finditer(match.group(2))}
        if too_deep(args):
            return None
        calls.append(RecoveredCall(name, json.dumps(args, ensure_ascii=False)))
    if not calls:
        return None
    remaining = _XML_BLOCK_RE.sub("", text).replace("</tool_call>", "")
    return Recovery(calls, remaining.strip())


def _json_sequence(body: str, offered: Collection[str]) -> list[RecoveredCall] | None:
    """Calls from JSON values one after another (separated by blanks, ``;`` or ``,``)."""
    calls: list[RecoveredCall] = []
    pos = 0
    while True:
        while pos < len(body) and body[pos] in " \t\r\n;,":
            pos += 1
        if pos >= len(body):
            break
        try:
            value, pos = _DECODER.raw_decode(body, pos)
        except (json.JSONDecodeError, RecursionError):
            return None
        found = _calls_from(value, offered)
        if found is None:
            return None
        calls.extend(found)
    return calls or None


def _from_python_tag(text: str, offered: Collection[str]) -> Recovery | None:
    head, _, body = text.partition(_PY_TAG)
    calls = _json_sequence(body, offered)
    return Recovery(calls, head.strip()) if calls else None


def _from_mistral(text: str, offered: Collection[str]) -> Recovery | None:
    head, _, rest = text.partition(_MISTRAL)
    calls: list[RecoveredCall] = []
    for piece in rest.split(_MISTRAL):
        if piece.strip()[:1] in ("[", "{"):
            found = _json_sequence(piece, offered)
        else:
            match = _MISTRAL_ARGS_RE.match(piece)
            if match is None or match.group(1) not in offered:
                return None
            try:
                value, end = _DECODER.raw_decode(piece, match.end())
            except (json.JSONDecodeError, RecursionError):
                return None
            if piece[end:].strip():
                return None
            found = _calls_from({"name": match.group(1), "arguments": value}, offered)
        if found is None:
            return None
        calls.extend(found)
    return Recovery(calls, head.strip()) if calls else None


def _from_deepseek(text: str, offered: Collection[str]) -> Recovery | None:
    begin = _DS_CALLS_BEGIN_RE.search(text)
    if begin is None:
        return None
    calls: list[RecoveredCall] = []
    for match in _DS_CALL_RE.finditer(text, begin.start()):
        parts = _DS_SEP_RE.split(match.group(1), maxsplit=1)
        if len(parts) != 2:
            return None
        left, right = parts[0].strip(), parts[1]
        if left in ("function", ""):  # V3 / R1: "function<sep>name\n```json …```"
            name, _, raw = right.lstrip().partition("\n")
            name = name.strip()
        else:  # V3.1: "name<sep>{…}"
            name, raw = left, right
        fenced = _FENCED_RE.match(raw)
        raw = fenced.group(1) if fenced else raw.strip()
        found = _calls_from({"name": name, "arguments": raw or "{}"}, offered)
        if found is None:
            return None
        calls.extend(found)
    if not calls:
        return None
    tail = _DS_CALL_RE.sub("", text[begin.start():])
    remaining = text[: begin.start()] + _DS_ANY_RE.sub("", tail)
    return Recovery(calls, remaining.strip())


def recover_tool_calls(text: str, offered: Collection[str]) -> Recovery | None:
    """Tool calls written as text, or None when there are none (or no tools).

    ``offered``: the names of the tools offered; a mapping of name → parameters
    schema lets Qwen3-Coder's text values become the types the tool declares."""
    if not offered or not text or not text.strip():
        return None
    if not any(name in text for name in offered):
        return None  # cheap guard: no offered name, no call (and no JSON scanning)
    text = _END_TOKENS_RE.sub("", text)
    if _DS_CALLS_BEGIN_RE.search(text):
        return _from_deepseek(text, offered)
    if "<function=" in text:
        return _from_xml(text, offered)
    if _PY_TAG in text:
        return _from_python_tag(text, offered)
    if _MISTRAL in text:
        return _from_mistral(text, offered)
    if "<tool_call>" in text:
        return _from_tags(text, offered)
    return _trailing_json(text, offered)
