"""Personas as shareable bundles: one file holding a persona and what it needs.

A bundle (``NAME.owpersona``, JSON) holds the persona's file (its instructions,
tool families and the connectors it may use), the skills it brings (each skill
folder's text files), the MCP servers it needs (``mcpServers`` entries) and a
version::

    {"format": "openworker-persona", "format_version": 1, "version": "1.2",
     "persona": "---\\nname: …\\n---\\n…",
     "skills": {"weekly-report": {"SKILL.md": "…", "template.md": "…"}},
     "servers": {"tickets": {"command": "uvx", "args": ["tickets-mcp"],
                             "env": {"TICKETS_TOKEN": "${TICKETS_TOKEN}"}}}}

Secrets never leave: a server's ``env`` and ``headers`` values are exported as
``${NAME}`` placeholders (whoever imports it sets their own, in the keyring), an
argument after ``--token``/``--api-key``/``--password``-like options likewise,
and every text is passed through the app's redaction of known secret values.

Importing goes through the installed personas' consent gate: the bundle becomes
a persona folder (``PERSONA.md`` plus ``bundle.json`` with the rest) installed
disabled; its fingerprint covers both files, so the user's consent is to exactly
what :func:`brings` lists (with the persona's own capabilities). Only after that
consent does :func:`activate` copy the skills into the user's skills folder (the
MCP servers are added by the caller, which may speak the MCP config: see
``cli/personas.py``). An update shows only what it adds (:func:`added`).

Blocking (the disk): a worker thread or the command line.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any

from openworker_qt.agents.personas import (
    PERSONA_FILES,
    Persona,
    PersonaError,
    PersonaRegistry,
    capabilities,
    parse_persona,
)

__all__ = ["MANIFEST", "SUFFIX", "Bundle", "activate", "added", "brings", "export_bundle",
           "import_bundle", "manifest_of", "read_bundle", "secret_names"]

FORMAT = "openworker-persona"
FORMAT_VERSION = 1
SUFFIX = ".owpersona"
#: Inside an installed persona's folder: what its bundle brings (covered by consent).
MANIFEST = "bundle.json"
MAX_BUNDLE_BYTES = 2 * 1024 * 1024
MAX_SKILL_FILES = 50
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_SECRET_OPTION = re.compile(r"--?[A-Za-z-]*(token|key|secret|password|passwd|auth)[A-Za-z-]*",
                            re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_.-]*\}")
Redact = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class Bundle:
    persona: Persona
    persona_text: str
    version: str = ""
    skills: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    servers: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def manifest(self) -> dict[str, Any]:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "version": self.version,
                "skills": {k: dict(v) for k, v in self.skills.items()},
                "servers": {k: dict(v) for k, v in self.servers.items()}}


# ---------------------------------------------------------------------- exporting


def _persona_text(registry: PersonaRegistry, name: str) -> str:
    persona = registry.load().get(name)
    if persona is None:
        raise PersonaError(f"no persona named {name!r}")
    if persona.builtin:
        folder = resources.files("openworker_qt.agents") / "personas"
        return (folder / f"{name}.md").read_text(encoding="utf-8")
    for file in PERSONA_FILES:
        path = registry.root / name / file
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise PersonaError(f"the file of persona {name!r} is missing")


def _skill_files(folder: Path) -> dict[str, str]:
    if not (folder / "SKILL.md").is_file():
        raise PersonaError(f"{folder} is not a skill (it has no SKILL.md)")
    files: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or not path.is_file() or ".git" in path.parts:
            continue
        try:
            files[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # text only: a bundle carries instructions, not binaries
        if len(files) > MAX_SKILL_FILES:
            raise PersonaError(f"the skill {folder.name} has more than {MAX_SKILL_FILES} files")
    return files


def _placeholder(*parts: str) -> str:
    return "${" + re.sub(r"[^A-Z0-9_]", "_", "_".join(parts).upper()) + "}"


def _secretless(name: str, raw: Mapping[str, Any], redact: Redact) -> dict[str, Any]:
    """A server entry with every secret turned into a ``${NAME}`` placeholder."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key in ("env", "headers") and isinstance(value, Mapping):
            out[key] = {str(k): (str(v) if _PLACEHOLDER.fullmatch(str(v))
                                 else _placeholder(k if key == "env" else f"{name}_{k}"))
                        for k, v in value.items()}
        elif key == "args" and isinstance(value, list):
            args = [str(a) for a in value]
            for i in range(1, len(args)):
                if _SECRET_OPTION.fullmatch(args[i - 1]):
                    args[i] = _placeholder(name, args[i - 1].lstrip("-"))
            out[key] = [redact(a) for a in args]
        elif isinstance(value, str):
            out[key] = redact(value)
        else:
            out[key] = value
    return out


def export_bundle(
    registry: PersonaRegistry, name: str, dest: Path, *, version: str = "",
    skills: Mapping[str, Path] | None = None, servers: Mapping[str, Mapping[str, Any]] | None = None,
    redact: Redact | None = None,
) -> Path:
    """Write persona ``name`` with the given skill folders and server entries to
    ``dest`` (a folder gets ``NAME.owpersona``). Secrets are never written."""
    from openworker_qt.storage.secrets import redact as known_redact

    hide = redact or known_redact
    text = hide(_persona_text(registry, name))
    data = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "version": version, "persona": text,
        "skills": {s: {k: hide(v) for k, v in _skill_files(Path(p)).items()}
                   for s, p in (skills or {}).items()},
        "servers": {s: _secretless(s, e, hide) for s, e in (servers or {}).items()},
    }
    dest = Path(dest).expanduser()
    if dest.is_dir():
        dest = dest / f"{name}{SUFFIX}"
    dest.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return dest


# ---------------------------------------------------------------------- reading


def _safe_path(rel: str, skill: str) -> str:
    path = PurePosixPath(rel)
    if path.is_absolute() or ".." in path.parts or not path.parts or "\\" in rel:
        raise PersonaError(f"the skill {skill} holds a file outside its folder: {rel!r}")
    return path.as_posix()


def _skills(raw: Any) -> dict[str, dict[str, str]]:
    if not isinstance(raw, Mapping):
        raise PersonaError("the bundle's 'skills' must map skill names to their files")
    out: dict[str, dict[str, str]] = {}
    for name, files in raw.items():
        if not _NAME.fullmatch(str(name)) or not isinstance(files, Mapping):
            raise PersonaError(f"the bundle's skill {name!r} is not a skill folder")
        checked = {_safe_path(str(k), str(name)): str(v) for k, v in files.items()}
        if "SKILL.md" not in checked or len(checked) > MAX_SKILL_FILES:
            raise PersonaError(f"the bundle's skill {name!r} has no SKILL.md")
        out[str(name)] = checked
    return out


def _servers(raw: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(raw, Mapping):
        raise PersonaError("the bundle's 'servers' must map server names to mcpServers entries")
    out: dict[str, dict[str, Any]] = {}
    for name, entry in raw.items():
        ok = isinstance(entry, Mapping) and (isinstance(entry.get("command"), str)
                                             or isinstance(entry.get("url"), str))
        if not _NAME.fullmatch(str(name)) or not ok:
            raise PersonaError(f"the bundle's server {name!r} has no command or address")
        out[str(name)] = dict(entry)
    return out


def parse_bundle(text: str, *, source: str = "the bundle") -> Bundle:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise PersonaError(f"{source} is not a persona bundle (not JSON: {exc})") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PersonaError(f"{source} is not a persona bundle")
    if int(data.get("format_version") or 0) > FORMAT_VERSION:
        raise PersonaError(f"{source} was made by a newer OpenWorker: update the app first")
    persona_text = data.get("persona")
    if not isinstance(persona_text, str):
        raise PersonaError(f"{source} holds no persona")
    persona = parse_persona(persona_text, source=source)
    return Bundle(persona, persona_text, str(data.get("version") or ""),
                  _skills(data.get("skills") or {}), _servers(data.get("servers") or {}))


def read_bundle(path: Path) -> Bundle:
    path = Path(path).expanduser()
    try:
        if path.stat().st_size > MAX_BUNDLE_BYTES:
            raise PersonaError(f"{path.name} is larger than {MAX_BUNDLE_BYTES // (1024 * 1024)} MB")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PersonaError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise PersonaError(f"{path.name} is not UTF-8 text") from exc
    return parse_bundle(text, source=path.name)


# ---------------------------------------------------------------------- installing


def manifest_of(registry: PersonaRegistry, name: str) -> dict[str, Any]:
    """What the installed persona ``name``'s bundle brings ({} when it came without one)."""
    try:
        raw = json.loads((registry.root / name / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) else {}


def import_bundle(registry: PersonaRegistry, path: Path) -> tuple[Persona, list[str] | None]:
    """Install the bundle at ``path`` as a persona, disabled until consent (unless it
    is the very version agreed to); also, for an update, what it adds over the
    version installed before (None when it is new)."""
    bundle = read_bundle(path)
    old = registry.load().get(bundle.persona.name)
    before = (capabilities(old) + brings(manifest_of(registry, old.name))
              if old is not None and not old.builtin else None)
    with tempfile.TemporaryDirectory(prefix="openworker-bundle-") as tmp:
        folder = Path(tmp) / bundle.persona.name
        folder.mkdir()
        (folder / "PERSONA.md").write_text(bundle.persona_text, encoding="utf-8")
        (folder / MANIFEST).write_text(json.dumps(bundle.manifest(), indent=1, sort_keys=True),
                                       encoding="utf-8")
        persona = registry.install_folder(folder, source=str(Path(path).expanduser().resolve()))
    if before is None:
        return persona, None
    return persona, added(before, capabilities(persona) + brings(manifest_of(registry,
                                                                            persona.name)))


def secret_names(entry: Mapping[str, Any]) -> list[str]:
    """The ``${NAME}`` secrets a server entry needs the user to set."""
    return sorted({m[2:-1] for v in [*(entry.get("env") or {}).values(),
                                     *(entry.get("headers") or {}).values(),
                                     *(entry.get("args") or [])]
                   for m in _PLACEHOLDER.findall(str(v))})


def _server_words(name: str, entry: Mapping[str, Any]) -> str:
    if isinstance(entry.get("command"), str):
        runs = " ".join([str(entry["command"]), *(str(a) for a in entry.get("args") or [])])
        what = f"Adds the MCP server {name}, which runs `{runs}` on this computer"
    else:
        what = f"Adds the MCP server {name}, which connects to {entry.get('url')}"
    needs = secret_names(entry)
    return what + (f" (you set its secrets: {', '.join(needs)})" if needs else "")


def brings(manifest: Mapping[str, Any]) -> list[str]:
    """What a bundle brings, in plain words (shown with the persona's capabilities)."""
    lines = [f"Version {manifest['version']}"] if manifest.get("version") else []
    for name, files in sorted((manifest.get("skills") or {}).items()):
        lines.append(f"Adds the skill {name} ({len(files)} file{'s' if len(files) != 1 else ''})")
    for name, entry in sorted((manifest.get("servers") or {}).items()):
        lines.append(_server_words(name, entry))
    return lines


def added(before: list[str], now: list[str]) -> list[str]:
    """The lines of ``now`` that ``before`` did not have."""
    return [line for line in now if line not in before]


def activate(registry: PersonaRegistry, name: str, skills_dir: Path) -> list[str]:
    """After consent: copy the bundle's skills into ``skills_dir`` (a skill of the same
    name already there is kept). The names of the skills added."""
    persona = registry.load().get(name)
    if persona is None or not persona.enabled:
        raise PersonaError(f"{name!r} is not enabled: agree to what it brings first")
    added_skills: list[str] = []
    for skill, files in sorted((manifest_of(registry, name).get("skills") or {}).items()):
        target = Path(skills_dir) / _safe_path(str(skill), str(skill))
        if target.exists():
            continue
        staging = Path(tempfile.mkdtemp(prefix=".skill-", dir=_ensure(skills_dir)))
        try:
            for rel, text in files.items():
                path = staging / _safe_path(str(rel), str(skill))
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(str(text), encoding="utf-8")
            staging.rename(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        added_skills.append(str(skill))
    return added_skills


def _ensure(folder: Path) -> Path:
    Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder)
