"""Update manifests: verified with the shipped key before anything is read, fetched
from a real local HTTP server; an older version, a tampered text, a foreign key and
a malformed manifest are each told apart."""

from __future__ import annotations

import base64
import datetime as dt
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from openworker_qt.storage.updates import (
    ManifestFormatError,
    ManifestSignatureError,
    UpdateError,
    UpdatesUnavailable,
    check_due,
    check_for_update,
    check_update_url,
    is_development_key,
    load_public_key,
    parse_version,
    record_check,
    shipped_public_key,
    sign_manifest,
)
from tests.voice.fileserver import serve

REPO = Path(__file__).resolve().parents[2]
DIGEST = "ab" * 32


def _keypair() -> tuple[bytes, bytes]:
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return private, public


def _manifest(version: str = "0.2.0") -> dict[str, object]:
    return {"version": version, "notes": "Faster start-up", "published": "2026-12-01",
            "platforms": {"linux-x86_64": {"url": "https://example.org/ow.AppImage",
                                           "sha256": DIGEST}}}


def test_a_newer_signed_manifest_offers_the_download() -> None:
    private, public = _keypair()
    with serve() as server:
        server.files["/manifest.json"] = sign_manifest(_manifest("0.2.0"), private)
        check = check_for_update(server.url + "/manifest.json", "0.1.0", public,
                                 platform="linux-x86_64")
    assert check.available
    assert check.manifest.version == "0.2.0" and check.manifest.notes == "Faster start-up"
    assert check.asset is not None
    assert check.asset.url == "https://example.org/ow.AppImage" and check.asset.sha256 == DIGEST


def test_an_older_or_equal_version_is_not_offered() -> None:
    private, public = _keypair()
    with serve() as server:
        server.files["/old.json"] = sign_manifest(_manifest("0.0.9"), private)
        server.files["/same.json"] = sign_manifest(_manifest("0.1"), private)
        assert not check_for_update(server.url + "/old.json", "0.1.0", public).available
        assert not check_for_update(server.url + "/same.json", "0.1.0", public).available
    assert parse_version("0.10.0") > parse_version("0.9.9")


def test_a_tampered_manifest_is_refused() -> None:
    private, public = _keypair()
    envelope = json.loads(sign_manifest(_manifest(), private))
    envelope["manifest"] = envelope["manifest"].replace("https://example.org/ow.AppImage",
                                                        "https://evil.example/ow.AppImage")
    with serve() as server:
        server.files["/manifest.json"] = json.dumps(envelope).encode()
        with pytest.raises(ManifestSignatureError, match="not signed by"):
            check_for_update(server.url + "/manifest.json", "0.1.0", public)


def test_a_manifest_signed_with_another_key_is_refused() -> None:
    private, _ = _keypair()
    _, other_public = _keypair()
    with serve() as server:
        server.files["/manifest.json"] = sign_manifest(_manifest(), private)
        with pytest.raises(ManifestSignatureError):
            check_for_update(server.url + "/manifest.json", "0.1.0", other_public)


@pytest.mark.parametrize("body", [
    b"<html>not json</html>",
    b'{"version": "9.9.9"}',  # unsigned
    b'{"manifest": "{}", "signature": "%%%"}',
])
def test_malformed_envelopes_are_refused(body: bytes) -> None:
    _, public = _keypair()
    with serve() as server:
        server.files["/manifest.json"] = body
        with pytest.raises(UpdateError):
            check_for_update(server.url + "/manifest.json", "0.1.0", public)


@pytest.mark.parametrize("manifest", [
    {"version": "next", "platforms": {"x": {"url": "https://a/b", "sha256": DIGEST}}},
    {"version": "1.0.0", "platforms": {}},
    {"version": "1.0.0", "platforms": {"x": {"url": "http://plain/b", "sha256": DIGEST}}},
    {"version": "1.0.0", "platforms": {"x": {"url": "https://a/b", "sha256": "short"}}},
])
def test_a_signed_but_malformed_manifest_is_refused(manifest: dict[str, object]) -> None:
    private, public = _keypair()
    with serve() as server:
        server.files["/manifest.json"] = sign_manifest(manifest, private)
        with pytest.raises(ManifestFormatError):
            check_for_update(server.url + "/manifest.json", "0.1.0", public)


def test_server_errors_read_as_messages() -> None:
    _, public = _keypair()
    with serve() as server:
        with pytest.raises(UpdateError, match="answered 404"):
            check_for_update(server.url + "/missing.json", "0.1.0", public)


def test_the_app_ships_a_release_key_or_says_it_cannot_check() -> None:
    text = (REPO / "resources" / "update-key.pub").read_text(encoding="utf-8")
    if is_development_key(text):
        with pytest.raises(UpdatesUnavailable, match="This build cannot check for updates"):
            shipped_public_key(REPO / "resources")
    else:
        assert len(shipped_public_key(REPO / "resources")) == 32
    with pytest.raises(UpdateError, match="damaged"):
        load_public_key(base64.b64encode(b"short"))


def test_the_development_placeholder_is_told_apart_from_a_damaged_key(tmp_path: Path) -> None:
    _, public = _keypair()
    encoded = base64.b64encode(public).decode()
    assert load_public_key(f"# a comment\n\n{encoded}\n") == public
    (tmp_path / "update-key.pub").write_text("# placeholder\ndevelopment\n")
    with pytest.raises(UpdatesUnavailable) as caught:
        shipped_public_key(tmp_path)
    assert "signature" not in str(caught.value) and "release key" in str(caught.value)
    for damaged in ("", "# only a comment\n", f"{encoded}\n{encoded}\n", "development key\n"):
        with pytest.raises(UpdateError, match="damaged"):
            load_public_key(damaged)
    (tmp_path / "update-key.pub").unlink()
    with pytest.raises(UpdateError, match="missing"):
        shipped_public_key(tmp_path)


@pytest.mark.parametrize("url", [
    "https://example.org/manifest.json", "  https://example.org/m.json  ",
    "http://127.0.0.1:8000/m.json", "http://localhost/m.json", "http://[::1]:9/m.json",
    "HTTPS://Example.org/m.json", "",
])
def test_update_addresses_that_are_accepted(url: str) -> None:
    assert check_update_url(url) == url.strip()


@pytest.mark.parametrize(("url", "message"), [
    ("http://example.org/manifest.json", "must start with https://"),
    ("http://10.0.0.1/manifest.json", "must start with https://"),
    ("http://localhost.example.org/m.json", "must start with https://"),
    ("ftp://example.org/manifest.json", "starts with https://"),
    ("example.org/manifest.json", "not a web address"),
    ("https:///manifest.json", "names no server"),
    ("https://example.org:port/m.json", "not a web address"),
])
def test_update_addresses_that_are_refused(url: str, message: str) -> None:
    with pytest.raises(UpdateError, match=message):
        check_update_url(url)


def test_a_plain_http_address_elsewhere_is_refused_before_any_request() -> None:
    _, public = _keypair()
    # the network guard would fail the test if a connection were attempted
    with pytest.raises(UpdateError, match="must start with https://"):
        check_for_update("http://updates.example.org/manifest.json", "0.1.0", public)


def test_automatic_checks_are_due_once_a_week(tmp_path: Path) -> None:
    state = tmp_path / "state" / "updates.json"
    start = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
    assert check_due(state, now=start)  # never checked
    record_check(state, now=start, latest="0.2.0")
    assert json.loads(state.read_text())["latest"] == "0.2.0"
    assert not check_due(state, now=start + dt.timedelta(days=6, hours=23))
    assert check_due(state, now=start + dt.timedelta(days=7, seconds=1))
    assert check_due(state, now=start - dt.timedelta(days=1))  # the clock went back
    state.write_text("{not json")
    assert check_due(state, now=start)
    assert [p.name for p in state.parent.iterdir()] == ["updates.json"]  # no temporary left
