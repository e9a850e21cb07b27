"""qt/updates.py: what the update windows are told, against a local server serving
signed manifests (no window here): the answer's fields, a weekly check remembered
and not repeated, a failed one tried again, the address refusals, a development
build, and the database's upgrade asked about before anything runs."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from openworker_qt.qt.updates import (
    UpdateAnswer,
    check_if_due,
    check_now,
    is_development_build,
    refused_address,
    upgrade_pending,
)
from openworker_qt.storage.updates import sign_manifest
from tests.packaging.test_updates import DIGEST, _keypair, _manifest
from tests.voice.fileserver import serve


def _key_file(folder: Path, public: bytes) -> Path:
    path = folder / "update-key.pub"
    path.write_text("# the release key\n" + base64.b64encode(public).decode() + "\n")
    return path


def _placeholder(folder: Path) -> Path:
    path = folder / "update-key.pub"
    path.write_text("# no release key yet\ndevelopment\n")
    return path


def test_a_newer_version_is_answered_with_its_notes_and_download(tmp_path: Path) -> None:
    private, public = _keypair()
    with serve() as server:
        server.files["/m.json"] = sign_manifest(_manifest("9.0.0"), private)
        answer = check_now(server.url + "/m.json", "0.1.0", _key_file(tmp_path, public))
        current = check_now(server.url + "/m.json", "9.0.0", _key_file(tmp_path, public))
    assert answer == UpdateAnswer("available", version="9.0.0", notes="Faster start-up",
                                  download_url="https://example.org/ow.AppImage",
                                  sha256=DIGEST)
    assert current.outcome == "current" and current.version == "9.0.0"


def test_a_manifest_signed_by_another_key_fails_with_the_reason(tmp_path: Path) -> None:
    private, _ = _keypair()
    _, other = _keypair()
    with serve() as server:
        server.files["/m.json"] = sign_manifest(_manifest("9.0.0"), private)
        answer = check_now(server.url + "/m.json", "0.1.0", tmp_path / "absent.pub",
                           public_key=other)
    assert answer.outcome == "failed" and "release key" in answer.error
    assert answer.download_url == "" and answer.version == ""


def test_a_development_build_asks_no_server(tmp_path: Path) -> None:
    key = _placeholder(tmp_path)
    assert is_development_build(key)
    with serve() as server:
        assert check_now(server.url + "/m.json", "0.1.0", key).outcome == "unavailable"
        assert server.ranges == []
    _, public = _keypair()
    assert not is_development_build(_key_file(tmp_path, public))
    assert not is_development_build(tmp_path / "missing.pub")  # the check says it is missing
    assert check_now("https://example.org/m.json", "0.1.0",
                     tmp_path / "missing.pub").outcome == "failed"


def test_the_weekly_check_is_remembered_and_a_failed_one_is_not(tmp_path: Path) -> None:
    private, public = _keypair()
    key = _key_file(tmp_path, public)
    state = tmp_path / "updates.json"
    with serve() as server:
        url = server.url + "/m.json"
        failed = check_if_due(state, url, "0.1.0", key)  # nothing served yet
        assert failed.outcome == "failed" and not state.exists()  # tried again next time
        server.files["/m.json"] = sign_manifest(_manifest("9.0.0"), private)
        first = check_if_due(state, url, "0.1.0", key)
        asked = len(server.ranges)
        again = check_if_due(state, url, "0.1.0", key)
        assert len(server.ranges) == asked  # within the week: the server is not asked
    assert first.outcome == "available" and first.version == "9.0.0"
    assert json.loads(state.read_text(encoding="utf-8"))["latest"] == "9.0.0"
    assert again == UpdateAnswer("recent")


def test_an_address_is_judged_before_it_is_saved() -> None:
    assert refused_address("  https://example.org/m.json ") == ("https://example.org/m.json", "")
    assert refused_address("") == ("", "")  # empty: update checks off
    assert refused_address("http://example.org/m.json")[1] == "plain_http"
    assert refused_address("http://127.0.0.1:8000/m.json")[1] == ""  # this computer: testing
    assert refused_address("https:///m.json")[1] == "no_server"
    assert refused_address("example")[1] == "not_web"


def test_a_missing_database_needs_no_upgrade(tmp_path: Path) -> None:
    assert not upgrade_pending(tmp_path / "none.db")
