"""Update checks and the database's upgrade after an update, for the windows (no
widgets here).

:func:`check_now` (Help ▸ Check for updates…) and :func:`check_if_due` (the weekly
automatic check) read the shipped key, fetch and verify the signed manifest and
answer with an :class:`UpdateAnswer`: what the windows say, never an exception of the
update code. :func:`refused_address` judges the address Settings ▸ Updates saves;
:func:`is_development_build` tells a build made without a release key.
:func:`upgrade_pending` and :func:`upgrade_database` bring the database up to this
version (the small window of ``ui/upgrade_window.py`` shows meanwhile).

All of it blocks (the disk, the network): call it from a worker. The update code
itself (``storage/updates.py``: urllib, JSON, cryptography) is imported at the first
call, not with the windows that offer it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "UpdateAnswer",
    "check_if_due",
    "check_now",
    "is_development_build",
    "refused_address",
    "upgrade_database",
    "upgrade_pending",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class UpdateAnswer:
    """One check's outcome: "available", "current", "failed" (``error`` says why),
    "unavailable" (a build without a release key) or, for :func:`check_if_due`,
    "recent" (checked less than a week ago: nothing asked)."""

    outcome: str
    version: str = ""  # the newest version the manifest names
    notes: str = ""  # its release notes
    download_url: str = ""  # empty: no download for this system
    sha256: str = ""  # the download's checksum
    error: str = ""


def check_now(url: str, current: str, key_file: Path, *,
              public_key: bytes | None = None) -> UpdateAnswer:
    """Check ``url``'s manifest against ``current`` with the key in ``key_file`` (or
    ``public_key``, when given)."""
    from openworker_qt.storage.updates import (
        UpdateError,
        UpdatesUnavailable,
        check_for_update,
        shipped_public_key,
    )

    try:
        key = public_key or shipped_public_key(key_file.parent, key_file)
        check = check_for_update(url, current, key)
    except UpdatesUnavailable:
        return UpdateAnswer("unavailable")
    except UpdateError as exc:
        return UpdateAnswer("failed", error=str(exc))
    asset = check.asset
    return UpdateAnswer(
        "available" if check.available else "current", version=check.manifest.version,
        notes=check.manifest.notes, download_url=asset.url if asset is not None else "",
        sha256=asset.sha256 if asset is not None else "")


def check_if_due(state_file: Path, url: str, current: str, key_file: Path, *,
                 public_key: bytes | None = None) -> UpdateAnswer:
    """:func:`check_now` if a week has passed since the last check remembered in
    ``state_file``, which then remembers this one (a failed check is not remembered:
    it is tried again at the next look)."""
    from openworker_qt.storage.updates import check_due, record_check

    if not check_due(state_file):
        return UpdateAnswer("recent")
    answer = check_now(url, current, key_file, public_key=public_key)
    if answer.outcome == "failed":
        log.info("automatic update check failed: %s", answer.error)
        return answer
    try:
        record_check(state_file, latest=answer.version)
    except OSError as exc:
        log.warning("could not remember the update check: %s", exc)
    return answer


def refused_address(text: str) -> tuple[str, str]:
    """The update address ``text`` as it would be saved, and why it is refused
    ("plain_http", "no_server", "not_web"; empty when it is allowed)."""
    from openworker_qt.storage.updates import UpdateAddressError, check_update_url

    try:
        return check_update_url(text), ""
    except UpdateAddressError as exc:
        return text.strip(), exc.reason


def is_development_build(key_file: Path) -> bool:
    """Is the shipped key in ``key_file`` the development placeholder? (A missing
    file is not: the check itself says it is missing.)"""
    from openworker_qt.storage.updates import is_development_key

    try:
        text = key_file.read_bytes()
    except OSError:
        text = b""
    return is_development_key(text)


def upgrade_pending(database: Path) -> bool:
    """Does the database at ``database`` need this version's schema steps? (One small read.)"""
    from openworker_qt.storage.upgrade import pending_upgrade

    return pending_upgrade(database)


def upgrade_database(database: Path) -> None:
    """Run the schema steps the database at ``database`` needs (seconds over a big one)."""
    from openworker_qt.storage.upgrade import upgrade

    upgrade(database)
