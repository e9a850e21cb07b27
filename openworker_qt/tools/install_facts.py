"""What the card of an ``install_tool`` call says before it is approved: the
version that would be installed, its size and its licence, asked of the package's
registry when the card is built (``Tool.prepare``; bounded by the engine).

PyPI: the index's JSON API (``<index>/pypi/<name>[/<version>]/json``, next to
the ``/simple`` index pip uses, so ``PIP_INDEX_URL`` — a company mirror — is
asked, not pypi.org); the file pip would pick for this computer (a wheel whose
tags fit, else the source archive) gives the download size, ``requires_dist``
how many other packages it needs. With ``PIP_NO_INDEX`` and ``PIP_FIND_LINKS``
(pip installs from a folder) the folder's wheel is read instead. npm: the
registry's version document (``<registry>/<name>/<version or latest>``) gives
the licence and the unpacked size. Homebrew: nothing is looked up.

What comes back (any key may be missing): ``version``, ``size`` (bytes),
``size_kind`` (``download`` or ``unpacked``), ``licence``, ``needs`` (other
packages it requires).
"""

from __future__ import annotations

import asyncio
import os
import re
import zipfile
from collections.abc import Mapping
from email.parser import HeaderParser
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

PYPI = "https://pypi.org/simple/"
NPM = "https://registry.npmjs.org/"
LOOKUP_TIMEOUT = 6.0
_LICENCE_CHARS = 60
_EXTRA = re.compile(r"\bextra\s*==")


class Request(Protocol):
    """The package asked for (``installs.Request``: its source, name and version)."""

    @property
    def source(self) -> str: ...

    @property
    def package(self) -> str: ...

    @property
    def version(self) -> str: ...


async def lookup(req: Request) -> dict[str, Any]:
    """The facts of the package ``req`` names (see module docstring)."""
    if req.source == "pypi":
        links = os.environ.get("PIP_FIND_LINKS", "").split()
        if os.environ.get("PIP_NO_INDEX", "").lower() not in ("", "0", "false", "no", "off"):
            return await asyncio.to_thread(_from_folders, req, links)
        return _pypi_facts(req, await _get_json(_pypi_url(req)))
    if req.source == "npm":
        return _npm_facts(await _get_json(_npm_url(req)))
    return {}


async def _get_json(url: str) -> Any:
    import httpx2

    async with httpx2.AsyncClient(timeout=LOOKUP_TIMEOUT, follow_redirects=True) as client:
        response = await client.get(url, headers={"Accept": "application/json"})
        response.raise_for_status()
        return response.json()


def _pypi_url(req: Request) -> str:
    index = (os.environ.get("PIP_INDEX_URL") or PYPI).rstrip("/")
    base = index[: -len("/simple")] if index.endswith("/simple") else index
    name = quote(req.package)
    return (f"{base}/pypi/{name}/{quote(req.version)}/json" if req.version
            else f"{base}/pypi/{name}/json")


def _npm_url(req: Request) -> str:
    registry = (os.environ.get("npm_config_registry") or os.environ.get("NPM_CONFIG_REGISTRY")
                or NPM).rstrip("/")
    return f"{registry}/{quote(req.package, safe='@')}/{quote(req.version or 'latest')}"


def _short_licence(text: Any) -> str:
    """A licence's name: one short line (some packages paste the whole text)."""
    line = next((x.strip() for x in str(text or "").splitlines() if x.strip()), "")
    return line if len(line) <= _LICENCE_CHARS else ""


def _licence(expression: Any, declared: Any, classifiers: Any) -> str:
    for text in (expression, declared):
        if short := _short_licence(text):
            return short
    named = [str(c).split("::")[-1].strip() for c in classifiers or []
             if str(c).startswith("License ::")]
    return named[0] if named else ""


def _needs(requires: Any) -> int:
    """How many packages it requires (extras left out)."""
    return len([r for r in requires or [] if not _EXTRA.search(str(r))])


def _fits(filename: str) -> bool:
    """A wheel pip would install on this computer."""
    from packaging.tags import sys_tags
    from packaging.utils import InvalidWheelFilename, parse_wheel_filename

    try:
        tags = parse_wheel_filename(filename)[3]
    except InvalidWheelFilename:
        return False
    return not tags.isdisjoint(set(sys_tags()))


def _pick(files: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    wheels = [f for f in files if str(f.get("filename", "")).endswith(".whl")
              and _fits(str(f.get("filename", "")))]
    sources = [f for f in files if f.get("packagetype") == "sdist"]
    return next(iter(wheels or sources), None)


def _pypi_facts(req: Request, data: Any) -> dict[str, Any]:
    info = (data.get("info") or {}) if isinstance(data, Mapping) else {}
    facts: dict[str, Any] = {"version": str(info.get("version") or req.version)}
    licence = _licence(info.get("license_expression"), info.get("license"),
                       info.get("classifiers"))
    if licence:
        facts["licence"] = licence
    files = data.get("urls") if isinstance(data, Mapping) else None
    chosen = _pick([f for f in files or [] if isinstance(f, Mapping)])
    if chosen is not None and isinstance(chosen.get("size"), int):
        facts.update(size=chosen["size"], size_kind="download")
    facts["needs"] = _needs(info.get("requires_dist"))
    return facts


def _npm_facts(data: Any) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        return {}
    facts: dict[str, Any] = {"version": str(data.get("version") or "")}
    licence = data.get("license")
    if isinstance(licence, Mapping):
        licence = licence.get("type")
    if short := _short_licence(licence):
        facts["licence"] = short
    size = (data.get("dist") or {}).get("unpackedSize")
    if isinstance(size, int):
        facts.update(size=size, size_kind="unpacked")
    facts["needs"] = len(data.get("dependencies") or {})
    return facts


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _from_folders(req: Request, folders: list[str]) -> dict[str, Any]:
    """The newest fitting wheel of ``req`` in pip's find-links folders."""
    found: list[tuple[tuple[Any, ...], Path]] = []
    from packaging.utils import InvalidWheelFilename, parse_wheel_filename

    for folder in folders:
        for path in Path(folder).glob("*.whl"):
            try:
                name, version, _build, _tags = parse_wheel_filename(path.name)
            except InvalidWheelFilename:
                continue
            if _canonical(name) == _canonical(req.package) and _fits(path.name) and (
                    not req.version or str(version) == req.version):
                found.append(((version,), path))
    if not found:
        return {}
    _, path = max(found, key=lambda f: f[0])
    with zipfile.ZipFile(path) as wheel:
        meta = next((n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")), None)
        text = wheel.read(meta).decode("utf-8", errors="replace") if meta else ""
    headers = HeaderParser().parsestr(text)
    facts: dict[str, Any] = {"version": str(headers.get("Version") or req.version),
                             "size": path.stat().st_size, "size_kind": "download",
                             "needs": _needs(headers.get_all("Requires-Dist"))}
    licence = _licence(headers.get("License-Expression"), headers.get("License"),
                       headers.get_all("Classifier"))
    if licence:
        facts["licence"] = licence
    return facts
