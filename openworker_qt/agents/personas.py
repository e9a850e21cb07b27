"""Personas: who the agent is in a session, and what it may be offered.

A persona is a Markdown file with YAML front matter::

    ---
    name: ops                      # its id: lower case, digits, - and _
    title: Ops                     # shown in the picker
    description: Careful operations work on servers and services
    family: code                   # code | knowledge
    tools: [files, shell, git]     # tool families (agents/families.py)
    model: anthropic:claude-opus-4-6   # recommended model (a suggestion)
    mode: interactive              # recommended permission mode (a suggestion)
    connectors: [github, slack]    # connectors it would like to use
    team: {role: lead, workers: [{name: writer, persona: writer}]}  # agents/team_section.py
    ---
    The persona's own instructions (the first part of the system prompt).

Nothing else may appear in the front matter: a key that is not one of these is
refused, and a key about permissions (risk classes, folders, rules, allowlists)
is refused with a message saying so. A persona only *narrows* what a session
offers (the tool families it lists); the recommended mode is never applied by
itself. So installing a persona can never lower a risk class or widen a folder.

Built-in personas ship with the app (``agents/personas/*.md``). Third-party ones
are installed from a folder or a git URL into a managed copy under the app's
data folder (:class:`PersonaRegistry`), and stay **disabled until the user
consents** to what they declare (:func:`capabilities` says it in plain words).
Consent is bound to the persona file's exact contents: an update that changes
it disables the persona again until the user agrees to the new version.

Reading and installing touch the disk (and ``git``): call them from a worker
thread or the command line, never from the loop thread.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from openworker_qt.agents.families import FAMILIES, FAMILY_WORDS
from openworker_qt.agents.frontmatter import FrontMatterError, split
from openworker_qt.agents.team_section import (
    TeamSection,
    TeamSectionError,
    parse_team,
    team_capabilities,
)
from openworker_qt.core.permission_settings import MODE_NAMES

__all__ = [
    "BUILTIN_NAMES",
    "DEFAULT_PERSONA",
    "Persona",
    "PersonaError",
    "PersonaRegistry",
    "TEAM_BUILTINS",
    "builtin_personas",
    "capabilities",
    "parse_persona",
]

log = logging.getLogger(__name__)

DEFAULT_PERSONA = "cowork"
#: The built-in team personas: leads, then the workers they staff (issue 29).
TEAM_BUILTINS: tuple[str, ...] = ("team", "software-team", "devops-team", "researcher",
                                  "analyst", "writer", "reviewer")
BUILTIN_NAMES: tuple[str, ...] = ("cowork", "code", "chat", "ops", "myhelper", *TEAM_BUILTINS)
FAMILY_KINDS = ("code", "knowledge")
_ALLOWED = frozenset({"name", "title", "description", "family", "tools", "model", "mode",
                      "connectors", "team"})
#: Front-matter keys that would touch permissions: refused with a message saying why.
_PERMISSION_WORDS = ("risk", "root", "folder", "permission", "allow", "rule", "approv",
                     "sandbox", "trust", "grant", "secret", "key")
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
MAX_PERSONA_BYTES = 64 * 1024
MAX_COPY_BYTES = 5 * 1024 * 1024
GIT_TIMEOUT = 120.0
PERSONA_FILES = ("PERSONA.md", "persona.md")


class PersonaError(ValueError):
    """A persona that cannot be read, installed or changed; the message says why."""


@dataclass(frozen=True, slots=True)
class Persona:
    name: str
    title: str
    description: str
    family: str
    tools: tuple[str, ...]
    body: str
    model: str = ""
    mode: str = ""
    connectors: tuple[str, ...] = ()
    builtin: bool = False
    enabled: bool = True
    #: Installed personas: where it came from, and whether the user agreed to this version.
    source: str = ""
    consented: bool = True
    fingerprint: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: Leads a team or works in one (the ``team:`` section), or None.
    team: TeamSection | None = None


def _strings(value: Any, key: str, source: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise PersonaError(f"{source}: '{key}' must be a list of names")
    return tuple(v.strip() for v in value)


def parse_persona(text: str, *, source: str = "the persona", builtin: bool = False) -> Persona:
    """The persona in ``text``; :class:`PersonaError` saying what to fix if it is not one."""
    try:
        meta, body = split(text, source=source)
    except FrontMatterError as exc:
        raise PersonaError(str(exc)) from exc
    for key in meta:
        if key in _ALLOWED:
            continue
        if any(word in key.lower() for word in _PERMISSION_WORDS):
            raise PersonaError(
                f"{source}: a persona cannot change permissions ('{key}'). Risk classes, "
                "folders and rules are set by you in Settings, never by a persona.")
        raise PersonaError(f"{source}: unknown setting '{key}' (a persona may set: "
                           f"{', '.join(sorted(_ALLOWED))})")
    name = meta.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise PersonaError(f"{source}: 'name' must be a short id of lower-case letters, digits, "
                           "'-' and '_' (e.g. 'release-helper')")
    description = meta.get("description")
    if not isinstance(description, str) or not description.strip():
        raise PersonaError(f"{source}: 'description' is missing (one line saying what it is for)")
    family = meta.get("family", "knowledge")
    if family not in FAMILY_KINDS:
        raise PersonaError(f"{source}: 'family' must be one of {', '.join(FAMILY_KINDS)}")
    tools = _strings(meta.get("tools"), "tools", source)
    unknown = [t for t in tools if t not in FAMILIES]
    if unknown:
        raise PersonaError(f"{source}: unknown tool families {', '.join(unknown)} (known: "
                           f"{', '.join(FAMILIES)})")
    mode = meta.get("mode") or ""
    if mode and mode not in MODE_NAMES:
        raise PersonaError(f"{source}: 'mode' must be one of {', '.join(MODE_NAMES)}")
    model = meta.get("model") or ""
    if not isinstance(model, str):
        raise PersonaError(f"{source}: 'model' must be a model name such as 'openai:gpt-4o'")
    title = meta.get("title") or name.replace("-", " ").replace("_", " ").capitalize()
    if not isinstance(title, str):
        raise PersonaError(f"{source}: 'title' must be text")
    if not body.strip():
        raise PersonaError(f"{source}: the persona has no instructions below its front matter")
    try:
        team = parse_team(meta.get("team"), source=source)
    except TeamSectionError as exc:
        raise PersonaError(str(exc)) from exc
    return Persona(
        name=name, title=title.strip(), description=" ".join(description.split()),
        family=str(family), tools=tuple(dict.fromkeys(tools)), body=body.strip() + "\n",
        model=model.strip(), mode=str(mode), connectors=_strings(meta.get("connectors"),
                                                                 "connectors", source),
        builtin=builtin, fingerprint=_fingerprint(text.encode("utf-8")), team=team,
    )


def _fingerprint(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def capabilities(persona: Persona) -> list[str]:
    """What ``persona`` declares, in plain words (the consent dialog and the CLI)."""
    lines = [FAMILY_WORDS[f] for f in persona.tools if f in FAMILY_WORDS]
    if not lines:
        lines.append("Talk with you only: no tools, no files, no commands")
    if persona.connectors:
        lines.append("Would like to use these connected services: " + ", ".join(persona.connectors))
    if persona.mode:
        lines.append(f"Suggests the “{persona.mode}” permission mode (only a suggestion: "
                     "your choice stays in force)")
    if persona.model:
        lines.append(f"Suggests the model {persona.model}")
    if persona.team is not None:
        lines.extend(team_capabilities(persona.team))
    return lines


_builtins: dict[str, Persona] | None = None
_builtins_lock = threading.Lock()


def builtin_personas() -> dict[str, Persona]:
    """The personas shipped with the app, by name (read once; blocking)."""
    global _builtins
    with _builtins_lock:
        if _builtins is None:
            folder = resources.files("openworker_qt.agents") / "personas"
            found: dict[str, Persona] = {}
            for name in BUILTIN_NAMES:
                text = (folder / f"{name}.md").read_text(encoding="utf-8")
                found[name] = parse_persona(text, source=f"{name}.md", builtin=True)
            _builtins = found
        return _builtins


def _persona_file(folder: Path) -> Path:
    for name in PERSONA_FILES:
        if (folder / name).is_file():
            return folder / name
    candidates = [p for p in folder.glob("*.md") if p.is_file() and p.name.lower() != "readme.md"]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise PersonaError(f"no persona in {folder}: expected a PERSONA.md file")
    raise PersonaError(f"{folder} holds several Markdown files: name the persona PERSONA.md")


def _read_persona(path: Path) -> tuple[Persona, bytes]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PersonaError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if len(data) > MAX_PERSONA_BYTES:
        raise PersonaError(f"{path.name} is larger than {MAX_PERSONA_BYTES // 1024} KB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PersonaError(f"{path.name} is not UTF-8 text") from exc
    return parse_persona(text, source=path.name), data


class PersonaRegistry:
    """The built-in personas and those installed under ``root`` (the app data folder's
    ``personas``). Blocking: use it from a worker thread or the command line; the
    loop reads :meth:`cached` (filled by :meth:`load`)."""

    STATE = "state.json"

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._lock = threading.RLock()
        self._cache: dict[str, Persona] | None = None
        self._signature: tuple[int, int] | None = None  # of the state file the cache is of

    # ------------------------------------------------------------------ state

    def _state(self) -> dict[str, Any]:
        try:
            raw = json.loads((self.root / self.STATE).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {"installed": {}, "disabled_builtin": []}
        except (OSError, ValueError):
            log.warning("the personas' state file is unreadable; installed personas stay disabled")
            return {"installed": {}, "disabled_builtin": []}
        if not isinstance(raw, dict):
            return {"installed": {}, "disabled_builtin": []}
        raw.setdefault("installed", {})
        raw.setdefault("disabled_builtin", [])
        return raw

    def _save(self, state: dict[str, Any]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self.root / (self.STATE + ".tmp")
        tmp.write_text(json.dumps(state, indent=2, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.root / self.STATE)
        self._cache = None

    # ------------------------------------------------------------------ reading

    def _state_signature(self) -> tuple[int, int] | None:
        try:
            st = (self.root / self.STATE).stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size

    def load(self) -> dict[str, Persona]:
        """Every persona by name, built-ins first (blocking). Read again when the state
        file changed (another window or the command line enabled or removed one)."""
        with self._lock:
            signature = self._state_signature()
            if self._cache is not None and signature == self._signature:
                return self._cache
            self._signature = signature
            state = self._state()
            disabled = set(state.get("disabled_builtin", []))
            out = {name: replace(p, enabled=name == DEFAULT_PERSONA or name not in disabled)
                   for name, p in builtin_personas().items()}
            for name, entry in sorted(state["installed"].items()):
                if name in out or not isinstance(entry, dict):
                    continue
                try:
                    persona, data = _read_persona(_persona_file(self.root / name))
                except PersonaError as exc:
                    log.warning("installed persona %s cannot be read: %s", name, exc)
                    continue
                fingerprint = _fingerprint(data + _bundle_bytes(self.root / name))
                consented = entry.get("consented") == fingerprint
                out[name] = replace(
                    persona, source=str(entry.get("source", "")), fingerprint=fingerprint,
                    consented=consented, enabled=bool(entry.get("enabled")) and consented,
                )
            self._cache = out
            return out

    def cached(self) -> dict[str, Persona]:
        """What :meth:`load` found last (the built-ins if it has not run yet: never blocks
        on more than the packaged files)."""
        return self._cache if self._cache is not None else dict(builtin_personas())

    def get(self, name: str | None) -> Persona:
        """The persona a session named ``name`` runs as: that one if it is known and
        enabled, else the default (an unknown, disabled or removed persona never
        runs)."""
        personas = self.cached()
        persona = personas.get(name or "")
        if persona is None or not persona.enabled:
            return personas[DEFAULT_PERSONA]
        return persona

    def enabled(self) -> list[Persona]:
        return [p for p in self.load().values() if p.enabled]

    def require(self, name: str) -> Persona:
        """The enabled persona ``name`` (blocking), for a user who asked for it by name;
        :class:`PersonaError` saying why not (unknown, disabled or waiting for consent)
        and naming the enabled ones."""
        personas = self.load()
        enabled = ", ".join(p.name for p in personas.values() if p.enabled)
        persona = personas.get(name)
        if persona is None:
            raise PersonaError(f"unknown persona {name!r} (enabled personas: {enabled})")
        if not persona.enabled:
            why = ("it waits for your consent" if not persona.consented else "it is disabled")
            raise PersonaError(
                f"persona {name!r} cannot be used: {why} (turn it on with "
                f"`openworker-qt personas enable {name}`; enabled personas: {enabled})")
        return persona

    # ------------------------------------------------------------------ installing

    def inspect_folder(self, folder: Path) -> Persona:
        """The persona in ``folder`` without installing it."""
        folder = Path(folder).expanduser()
        if not folder.is_dir():
            raise PersonaError(f"{folder} is not a folder")
        persona, _ = _read_persona(_persona_file(folder))
        return persona

    def install_folder(self, folder: Path, *, source: str | None = None) -> Persona:
        """Copy the persona in ``folder`` into the managed folder, disabled until consent.
        Installing over an installed persona of the same name updates it."""
        folder = Path(folder).expanduser().resolve()
        persona = self.inspect_folder(folder)
        if persona.name in BUILTIN_NAMES:
            raise PersonaError(f"'{persona.name}' is the name of a built-in persona: "
                               "rename the persona before installing it")
        _check_size(folder)
        with self._lock:
            self.root.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".install-", dir=self.root))
            try:
                shutil.copytree(folder, staging / "copy", symlinks=True, ignore=_not_copied)
                copied, data = _read_persona(_persona_file(staging / "copy"))
                data += _bundle_bytes(staging / "copy")  # consent covers what it brings
                target = self.root / copied.name
                if target.exists():
                    shutil.rmtree(target)
                os.replace(staging / "copy", target)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
            state = self._state()
            previous = state["installed"].get(copied.name) or {}
            fingerprint = _fingerprint(data)
            same = previous.get("consented") == fingerprint
            state["installed"][copied.name] = {
                "source": source or str(folder),
                "installed_at": time.time(),
                "consented": fingerprint if same else None,
                "enabled": bool(previous.get("enabled")) and same,
            }
            self._save(state)
            return self.load()[copied.name]

    def install_git(self, url: str) -> Persona:
        """Clone ``url`` (shallow) and install the persona at its top level."""
        if not url or url.startswith("-"):
            raise PersonaError("give a git URL such as https://example.org/personas/helper.git")
        with tempfile.TemporaryDirectory(prefix="openworker-persona-") as tmp:
            checkout = Path(tmp) / "repo"
            env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "",
                   "GIT_CONFIG_NOSYSTEM": "1"}
            try:
                done = subprocess.run(
                    ["git", "-c", "protocol.ext.allow=never", "clone", "--depth", "1", "--quiet",
                     "--no-recurse-submodules",
                     "--", url, str(checkout)],
                    capture_output=True, text=True, timeout=GIT_TIMEOUT, env=env, check=False,
                )
            except FileNotFoundError as exc:
                raise PersonaError("git is not installed, so a persona cannot be "
                                   "installed from a git URL") from exc
            except subprocess.TimeoutExpired as exc:
                raise PersonaError(f"cloning {url} took longer than {GIT_TIMEOUT:g} s") from exc
            if done.returncode != 0:
                why = (done.stderr or done.stdout).strip().splitlines()
                raise PersonaError(f"could not clone {url}: {why[-1] if why else 'git failed'}")
            return self.install_folder(checkout, source=url)

    def update(self, name: str) -> Persona:
        """Fetch ``name`` again from where it was installed. If its file changed, it is
        disabled until the user consents to the new version."""
        entry = self._entry(name)
        source = str(entry.get("source", ""))
        if _looks_like_git(source):
            return self.install_git(source)
        if not source or not Path(source).is_dir():
            raise PersonaError(f"the folder {name!r} was installed from is gone: {source}")
        return self.install_folder(Path(source))

    def remove(self, name: str) -> None:
        self._entry(name)
        with self._lock:
            shutil.rmtree(self.root / name, ignore_errors=True)
            state = self._state()
            state["installed"].pop(name, None)
            self._save(state)

    # ------------------------------------------------------------------ consent

    def consent(self, name: str, fingerprint: str) -> Persona:
        """The user agreed to ``name`` as shown (``fingerprint`` of the version shown):
        enable it. A persona changed since it was shown is refused."""
        with self._lock:
            persona = self.load().get(name)
            if persona is None or persona.builtin:
                raise PersonaError(f"no installed persona named {name!r}")
            if persona.fingerprint != fingerprint:
                raise PersonaError(f"{name!r} changed since it was shown to you: review it again")
            state = self._state()
            state["installed"][name].update(consented=fingerprint, enabled=True)
            self._save(state)
            return self.load()[name]

    def enable(self, name: str) -> Persona:
        """Enable ``name``; an installed persona must have the user's consent to this version."""
        with self._lock:
            persona = self.load().get(name)
            if persona is None:
                raise PersonaError(f"no persona named {name!r}")
            state = self._state()
            if persona.builtin:
                state["disabled_builtin"] = [n for n in state["disabled_builtin"] if n != name]
            elif not persona.consented:
                raise PersonaError(f"{name!r} needs your consent first: review what it may do")
            else:
                state["installed"][name]["enabled"] = True
            self._save(state)
            return self.load()[name]

    def disable(self, name: str) -> Persona:
        with self._lock:
            persona = self.load().get(name)
            if persona is None:
                raise PersonaError(f"no persona named {name!r}")
            if name == DEFAULT_PERSONA:
                raise PersonaError(f"'{DEFAULT_PERSONA}' is the default persona and stays enabled")
            state = self._state()
            if persona.builtin:
                state["disabled_builtin"] = sorted({*state["disabled_builtin"], name})
            else:
                state["installed"][name]["enabled"] = False
            self._save(state)
            return self.load()[name]

    def _entry(self, name: str) -> dict[str, Any]:
        entry = self._state()["installed"].get(name)
        if not isinstance(entry, dict):
            if name in BUILTIN_NAMES:
                raise PersonaError(f"{name!r} is built in: it cannot be updated or removed")
            raise PersonaError(f"no installed persona named {name!r}")
        return entry


def _bundle_bytes(folder: Path) -> bytes:
    """The ``bundle.json`` a persona imported from a bundle holds (``agents/bundles.py``):
    part of what the user's consent is bound to."""
    try:
        return b"\0" + (folder / "bundle.json").read_bytes()
    except OSError:
        return b""


def _not_copied(folder: str, names: list[str]) -> set[str]:
    """What an install leaves behind: ``.git`` and every symbolic link (a link in a
    persona's folder could point at any file of the user's, e.g. a private key)."""
    return {n for n in names if n == ".git" or os.path.islink(os.path.join(folder, n))}


def _looks_like_git(source: str) -> bool:
    return bool(re.match(r"^(https?|ssh|git|file)://", source)) or source.endswith(".git") or (
        "@" in source and ":" in source and not Path(source).exists())


def is_git_url(source: str) -> bool:
    """``source`` names a git repository rather than a local folder."""
    return _looks_like_git(source)


def _check_size(folder: Path) -> None:
    total = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for f in filenames:
            try:
                total += os.lstat(os.path.join(dirpath, f)).st_size
            except OSError:
                continue
            if total > MAX_COPY_BYTES:
                raise PersonaError(f"{folder} is larger than {MAX_COPY_BYTES // (1024 * 1024)} MB: "
                                   "a persona folder holds its instructions, not data")
