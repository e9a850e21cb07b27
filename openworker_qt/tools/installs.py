"""Tools on request: a coworker that needs a program the computer lacks asks to
install it (``install_tool``), into a folder of the app's own.

Where things go: ``<data>/tools`` — a Python environment of its own for PyPI
packages (``python/``), an npm prefix for npm packages (``node/``) — whose program
folders are on the persistent shell's PATH (:func:`bin_dirs`). Never system-wide,
never with sudo: the system's package manager is used only where a user installs
without an administrator (Homebrew); elsewhere the model is told to ask the user.

The ask: ``install_tool`` is EXTERNAL and asks on every call, in every mode
(``always_ask``); its card says what will run — the package manager, the package
and version, the folder — and what for. Approved, the handler runs exactly that
argument vector (no shell, so nothing in a name is ever interpreted; names and
versions are checked first and a hostile one — ``; rm -rf ~``, a path, a URL, an
option — is refused before anything is asked). Installing a program does not let
it run: its commands go through the shell's own checks like any other.

Pinned: a PyPI package is downloaded first, each file's sha256 recorded, then
installed from those files only; ``installed.json`` keeps the name, version,
hashes and purpose, listed in Settings (and removable there). pip honours its
own settings (``PIP_INDEX_URL``, ``PIP_FIND_LINKS``, ``PIP_NO_INDEX``, pip.conf),
so a company mirror works and tests install from a local folder.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.storage.paths import app_paths

Source = Literal["pypi", "npm", "brew"]
SOURCES: tuple[str, ...] = ("pypi", "npm", "brew")
SOURCE_NAMES = {"pypi": "PyPI (pip)", "npm": "npm", "brew": "Homebrew"}
_NAME = {
    "pypi": re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?"),
    "npm": re.compile(r"(?:@[a-z0-9][a-z0-9._-]{0,60}/)?[a-z0-9][a-z0-9._-]{0,100}"),
    "brew": re.compile(r"[a-z0-9][a-z0-9@+._-]{0,80}"),
}
_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+!_-]{0,40}")
INSTALL_TIMEOUT = 900.0
#: pip options that only silence it (left out of what the card shows).
_QUIET = ("--disable-pip-version-check", "--no-input")


class InstallError(ValueError):
    """A request that is refused, or an install that failed (the message says which)."""


def tools_root() -> Path:
    return app_paths().data / "tools"


def _venv_bin(root: Path) -> Path:
    return root / "python" / ("Scripts" if os.name == "nt" else "bin")


def bin_dirs(root: Path | None = None) -> list[Path]:
    """The managed program folders, first on the shell's PATH (present or not yet)."""
    base = root or tools_root()
    return [_venv_bin(base), base / "node" / "node_modules" / ".bin"]


def path_with_tools(path: str, root: Path | None = None) -> str:
    dirs = [str(d) for d in bin_dirs(root)]
    rest = [p for p in path.split(os.pathsep) if p and p not in dirs]
    return os.pathsep.join([*dirs, *rest])


@dataclass(frozen=True, slots=True)
class Request:
    source: Source
    package: str
    version: str = ""

    @property
    def spec(self) -> str:
        if not self.version:
            return self.package
        return f"{self.package}=={self.version}" if self.source == "pypi" else (
            f"{self.package}@{self.version}")


@dataclass(frozen=True, slots=True)
class Installed:
    source: str
    package: str
    version: str
    purpose: str = ""
    hashes: Mapping[str, str] = field(default_factory=dict)
    installed_at: float = 0.0
    size: int = 0  # bytes downloaded (the package and what it needed)
    licence: str = ""


def request_from(args: Mapping[str, Any]) -> Request:
    """The install ``args`` ask for, checked: InstallError names what is wrong."""
    source = str(args.get("source") or "pypi").strip().lower()
    if source not in SOURCES:
        raise InstallError(f"unknown source {source!r}: use one of {', '.join(SOURCES)}")
    package = str(args.get("package") or "").strip()
    if not _NAME[source].fullmatch(package):
        raise InstallError(f"{package!r} is not a package name on {SOURCE_NAMES[source]} "
                           "(a plain name only: no paths, addresses, options or spaces)")
    version = str(args.get("version") or "").strip()
    if version and not _VERSION.fullmatch(version):
        raise InstallError(f"{version!r} is not a version (e.g. 1.7.1)")
    return Request(source, package, version)  # type: ignore[arg-type]


def _python() -> str:
    """The Python that creates the tools' own environment (never the frozen app)."""
    if not getattr(sys, "frozen", False):
        return sys.executable
    found = shutil.which("python3") or shutil.which("python")
    if found is None:
        raise InstallError("installing Python packages needs Python on this computer")
    return found


def commands(req: Request, root: Path, staging: str = "<download folder>") -> list[list[str]]:
    """The argument vectors an install runs, in order (what the card shows)."""
    if req.source == "pypi":
        venv_py = str(_venv_bin(root) / ("python.exe" if os.name == "nt" else "python"))
        pip = [venv_py, "-m", "pip", "--disable-pip-version-check", "--no-input"]
        return [[_python(), "-m", "venv", str(root / "python")],
                [*pip, "download", "--dest", staging, req.spec],
                [*pip, "install", "--no-index", "--find-links", staging, req.spec]]
    if req.source == "npm":
        return [["npm", "install", "--prefix", str(root / "node"), "--save-exact", "--no-audit",
                 "--no-fund", req.spec]]
    return [["brew", "install", req.spec]]


def check(args: Mapping[str, Any]) -> str | None:
    """Why the request is refused before it is asked (``Tool.check``), or None."""
    try:
        request_from(args)
    except InstallError as exc:
        return f"not installed: {exc}"
    return None


async def prepare(args: Mapping[str, Any]) -> Mapping[str, Any]:
    """The version, size and licence the card shows (``Tool.prepare``)."""
    from openworker_qt.tools.install_facts import lookup

    return await lookup(request_from(args))


def facts_text(facts: Mapping[str, Any]) -> str:
    """"a 2.4 MB download, plus 3 packages it needs; licence MIT" (what is known)."""
    size = size_text(int(facts.get("size") or 0))
    parts = []
    if size:
        parts.append(f"{size} unpacked" if facts.get("size_kind") == "unpacked"
                     else f"a {size} download")
    needs = int(facts.get("needs") or 0)
    if needs:
        parts.append(f"plus {needs} other package{'s' if needs > 1 else ''} it needs")
    licence = str(facts.get("licence") or "")
    said = ", ".join(parts)
    return "; ".join(x for x in (said, f"licence {licence}" if licence else
                                 "no licence stated") if x)


def explain(args: Mapping[str, Any], ctx: ToolContext | None = None) -> str:
    """The card's words: what will be installed (its size and licence, when they
    could be looked up), from where, into where, and why."""
    req = request_from(args)
    root = tools_root()
    facts = ctx.facts if ctx is not None else {}
    version = req.version or str(facts.get("version") or "")
    what = f"{req.package} {version}" if version else f"{req.package} (latest)"
    purpose = str(args.get("purpose") or "").strip() or "(no reason given)"
    steps = commands(req, root)
    if req.source == "pypi":  # the tools' own Python runs pip: shown as pip, its options kept
        steps = [["pip", *(a for a in c[3:] if a not in _QUIET)] for c in steps[1:]]
    runs = " then ".join(f"`{' '.join(c)}`" for c in steps)
    known = facts_text(facts) if facts else (
        "Its size and licence could not be looked up" if req.source != "brew" else "")
    known = f"{known[:1].upper()}{known[1:]}. " if known else ""
    return (f"Install {what} from {SOURCE_NAMES[req.source]} into OpenWorker's own tools "
            f"folder {root} (not system-wide, no administrator rights), for: {purpose}. "
            f"{known}It runs {runs}")


class ManagedTools:
    """The installed tools' folder and its list (``installed.json``)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or tools_root()

    @property
    def _list(self) -> Path:
        return self.root / "installed.json"

    def installed(self) -> list[Installed]:
        try:
            rows = json.loads(self._list.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return [Installed(**r) for r in rows if isinstance(r, dict)]

    def _save(self, items: Sequence[Installed]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self._list.with_suffix(".tmp")
        tmp.write_text(json.dumps([asdict(i) for i in items], indent=1), encoding="utf-8")
        tmp.replace(self._list)

    async def install(self, req: Request, purpose: str = "") -> Installed:
        if req.source == "brew" and (shutil.which("brew") is None or _is_root()):
            raise InstallError("there is no package manager here that installs without an "
                               "administrator; ask the user to install it themselves")
        if req.source == "npm" and shutil.which("npm") is None:
            raise InstallError("npm is not installed on this computer")
        self.root.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=self.root, prefix="download-") as staging:
            steps = commands(req, self.root, staging)
            if req.source == "pypi" and _venv_bin(self.root).exists():
                steps = steps[1:]  # the environment exists
            for argv in steps:
                await _run(argv)
            hashes, size = await asyncio.to_thread(_hashes, Path(staging))
        version = req.version or await self._version(req)
        item = Installed(req.source, req.package, version, purpose, hashes, time.time(), size,
                         await self._licence(req))
        self._save([*(i for i in self.installed() if (i.source, i.package) !=
                      (req.source, req.package)), item])
        return item

    async def _version(self, req: Request) -> str:
        if req.source == "pypi":
            py = str(_venv_bin(self.root) / "python")
            code = "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))"
            return (await _run([py, "-c", code, req.package])).strip()
        if req.source == "npm":
            meta = self.root / "node" / "node_modules" / req.package / "package.json"
            try:
                return str(json.loads(meta.read_text(encoding="utf-8")).get("version", ""))
            except (OSError, ValueError):
                return ""
        return ""

    async def _licence(self, req: Request) -> str:
        """The licence the package declares (PyPI: its metadata; "" when unknown)."""
        if req.source != "pypi":
            return ""
        code = ("import importlib.metadata as m, sys; d = m.metadata(sys.argv[1]); "
                "c = [x.split('::')[-1].strip() for x in d.get_all('Classifier') or [] "
                "if x.startswith('License ::')]; "
                "print(d.get('License-Expression') or d.get('License') or (c[0] if c else ''))")
        try:
            out = await _run([str(_venv_bin(self.root) / "python"), "-c", code, req.package])
        except InstallError:
            return ""
        return out.strip().splitlines()[0][:80] if out.strip() else ""

    async def remove(self, source: str, package: str) -> bool:
        item = next((i for i in self.installed() if (i.source, i.package) == (source, package)),
                    None)
        if item is None:
            return False
        if source == "pypi":
            await _run([str(_venv_bin(self.root) / "python"), "-m", "pip", "uninstall", "-y",
                        "--disable-pip-version-check", package])
        elif source == "npm":
            await _run(["npm", "uninstall", "--prefix", str(self.root / "node"), package])
        else:
            await _run(["brew", "uninstall", package])
        self._save([i for i in self.installed() if i is not item and
                    (i.source, i.package) != (source, package)])
        return True


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _hashes(folder: Path) -> tuple[dict[str, str], int]:
    """The sha256 of each file downloaded (what was installed, pinned), and their size."""
    files = sorted(p for p in folder.iterdir() if p.is_file())
    return ({p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in files},
            sum(p.stat().st_size for p in files))


def size_text(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{max(1, round(size / 1024))} KB" if size else ""


def _program(argv: Sequence[str]) -> str:
    """What ran, as the user knows it (``pip``, not the Python running it)."""
    if len(argv) > 2 and argv[1] == "-m":
        return argv[2]
    return Path(argv[0]).name


async def _run(argv: Sequence[str]) -> str:
    """Run ``argv`` (no shell); its output, or InstallError with the last lines."""
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            stdin=asyncio.subprocess.DEVNULL)
    except OSError as exc:
        raise InstallError(f"{argv[0]} could not be started: {exc}") from exc
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), INSTALL_TIMEOUT)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise InstallError(f"{_program(argv)} took too long and was stopped") from None
    text = out.decode("utf-8", errors="replace")
    if proc.returncode != 0:
        tail = "\n".join(text.strip().splitlines()[-8:])
        raise InstallError(f"{_program(argv)} failed (exit {proc.returncode}):\n{tail}")
    return text


async def install_tool(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    try:
        req = request_from(args)
        item = await ManagedTools().install(req, str(args.get("purpose") or "").strip())
    except InstallError as exc:
        return ToolResult(f"Not installed: {exc}", is_error=True,
                          display={"installed": False})
    where = ", ".join(str(d) for d in bin_dirs() if d.exists())
    facts = ", ".join(x for x in (size_text(item.size), item.licence and f"licence {item.licence}")
                      if x)
    return ToolResult(
        f"Installed {item.package} {item.version} from {SOURCE_NAMES[item.source]}"
        f"{f' ({facts})' if facts else ''}. Its "
        f"programs are on the shell's PATH ({where}); run them with run_shell as usual.",
        display={"installed": True, "package": item.package, "version": item.version})


INSTALL_TOOL = Tool(
    name="install_tool",
    description=(
        "Ask the user to install a command-line program or Python package this computer "
        "lacks (pandoc, jq, ripgrep, a Python package for an analysis). It goes into "
        "OpenWorker's own tools folder, on the shell's PATH, never system-wide. Say what "
        "it is for. Check first (e.g. `command -v NAME`) that it is really missing."
    ),
    parameters={
        "type": "object",
        "properties": {
            "package": {"type": "string", "description": "the package's exact name"},
            "source": {"type": "string", "enum": list(SOURCES),
                       "description": "pypi (default), npm, or brew (Homebrew)"},
            "version": {"type": "string", "description": "an exact version, if one is needed"},
            "purpose": {"type": "string", "description": "what it is for, in one sentence"},
        },
        "required": ["package", "purpose"],
    },
    handler=install_tool,
    risk=RiskClass.EXTERNAL,
    always_ask=True,
    explain=explain,
    check=check,
    prepare=prepare,
)


def install_tools() -> list[Tool]:
    return [INSTALL_TOOL]
