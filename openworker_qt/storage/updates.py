"""Update checks: a signed manifest read from a configurable URL, never an install.

The release job publishes ``manifest.json``, an envelope around the manifest text::

    {"manifest": "<JSON text>", "signature": "<base64 Ed25519 signature of that text>"}

The inner text is verified byte for byte with the public key the app ships
(``resources/update-key.pub``, base64 of the raw 32-byte Ed25519 key) before a
single field of it is read; only then is it parsed::

    {"version": "0.2.0", "notes": "What changed", "published": "2026-12-01",
     "platforms": {"linux-x86_64": {"url": "https://…", "sha256": "<64 hex>"}, …}}

:func:`check_for_update` fetches, verifies and compares versions; it blocks (run
it in a worker). It returns what the app may *offer*: the download URL and its
checksum for this platform. Nothing here downloads or runs an installer — the user
opens the link, and the signature only says the manifest came from the release key.

**The key file.** ``update-key.pub`` holds one line, the base64 key; lines starting
with ``#`` are comments. A checkout that has no release key yet ships the word
``development`` instead of a key: nobody holds a private half for it, so a build
made from it says plainly that it cannot check for updates
(:class:`UpdatesUnavailable`) rather than reporting every manifest as forged. The
release workflow refuses to publish unless the signing secret matches the shipped
key (``installer/sign_manifest.py check-key``).

**The address.** :func:`check_update_url` is the one rule for ``updates.url``, used
by the settings page and by every fetch: ``https://``, or plain ``http://`` only to
this computer (``localhost``, ``127.x``, ``::1``) for testing.

**Automatic checks.** :func:`check_due` and :func:`record_check` keep the time of
the last automatic check in a small JSON file, so the app checks at most once per
:data:`AUTO_CHECK_INTERVAL`; both touch the disk (call them from a worker).
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import ipaddress
import json
import os
import platform
import re
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_MANIFEST_BYTES = 256 * 1024
_VERSION = re.compile(r"^\d+(\.\d+){0,3}$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
#: What ``update-key.pub`` holds instead of a key in a build without a release key.
DEVELOPMENT_KEY = "development"
#: Automatic checks run at most this often.
AUTO_CHECK_INTERVAL = dt.timedelta(days=7)


class UpdateError(Exception):
    """The check failed; ``str()`` is a message for the user."""


class ManifestSignatureError(UpdateError):
    """The manifest is not signed by the key the app ships (tampered or foreign)."""


class ManifestFormatError(UpdateError):
    """The manifest (or its envelope) is not what the release job writes."""


class UpdateAddressError(UpdateError):
    """``updates.url`` is refused; ``reason`` is "not_web", "no_server" or "plain_http"
    (for a translated message), ``str()`` says it in English."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class UpdatesUnavailable(UpdateError):
    """This build ships the development placeholder instead of a release key."""

    def __init__(self) -> None:
        super().__init__(
            "This build cannot check for updates: it was made without OpenWorker's release "
            "key (a development or unofficial build). Get new versions from wherever this "
            "copy came from.")


@dataclass(frozen=True, slots=True)
class Asset:
    url: str
    sha256: str


@dataclass(frozen=True, slots=True)
class Manifest:
    version: str
    notes: str = ""
    published: str = ""
    platforms: Mapping[str, Asset] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class UpdateCheck:
    """The outcome: ``available`` when the manifest's version is newer than ours."""

    current: str
    manifest: Manifest
    platform: str
    available: bool

    @property
    def asset(self) -> Asset | None:
        return self.manifest.platforms.get(self.platform)


def parse_version(text: str) -> tuple[int, ...]:
    """``"1.2.3"`` → ``(1, 2, 3, 0)`` (padded so 1.2 == 1.2.0)."""
    if not isinstance(text, str) or not _VERSION.match(text.strip()):
        raise ManifestFormatError(f"“{text}” is not a version number (like 1.2.3)")
    parts = tuple(int(p) for p in text.strip().split("."))
    return parts + (0,) * (4 - len(parts))


def platform_key() -> str:
    """This machine's key in the manifest: ``linux-x86_64``, ``macos-arm64``, ``windows-x86_64``."""
    system = {"darwin": "macos", "win32": "windows"}.get(sys.platform, sys.platform)
    if system.startswith("linux"):
        system = "linux"
    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "aarch64": "arm64"}.get(machine, machine)
    return f"{system}-{machine}"


def _key_lines(text: str | bytes) -> list[str]:
    raw = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return [line.strip() for line in raw.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def is_development_key(text: str | bytes) -> bool:
    """Whether an ``update-key.pub`` text is the development placeholder (no key)."""
    return _key_lines(text) == [DEVELOPMENT_KEY]


def load_public_key(text: str | bytes) -> bytes:
    """The ``update-key.pub`` text (``#`` comments, one base64 raw Ed25519 key) → 32 bytes.

    Raises:
        UpdatesUnavailable: the text is the development placeholder.
        UpdateError: the key is damaged.
    """
    if is_development_key(text):
        raise UpdatesUnavailable
    lines = _key_lines(text)
    if len(lines) != 1:
        raise UpdateError("The update key shipped with the app is damaged")
    try:
        key = base64.b64decode(lines[0], validate=True)
    except (binascii.Error, ValueError) as exc:
        raise UpdateError("The update key shipped with the app is damaged") from exc
    if len(key) != 32:
        raise UpdateError("The update key shipped with the app is damaged")
    return key


def verify_manifest(document: bytes, public_key: bytes) -> Manifest:
    """Check the envelope's signature with ``public_key``, then parse the manifest.

    Raises:
        ManifestFormatError: not an envelope, or the signed text is not a manifest.
        ManifestSignatureError: the signature does not match the key.
    """
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        envelope = json.loads(document)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ManifestFormatError("The update manifest is not valid JSON") from exc
    if not isinstance(envelope, dict) or not isinstance(envelope.get("manifest"), str) \
            or not isinstance(envelope.get("signature"), str):
        raise ManifestFormatError("The update manifest has no signed part or no signature")
    text: str = envelope["manifest"]
    try:
        signature = base64.b64decode(envelope["signature"], validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ManifestSignatureError("The update manifest's signature is unreadable") from exc
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, text.encode("utf-8"))
    except (InvalidSignature, ValueError) as exc:
        raise ManifestSignatureError(
            "The update manifest is not signed by OpenWorker's release key; it was ignored"
        ) from exc
    return _parse(text)


def _parse(text: str) -> Manifest:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ManifestFormatError("The signed update manifest is not valid JSON") from exc
    if not isinstance(data, dict):
        raise ManifestFormatError("The signed update manifest is not a JSON object")
    version = data.get("version")
    if not isinstance(version, str):
        raise ManifestFormatError("The update manifest names no version")
    parse_version(version)
    notes, published = data.get("notes", ""), data.get("published", "")
    if not isinstance(notes, str) or not isinstance(published, str):
        raise ManifestFormatError("The update manifest's notes or date are not text")
    raw_platforms = data.get("platforms")
    if not isinstance(raw_platforms, dict) or not raw_platforms:
        raise ManifestFormatError("The update manifest lists no downloads")
    platforms: dict[str, Asset] = {}
    for name, entry in raw_platforms.items():
        if not isinstance(entry, dict):
            raise ManifestFormatError(f"The update manifest's entry for {name} is not a table")
        url, digest = entry.get("url"), entry.get("sha256")
        if not isinstance(url, str) or not url.startswith("https://"):
            raise ManifestFormatError(f"The download for {name} is not an https:// address")
        if not isinstance(digest, str) or not _SHA256.match(digest.lower()):
            raise ManifestFormatError(f"The download for {name} has no SHA-256 checksum")
        platforms[str(name)] = Asset(url, digest.lower())
    return Manifest(version, notes, published, platforms)


def sign_manifest(manifest: Mapping[str, Any], private_key: bytes) -> bytes:
    """The envelope for ``manifest`` signed with a raw 32-byte Ed25519 private key.

    Used by the release job (installer/sign_manifest.py) and the tests.
    """
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    text = json.dumps(dict(manifest), indent=2, sort_keys=True, ensure_ascii=False)
    signature = Ed25519PrivateKey.from_private_bytes(private_key).sign(text.encode("utf-8"))
    envelope = {"manifest": text, "signature": base64.b64encode(signature).decode("ascii")}
    return json.dumps(envelope, indent=2).encode("utf-8")


def _loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_update_url(url: str) -> str:
    """The update address, stripped, if it may be used; ``""`` stays ``""`` (no checks).

    ``https://`` with a server name, or ``http://`` to this computer only (testing).

    Raises:
        UpdateAddressError: the address is refused; the message says why in plain words.
    """
    url = url.strip()
    if not url:
        return ""
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname or ""
        parts.port  # noqa: B018 — raises ValueError for a port that is not a number
    except ValueError as exc:
        raise UpdateAddressError(f"“{url}” is not a web address", "not_web") from exc
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        raise UpdateAddressError(
            f"“{url}” is not a web address: the update address starts with https://",
            "not_web")
    if not host:
        raise UpdateAddressError(f"“{url}” names no server", "no_server")
    if scheme == "http" and not _loopback(host):
        raise UpdateAddressError(
            "The update address must start with https:// (plain http:// is allowed only "
            "for this computer, to test a release)", "plain_http")
    return url


def fetch_manifest(url: str, *, timeout: float = 15.0) -> bytes:
    """GET ``url`` (blocking; run in a worker). At most :data:`MAX_MANIFEST_BYTES`."""
    url = check_update_url(url)
    if not url:
        raise UpdateError("No update address is set")
    request = urllib.request.Request(url, headers={"User-Agent": "OpenWorker-Qt update check"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data: bytes = response.read(MAX_MANIFEST_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise UpdateError(f"The update server answered {exc.code} {exc.reason}") from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UpdateError(f"The update server could not be reached ({reason})") from exc
    if len(data) > MAX_MANIFEST_BYTES:
        raise ManifestFormatError("The update manifest is far too large; it was ignored")
    return data


def check_for_update(url: str, current: str, public_key: bytes, *,
                     platform: str | None = None, timeout: float = 15.0) -> UpdateCheck:
    """Fetch, verify and compare (blocking; run in a worker)."""
    manifest = verify_manifest(fetch_manifest(url, timeout=timeout), public_key)
    newer = parse_version(manifest.version) > parse_version(current)
    return UpdateCheck(current, manifest, platform or platform_key(), newer)


def shipped_public_key(resources: Path, key_file: Path | None = None) -> bytes:
    """The key in ``resources/update-key.pub`` (or ``key_file``);
    :class:`UpdatesUnavailable` for the development placeholder."""
    try:
        return load_public_key((key_file or resources / "update-key.pub").read_bytes())
    except OSError as exc:
        raise UpdateError("The update key is missing from this installation") from exc


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def check_due(state_file: Path, *, now: dt.datetime | None = None,
              interval: dt.timedelta = AUTO_CHECK_INTERVAL) -> bool:
    """Whether an automatic check is due: none recorded, unreadable, or older than
    ``interval`` (a time in the future — a clock set back — counts as due)."""
    now = now or _now()
    try:
        data = json.loads(state_file.read_text(encoding="utf-8"))
        last = dt.datetime.fromisoformat(str(data["last_check"]))
    except (OSError, ValueError, KeyError, TypeError):
        return True
    if last.tzinfo is None:
        last = last.replace(tzinfo=dt.UTC)
    return not (now - interval < last <= now)


def record_check(state_file: Path, *, now: dt.datetime | None = None,
                 latest: str = "") -> None:
    """Remember that an automatic check ran at ``now`` (written atomically)."""
    state = {"last_check": (now or _now()).isoformat(), "latest": latest}
    state_file.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=state_file.parent, prefix=".updates-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(state, f)
        os.replace(tmp, state_file)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
