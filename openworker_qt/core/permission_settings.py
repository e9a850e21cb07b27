"""The permission settings: one frozen reading of them, and the live sources it is read from.

:class:`PermissionSettings` is what a decision reads (mode, workspace, roots, the
protected and sensitive sets, the allowlist, risk tables), taken once and never
changed: a setting changed afterwards counts from the next reading on.
:class:`LiveSettings` holds where each setting comes from (a value, a list
re-read every time, or a zero-argument callable) and makes a new reading on
request. Decisions: :mod:`openworker_qt.core.decide`.
"""

from __future__ import annotations

import enum
import functools
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, Protocol, TypeAlias, TypeVar

from openworker_qt.core import fence
from openworker_qt.core.approvals import ToolCallInfo
from openworker_qt.core.risk import RiskClass, parse_risk
from openworker_qt.domain.mcp_names import override_name

T = TypeVar("T")

Live: TypeAlias = "T | Callable[[], T]"
"""A setting given either as a value (a mutable list is re-read on every reading)
or as a zero-argument callable called on every reading."""

PathLike: TypeAlias = Path | str

PathsOf: TypeAlias = Callable[[ToolCallInfo], "Sequence[str] | None"]
"""How to find the paths a call writes or reads (``None``: it names none)."""


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


def _live(source: Any) -> Any:
    return source() if callable(source) else source


#: The last tuples found to hold strings only, kept (so compared by identity): the
#: sensitive paths are one tuple of ~170 while the environment stays, and each tool
#: call's context asked again whether all of them were strings.
_ALL_STRINGS: list[tuple[Any, ...]] = []


def _strings(paths: Iterable[PathLike] | None) -> tuple[str, ...]:
    """``paths`` as a tuple of strings; a tuple of strings is kept as it is (the
    fence finds its compiled form of a set by the tuple's identity first)."""
    if paths is None:
        return ()
    if isinstance(paths, tuple):
        if any(seen is paths for seen in _ALL_STRINGS):
            return paths
        if all(type(p) is str for p in paths):
            _ALL_STRINGS.append(paths)
            del _ALL_STRINGS[:-4]
            return paths
    return tuple(str(p) for p in paths)


def _classes(source: Any) -> Mapping[str, RiskClass]:
    """A risk table by engine name; a ``mcp:<server>/<tool>`` key is for that pair's
    tool (and beats a key by its name: see :mod:`openworker_qt.domain.mcp_names`)."""
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
    return MappingProxyType(out)


def _resolved_list(raw: Iterable[PathLike], ws: Path) -> list[Path]:
    out: list[Path] = []
    for item in raw:
        if not str(item).strip() or fence.url_scheme(str(item)):
            continue
        resolved = fence.resolved(str(item), ws)
        if resolved is not None and resolved not in out:
            out.append(resolved)
    return out


def _no_attachments() -> tuple[Path, ...]:
    return ()


@dataclass(frozen=True)
class PermissionSettings:
    """One reading of the permission settings; it never changes once made.

    ``workspace`` and every root are resolved (symlinks and ``..``), without
    duplicates; ``read_roots`` holds the workspace, the writable roots and the
    read-only grants. The files the user attached are read when a decision first
    needs them (a path outside every root: they come from the session history),
    then kept with this reading. ``write_paths`` / ``read_paths``: how to find the
    paths a call writes / reads (``None``: the decision's defaults).
    """

    mode: PermissionMode
    workspace: Path
    writable_roots: tuple[Path, ...]
    read_roots: tuple[Path, ...]
    protected: tuple[str, ...] = ()
    sensitive: tuple[str, ...] = ()
    shell_allowlist: tuple[str, ...] = ()
    auto_allow: frozenset[str] = frozenset()
    risk_overrides: Mapping[str, RiskClass] = field(default_factory=lambda: MappingProxyType({}))
    risk_raises: Mapping[str, RiskClass] = field(default_factory=lambda: MappingProxyType({}))
    outside_roots: Literal["ask", "deny"] = "ask"
    command_arg: str = "command"
    write_paths: PathsOf | None = field(default=None, compare=False)
    read_paths: PathsOf | None = field(default=None, compare=False)
    attached_source: Callable[[], tuple[Path, ...]] = field(
        default=_no_attachments, compare=False, repr=False)

    @functools.cached_property
    def attached_files(self) -> tuple[Path, ...]:
        """The files the user attached, resolved (read once, on first use)."""
        return tuple(self.attached_source())

    @property
    def anchors(self) -> tuple[Path, ...]:
        """Folders whose ``.openworker`` (a symlink perhaps) is OpenWorker's own."""
        return (self.workspace, *self.writable_roots)

    def risk_of(self, call: ToolCallInfo) -> RiskClass:
        """The call's risk class; a user override beats whatever the call was classified as."""
        return self.risk_overrides.get(call.name, call.risk)

    def write_root(self, resolved: Path) -> Path | None:
        """The writable root containing the resolved path, or ``None``."""
        for root in self.writable_roots:
            if resolved.is_relative_to(root):
                return root
        return None

    def read_root(self, resolved: Path) -> Path | None:
        """The read root (or attached file) containing the resolved path, or ``None``."""
        for root in self.read_roots:
            if resolved.is_relative_to(root):
                return root
        for attached in self.attached_files:  # asked for last: it reads the history
            if resolved == attached:
                return attached
        return None


class LiveSettings:
    """Where each permission setting comes from; :meth:`read` makes a new
    :class:`PermissionSettings` from the current values (see
    :class:`~openworker_qt.core.permissions.PermissionEngine` for the arguments)."""

    def __init__(
        self,
        *,
        workspace: Live[PathLike],
        mode: Live[PermissionMode | str],
        writable_roots: Live[Iterable[PathLike]],
        include_workspace: bool,
        read_roots: Live[Iterable[PathLike]],
        attached_files: Live[Iterable[PathLike]],
        shell_allowlist: Live[Iterable[str]],
        auto_allow: Live[Iterable[str]],
        risk_overrides: Live[Mapping[str, RiskClass | str]] | None,
        risk_raises: Live[Mapping[str, RiskClass | str]] | None,
        protected: Live[Iterable[PathLike]],
        sensitive: Live[Iterable[PathLike]],
        outside_roots: Literal["ask", "deny"],
        write_paths: PathsOf | None,
        read_paths: PathsOf | None,
        command_arg: str,
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
        self._protected = protected
        self._sensitive = sensitive
        self.outside_roots = outside_roots
        self.write_paths = write_paths
        self.read_paths = read_paths
        self.command_arg = command_arg

    def set_mode(self, value: PermissionMode | str) -> None:
        self._mode = parse_mode(value)

    def mode(self) -> PermissionMode:
        """The current mode. An unknown value from a live source falls back to interactive."""
        try:
            return parse_mode(_live(self._mode))
        except ValueError:
            return PermissionMode.INTERACTIVE

    def workspace(self) -> Path:
        return fence.real_path(os.path.abspath(os.path.expanduser(str(_live(self._workspace)))))

    def writable(self, ws: Path) -> tuple[Path, ...]:
        out = [ws] if self.include_workspace else []
        for root in _resolved_list(list(_live(self._roots) or ()), ws):
            if root not in out:
                out.append(root)
        return tuple(out)

    def readable(self, ws: Path, writable: Sequence[Path]) -> tuple[Path, ...]:
        out = list(writable)
        if ws not in out:
            out.insert(0, ws)  # reading the workspace never needs a grant
        for extra in _resolved_list(list(_live(self._read_roots) or ()), ws):
            if extra not in out:
                out.append(extra)
        return tuple(out)

    def sensitive(self) -> tuple[str, ...]:
        """The sensitive paths alone, read now (what a tool's context needs for each
        call: a whole :meth:`read` resolved the workspace and every root for it)."""
        return _strings(_live(self._sensitive))

    def read(self) -> PermissionSettings:
        """A new reading of every setting (the attached files: when first needed)."""
        ws = self.workspace()
        writable = self.writable(ws)
        attached = self._attached

        def attached_files() -> tuple[Path, ...]:
            return tuple(_resolved_list(list(_live(attached) or ()), ws))

        return PermissionSettings(
            mode=self.mode(),
            workspace=ws,
            writable_roots=writable,
            read_roots=self.readable(ws, writable),
            protected=_strings(_live(self._protected)),
            sensitive=_strings(_live(self._sensitive)),
            shell_allowlist=tuple(str(e) for e in _live(self._allowlist) or ()),
            # (an MCP tool may be named by its pair: "mcp:<server>/<tool>")
            auto_allow=frozenset(override_name(str(e)) for e in _live(self._auto_allow) or ()),
            risk_overrides=_classes(self._overrides),
            risk_raises=_classes(self._raises),
            outside_roots=self.outside_roots,
            command_arg=self.command_arg,
            write_paths=self.write_paths,
            read_paths=self.read_paths,
            attached_source=attached_files,
        )
