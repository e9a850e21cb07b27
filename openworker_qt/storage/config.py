"""Configuration in TOML: defaults ← global file ← workspace file.

The global file lives in the platform config dir, the workspace file in
``<workspace>/.openworker/config.toml``. Every known key has a default whose
type the file must match. Unknown keys are kept but reported as warnings (a
typo should not be silently ignored); a malformed file raises
:class:`ConfigError` naming the file, line and column, and so does an unknown
``permissions.mode`` (the message names the valid modes).

A workspace file comes with the folder (a cloned repository, a shared drive), so
it is not trusted to widen what the assistant may do, nor to change where the
conversation goes. Each session works in its own folder, so each session sees
the global config narrowed by *its* folder's file (:func:`with_workspace`; the
runtime caches it per folder, see ``Runtime.config_for``). A workspace file may
set only these keys, and only to narrow:

* ``general.max_iterations`` — only lower;
* ``memory.enabled`` — only turn off;
* ``[permissions]``, below.

Every other key is ignored with a warning: ``general.default_model`` (it would
choose which vendor receives the conversation — the model is chosen in your
settings or per session), the ``[providers]`` table (it names servers and keys:
a workspace could send the conversation and a key elsewhere), ``web`` (its
``allow_private_hosts`` would open the local network to ``web_fetch``), ``ui``, ``voice``
(a model *file*), ``automation`` and the rest of ``general``. A value equal to
your own setting changes nothing and is not reported.

In its ``[permissions]`` table it may only **narrow** the user's settings:

* ``mode`` — only a mode at least as strict (auto < custom < interactive <
  plan = discuss). It is also kept as ``permissions.workspace_mode``, a floor
  under each session's own mode (:func:`mode_with_floor`): a new session in the
  folder starts in it (:func:`new_session_mode`), and no session there runs less
  strictly — except that a workspace's ``plan`` asks for sessions to *start* in
  plan mode: an approved plan moves a session to interactive, so its floor
  afterwards is interactive;
* ``writable_roots`` — replaces the list; each entry must lie inside the
  workspace or a root of the global settings (stored resolved);
* ``shell_allowlist`` — replaces the user's extra entries; each entry must be
  one of them, or a default or user entry with more arguments;
* ``auto_allow`` — replaces the list; only tools the global list has;
* ``risk_overrides`` — only *raises*: they are kept apart, in
  ``permissions.workspace_risk_overrides``, and the permission engine applies
  them as "the stricter of both verdicts"; lowering a tool to ``read`` is
  refused.

Anything else under ``[permissions]`` is ignored. Every ignored key is a warning
naming the file and the key. A workspace file that cannot be used (malformed,
unreadable, a wrong type) is an error from :func:`load_config`; where a session
must go on regardless (``with_workspace(..., strict=False)``), its sessions may
only read and discuss until the file is fixed (``Config.error`` says why).

Secrets never live here (see ``secrets.py``).
"""

from __future__ import annotations

import copy
import os
import tomllib
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from openworker_qt.domain.mcp_names import stale_name
from openworker_qt.domain.risk import BUILTIN_RISK, RiskClass
from openworker_qt.domain.shell import DEFAULT_ALLOWED_COMMANDS, parse_allowlist
from openworker_qt.storage.paths import app_paths, workspace_config_file

# Valid ``permissions.mode`` values, from the most permissive to the strictest
# (kept in step with ``core.permissions.PermissionMode``; a test checks it).
MODES: tuple[str, ...] = ("auto", "custom", "interactive", "plan", "discuss")
MODE_STRICTNESS: dict[str, int] = {
    "auto": 0, "custom": 1, "interactive": 2, "plan": 3, "discuss": 3,
}
RISK_NAMES: tuple[str, ...] = tuple(r.value for r in RiskClass)
WORKSPACE_RISK_KEY = "workspace_risk_overrides"
WORKSPACE_MODE_KEY = "workspace_mode"

#: The keys outside ``[permissions]`` a workspace file may set, and how.
WORKSPACE_LOWER_ONLY = frozenset({"general.max_iterations"})
WORKSPACE_OFF_ONLY = frozenset({"memory.enabled"})

DEFAULTS: dict[str, Any] = {
    "general": {
        "default_model": "",
        "persona": "cowork",
        "max_iterations": 25,
        "language": "",
        "workspace": "",  # the folder new sessions work in (asked at first start)
        "user_name": "",  # written as the author of documents (none when empty)
    },
    "permissions": {
        "mode": "interactive",
        "writable_roots": [],
        "shell_allowlist": [],
        "auto_allow": [],
        "risk_overrides": {},
    },
    "providers": {},
    "ui": {
        "theme": "system",
        "quick_ask_hotkey": "Ctrl+Alt+Space",
        "voice_hotkey": "Ctrl+Alt+V",
        "notifications": True,
    },
    "automation": {
        "tick_seconds": 30,
        "paused": False,
        "max_concurrent_runs": 3,  # scheduled runs working at once (the others queue)
    },
    "memory": {
        "enabled": True,  # saving new memories (saved ones are still read when off)
    },
    # Dollars per million tokens by "provider:model" pattern, over the shipped list
    # (providers/prices.toml says the shape; providers/pricing.py checks entries).
    "prices": {},
    "web": {
        # hosts (``host`` or ``host:port``) web_fetch may reach on a private or local
        # address; global settings only (a workspace file cannot set it)
        "allow_private_hosts": [],
        "search_provider": "duckduckgo",  # duckduckgo | brave | tavily | searxng
        "searxng_url": "",
    },
    "voice": {
        "model": "",  # a ggml whisper model file; "" = <data dir>/models/ggml-*.bin
        "language": "en",
        "model_size": "base.en",  # the size "Download" fetches (voice/download.py lists them)
        # where models are downloaded from; {name} is the size ("base.en")
        "download_url": "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-{name}.bin",
        "push_to_talk_target": "quick_ask",  # quick_ask | composer (the global voice hotkey)
        "push_to_talk_send": False,  # send the transcript at once, or leave it for review
    },
    "updates": {
        "url": "",  # the signed manifest (storage/updates.py); "" = no update checks
        "check_automatically": False,  # once a week, a quiet notice only (never installs)
    },
}

# Tables whose keys are free-form (names chosen by the user).
OPEN_TABLES = frozenset({"providers", "permissions.risk_overrides", "prices"})

#: Whole-number settings and their valid range (both ends included).
RANGES: dict[str, tuple[int, int]] = {
    "general.max_iterations": (1, 1000),
    "automation.tick_seconds": (1, 86_400),
    "automation.max_concurrent_runs": (1, 1000),
}

# The shape of ``[providers]`` (read by providers/factories.py and compat.py): every
# entry is a table; these keys of a provider's table have a type; ``timeouts`` (the
# common one and each provider's) holds seconds above 0 and a number of tries.
PROVIDER_STRINGS = ("base_url", "key_name", "label", "api", "reasoning_effort",
                    "reasoning_field", "tool_id_style")
PROVIDER_BOOLS = ("stream", "include_thoughts", "think_tags", "send_reasoning_back",
                  "stream_usage", "recover_tool_calls")
PROVIDER_APIS = ("auto", "chat", "responses")
TIMEOUT_SECONDS = ("connect", "first_event", "idle", "max_retry_after")
MAX_ATTEMPTS = 20


class ConfigError(ValueError):
    """A config file cannot be used; the message names the file and the place."""


@dataclass(slots=True)
class Config:
    data: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    sources: list[Path] = field(default_factory=list)
    #: This config without its workspace layer (None: it has none).
    base: Config | None = None
    #: Why the workspace file could not be used (then sessions there may only read).
    error: str | None = None

    def get(self, dotted: str, default: Any = None) -> Any:
        node: Any = self.data
        for part in dotted.split("."):
            if not isinstance(node, Mapping) or part not in node:
                return default
            node = node[part]
        return node


def _check(
    data: Mapping[str, Any], defaults: Mapping[str, Any], path: Path, prefix: str,
    warnings: list[str],
) -> None:
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if prefix.rstrip(".") in OPEN_TABLES:
            continue
        if key not in defaults:
            warnings.append(f"{path}: unknown setting '{dotted}' (ignored)")
            continue
        expected = defaults[key]
        if isinstance(expected, dict):
            if not isinstance(value, dict):
                raise ConfigError(f"{path}: '{dotted}' must be a table")
            _check(value, expected, path, dotted + ".", warnings)
            if dotted == "providers":
                _check_providers(value, path)
        elif isinstance(expected, bool):
            if not isinstance(value, bool):
                raise ConfigError(f"{path}: '{dotted}' must be true or false, got {value!r}")
        elif isinstance(expected, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{path}: '{dotted}' must be an integer, got {value!r}")
            if dotted in RANGES and not RANGES[dotted][0] <= value <= RANGES[dotted][1]:
                low, high = RANGES[dotted]
                raise ConfigError(
                    f"{path}: '{dotted}' = {value} is out of range (expected a whole number "
                    f"from {low} to {high})"
                )
        elif isinstance(expected, str):
            if not isinstance(value, str):
                raise ConfigError(f"{path}: '{dotted}' must be a string, got {value!r}")
        elif isinstance(expected, list):
            if not isinstance(value, list):
                raise ConfigError(f"{path}: '{dotted}' must be a list, got {value!r}")
            if not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{path}: '{dotted}' must be a list of strings, got {value!r}")
        if dotted == "permissions.mode" and normal_mode(value) is None:
            raise ConfigError(
                f"{path}: 'permissions.mode' = {value!r} is not a permission mode "
                f"(expected one of: {', '.join(MODES)})"
            )
        if dotted == "permissions.risk_overrides" and isinstance(value, Mapping):
            for tool, risk in value.items():
                if normal_risk(risk) is None:
                    warnings.append(
                        f"{path}: 'permissions.risk_overrides.{tool}' = {risk!r} is not a risk "
                        f"class (expected one of: {', '.join(RISK_NAMES)}); ignored"
                    )
                elif stale_name(str(tool)):
                    warnings.append(
                        f"{path}: 'permissions.risk_overrides.{tool}' names no MCP tool: "
                        "a server or tool name with \"__\" in it is no longer spelled so. "
                        "Name the tool as \"mcp:<server>/<tool>\" (or set its risk in "
                        "Settings → MCP servers); ignored"
                    )
        if dotted == "permissions.auto_allow" and isinstance(value, list):
            for tool in value:
                if stale_name(str(tool)):
                    warnings.append(
                        f"{path}: 'permissions.auto_allow' entry {tool!r} names no MCP tool: "
                        "a server or tool name with \"__\" in it is no longer spelled so. "
                        "Name the tool as \"mcp:<server>/<tool>\"; ignored"
                    )


def _check_providers(table: Mapping[str, Any], path: Path) -> None:
    """``[providers]``: each entry a table, known keys of the right type, timeouts in
    range (see the module docstring of ``providers/factories.py``)."""
    def fail(dotted: str, what: str, value: Any) -> NoReturn:
        raise ConfigError(f"{path}: '{dotted}' must be {what}, got {value!r}")

    for name, entry in table.items():
        where = f"providers.{name}"
        if not isinstance(entry, Mapping):
            fail(where, "a table", entry)
        if name == "timeouts":
            _check_timeouts(entry, where, path)
            continue
        if name == "capabilities":
            for pattern, caps in entry.items():
                if not isinstance(caps, Mapping):
                    fail(f"{where}.{pattern}", "a table", caps)
            continue
        for key, value in entry.items():
            dotted = f"{where}.{key}"
            if key == "timeouts":
                if not isinstance(value, Mapping):
                    fail(dotted, "a table", value)
                _check_timeouts(value, dotted, path)
            elif key in PROVIDER_STRINGS and not isinstance(value, str):
                fail(dotted, "a string", value)
            elif key in PROVIDER_BOOLS and not isinstance(value, bool):
                fail(dotted, "true or false", value)
            elif key == "api" and value not in PROVIDER_APIS:
                fail(dotted, f"one of: {', '.join(PROVIDER_APIS)}", value)
            elif key == "models" and (
                not isinstance(value, list) or not all(isinstance(m, str) for m in value)
            ):
                fail(dotted, "a list of model names", value)
            elif key == "thinking_budget" and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0
            ):
                fail(dotted, "a whole number of tokens (0 turns thinking off)", value)


def _check_timeouts(table: Mapping[str, Any], where: str, path: Path) -> None:
    for key, value in table.items():
        dotted = f"{where}.{key}"
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if key in TIMEOUT_SECONDS:
            if not number or value <= 0:
                raise ConfigError(
                    f"{path}: '{dotted}' must be a number of seconds above 0, got {value!r}")
        elif key == "attempts":
            if not number or not float(value).is_integer() or not 1 <= value <= MAX_ATTEMPTS:
                raise ConfigError(
                    f"{path}: '{dotted}' must be a whole number of tries from 1 to "
                    f"{MAX_ATTEMPTS}, got {value!r}")
        else:
            raise ConfigError(
                f"{path}: unknown setting '{dotted}' (known: "
                f"{', '.join([*TIMEOUT_SECONDS, 'attempts'])})")


def normal_mode(value: object) -> str | None:
    """The mode name ``value`` spells (case and spaces ignored), or ``None``."""
    if not isinstance(value, str):
        return None
    v = value.strip().lower()
    return v if v in MODES else None


def normal_risk(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    v = value.strip().lower()
    if v in ("write", "local_write"):
        v = "write_local"
    return v if v in RISK_NAMES else None


def _resolve(raw: str, base: Path) -> Path:
    p = Path(os.path.expanduser(raw))
    return (p if p.is_absolute() else base / p).resolve()


def _tokens(entry: str) -> tuple[str, ...] | None:
    parsed = parse_allowlist([entry])
    return parsed[0] if parsed else None


def _narrow_permissions(
    perms: Mapping[str, Any], base: Mapping[str, Any], path: Path, workspace: Path,
    warnings: list[str],
) -> dict[str, Any]:
    """The part of a workspace ``[permissions]`` table that only narrows ``base``."""
    def refuse(key: str, what: str) -> None:
        warnings.append(
            f"{path}: 'permissions.{key}' {what}; ignored — a workspace's own settings may "
            "only narrow the permissions set in your settings"
        )

    out: dict[str, Any] = {}
    for key, value in perms.items():
        if key == "mode":
            mode = normal_mode(value)
            current = normal_mode(base.get("mode")) or "interactive"
            if mode is None:
                continue  # _check has raised already
            if MODE_STRICTNESS[mode] >= MODE_STRICTNESS[current]:
                out["mode"] = mode
                out[WORKSPACE_MODE_KEY] = mode
            else:
                refuse("mode", f"= {value!r} is less strict than {current!r}")
        elif key == "writable_roots":
            ws = workspace.resolve()
            allowed = [ws] + [_resolve(str(r), ws) for r in base.get("writable_roots", [])]
            kept: list[str] = []
            for entry in value:
                try:
                    resolved = _resolve(str(entry), ws)
                except (OSError, RuntimeError, ValueError):
                    refuse("writable_roots", f"entry {entry!r} cannot be resolved")
                    continue
                if any(resolved.is_relative_to(a) for a in allowed):
                    kept.append(str(resolved))
                else:
                    refuse("writable_roots", f"entry {entry!r} is outside your writable roots")
            out["writable_roots"] = kept
        elif key == "shell_allowlist":
            known = [
                t for t in (_tokens(str(e)) for e in
                            [*DEFAULT_ALLOWED_COMMANDS, *base.get("shell_allowlist", [])])
                if t
            ]
            kept = []
            for entry in value:
                tokens = _tokens(str(entry))
                if tokens is not None and any(tokens[: len(k)] == k for k in known):
                    kept.append(str(entry))
                else:
                    refuse("shell_allowlist", f"entry {entry!r} is not on your shell allowlist")
            out["shell_allowlist"] = kept
        elif key == "auto_allow":
            allowed_tools = {str(t) for t in base.get("auto_allow", [])}
            kept = []
            for tool in value:
                if str(tool) in allowed_tools:
                    kept.append(str(tool))
                else:
                    refuse("auto_allow", f"entry {tool!r} is not in your auto_allow list")
            out["auto_allow"] = kept
        elif key == "risk_overrides":
            raises: dict[str, str] = {}
            user = base.get("risk_overrides", {})
            for tool, risk in value.items():
                name = normal_risk(risk)
                if name is None:
                    continue  # _check has warned
                was = normal_risk(user.get(tool)) if isinstance(user, Mapping) else None
                builtin = BUILTIN_RISK.get(str(tool))
                was = was or (builtin.value if builtin is not None else None)
                if name == "read" and was != "read":
                    refuse(f"risk_overrides.{tool}", f"= {risk!r} would lower the tool's risk")
                    continue
                raises[str(tool)] = name
            out[WORKSPACE_RISK_KEY] = raises
        else:
            refuse(key, "cannot be set by a workspace")
    return out


def _narrow_workspace(
    raw: Mapping[str, Any], base: Mapping[str, Any], path: Path, workspace: Path,
    warnings: list[str],
) -> dict[str, Any]:
    """The part of a workspace file that may apply (see the module docstring)."""
    out: dict[str, Any] = {}
    for table, value in raw.items():
        if table == "permissions" and isinstance(value, Mapping):
            out[table] = _narrow_permissions(value, base.get("permissions", {}), path, workspace,
                                             warnings)
        elif table == "providers":
            warnings.append(
                f"{path}: '[providers]' cannot be set by a workspace (it names servers and "
                "keys); ignored — set providers in your settings"
            )
        elif table in DEFAULTS and isinstance(value, Mapping):  # else _check has warned
            for key, item in value.items():
                if key not in DEFAULTS[table]:
                    continue  # _check has warned
                dotted = f"{table}.{key}"
                if _workspace_may_set(dotted, item, _get(base, dotted), path, warnings):
                    out.setdefault(table, {})[key] = item
    return out


def _workspace_may_set(
    dotted: str, value: Any, current: Any, path: Path, warnings: list[str]
) -> bool:
    if value == current:
        return True  # changes nothing
    if dotted in WORKSPACE_LOWER_ONLY:
        if value < current:
            return True
        why = f"= {value!r} is above your setting ({current!r}); a workspace may only lower it"
    elif dotted in WORKSPACE_OFF_ONLY:
        if value is False:
            return True
        why = "is off in your settings; a workspace may only turn it off"
    elif dotted == "general.default_model":
        why = ("cannot be set by a workspace (it would choose which provider receives the "
               "conversation); choose the model in your settings or for the session")
    else:
        why = "cannot be set by a workspace; set it in your settings"
    warnings.append(f"{path}: '{dotted}' {why}; ignored")
    return False


def _get(data: Mapping[str, Any], dotted: str) -> Any:
    node: Any = data
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    return node


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> None:
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


def read_toml(path: Path) -> dict[str, Any]:
    """Parse one TOML file; a missing file is empty, a malformed one a ConfigError."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc})") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc


def load_config(workspace: Path | None = None, *, global_file: Path | None = None) -> Config:
    """Defaults, then the global file, then the workspace file (if any) narrowing it.

    Raises:
        ConfigError: a file cannot be used (the message names it and the place).
    """
    gfile = global_file or app_paths().config_file
    data = copy.deepcopy(DEFAULTS)
    warnings: list[str] = []
    sources: list[Path] = []
    raw = read_toml(gfile)
    if raw:
        _check(raw, DEFAULTS, gfile, "", warnings)
        _merge(data, raw)
        sources.append(gfile)
    _normalise_mode(data)
    config = Config(data, warnings, sources)
    return with_workspace(config, workspace) if workspace is not None else config


def with_workspace(config: Config, workspace: Path | None, *, strict: bool = True) -> Config:
    """``config`` without any workspace layer it had, narrowed by ``workspace``'s file.

    ``strict``: a file that cannot be used raises :class:`ConfigError`; otherwise the
    result lets sessions in ``workspace`` only read and discuss, and says why in
    :attr:`Config.error` and a warning.
    """
    base = config.base or config
    if workspace is None:
        return base
    path = workspace_config_file(workspace)
    warnings: list[str] = []
    try:
        raw = read_toml(path)
        if not raw:
            return base
        _check(raw, DEFAULTS, path, "", warnings)
        narrowed = _narrow_workspace(raw, base.data, path, workspace, warnings)
    except ConfigError as exc:
        if strict:
            raise
        return _read_only(base, workspace, exc)
    data = copy.deepcopy(base.data)
    _merge(data, narrowed)
    _normalise_mode(data)
    return Config(data, [*base.warnings, *warnings], [*base.sources, path], base=base)


def _read_only(base: Config, workspace: Path, exc: ConfigError) -> Config:
    data = copy.deepcopy(base.data)
    data["permissions"]["mode"] = data["permissions"][WORKSPACE_MODE_KEY] = "discuss"
    note = (f"{exc} — until it is fixed, sessions working in {workspace} may only read and "
            "discuss")
    return Config(data, [*base.warnings, note], list(base.sources), base=base, error=note)


def _normalise_mode(data: dict[str, Any]) -> None:
    mode = normal_mode(data["permissions"].get("mode"))
    if mode is not None:
        data["permissions"]["mode"] = mode


def mode_with_floor(mode: str | None, workspace_mode: object) -> str:
    """The mode a session runs in: its own ``mode``, raised to the floor its workspace
    file sets (``permissions.workspace_mode``). A workspace's ``plan`` is a floor of
    ``interactive``: an approved plan moves a session there (see the module docstring)."""
    own = normal_mode(mode) or "interactive"
    floor = normal_mode(workspace_mode)
    if floor == "plan":
        floor = "interactive"
    if floor is None or MODE_STRICTNESS[own] >= MODE_STRICTNESS[floor]:
        return own
    return floor


def new_session_mode(mode: str | None, workspace_mode: object) -> str:
    """The mode a new session in a folder starts in: ``mode``, or the folder's own mode
    when that is stricter (a workspace in plan mode starts its sessions in plan mode)."""
    own = normal_mode(mode) or "interactive"
    floor = normal_mode(workspace_mode)
    if floor is None or MODE_STRICTNESS[own] >= MODE_STRICTNESS[floor]:
        return own
    return floor


def update_global(updates: Mapping[str, Any], *, global_file: Path | None = None) -> None:
    """Merge ``updates`` into the global file (written atomically).

    The file is edited as a document (tomlkit), not re-serialised from a dict:
    the user's comments, blank lines and key order survive; only the changed
    values are rewritten. A file that cannot be parsed is left untouched.
    """
    import tomlkit

    gfile = global_file or app_paths().config_file
    _check(updates, DEFAULTS, gfile, "", [])
    document = _read_document(gfile)
    _merge_into_document(document, updates)
    gfile.parent.mkdir(parents=True, exist_ok=True)
    tmp = gfile.with_suffix(".toml.tmp")
    tmp.write_text(tomlkit.dumps(document), encoding="utf-8")
    tmp.replace(gfile)


def _read_document(path: Path) -> Any:
    """The global file as a style-preserving tomlkit document (empty when missing)."""
    import tomlkit
    from tomlkit.exceptions import ParseError

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return tomlkit.document()
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc})") from exc
    try:
        return tomlkit.parse(text)
    except ParseError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc


def _merge_into_document(node: Any, updates: Mapping[str, Any]) -> None:
    """Tables merge key by key; any other value (lists too) replaces the old one."""
    for key, value in updates.items():
        current = node.get(key)
        if isinstance(value, Mapping) and isinstance(current, MutableMapping):
            _merge_into_document(current, value)
        elif isinstance(value, Mapping) and current is None:
            import tomlkit

            table = tomlkit.item(copy.deepcopy(dict(value)))
            table.add(tomlkit.nl())  # a new table keeps a blank line before the next one
            node[key] = table
        else:
            node[key] = copy.deepcopy(value)
