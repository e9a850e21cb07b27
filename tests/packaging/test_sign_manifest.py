"""installer/sign_manifest.py, run as the release workflow runs it: ``keygen`` writes a
public key the app reads, ``check-key`` passes only when UPDATE_SIGNING_KEY is that
key's private half (and says why otherwise), ``sign`` writes a manifest the app accepts."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from openworker_qt.storage.updates import (
    check_for_update,
    is_development_key,
    shipped_public_key,
)
from tests.voice.fileserver import serve

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "installer" / "sign_manifest.py"


def _run(*args: str, secret: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "UPDATE_SIGNING_KEY"}
    if secret is not None:
        env["UPDATE_SIGNING_KEY"] = secret
    return subprocess.run([sys.executable, str(SCRIPT), *args], env=env, capture_output=True,
                          text=True, timeout=60, check=False)


def _keygen(public: Path) -> str:
    done = _run("keygen", "--public", str(public))
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _other_secret() -> str:
    raw = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
        serialization.NoEncryption())
    return base64.b64encode(raw).decode()


def test_the_matching_secret_passes(tmp_path: Path) -> None:
    public = tmp_path / "update-key.pub"
    secret = _keygen(public)
    assert public.read_text().startswith("#")  # the header says what the file is
    done = _run("check-key", "--public", str(public), secret=secret)
    assert done.returncode == 0, done.stderr
    assert "matches" in done.stdout


def test_another_key_is_refused_with_both_public_keys_named(tmp_path: Path) -> None:
    public = tmp_path / "update-key.pub"
    _keygen(public)
    shipped = public.read_text().strip().splitlines()[-1]
    done = _run("check-key", "--public", str(public), secret=_other_secret())
    assert done.returncode == 1
    assert "does not match" in done.stderr and shipped in done.stderr
    assert "nothing was published" in done.stderr


def test_a_damaged_secret_is_refused_clearly(tmp_path: Path) -> None:
    public = tmp_path / "update-key.pub"
    _keygen(public)
    done = _run("check-key", "--public", str(public), secret="not a key")
    assert done.returncode == 1 and "not a base64 raw Ed25519 private key" in done.stderr
    signed = _run("sign", "1.0.0", str(public), str(tmp_path / "m.json"), secret="bm9wZQ==")
    assert signed.returncode == 2 and "UPDATE_SIGNING_KEY is not" in signed.stderr
    assert not (tmp_path / "m.json").exists()


def test_the_development_placeholder_and_a_missing_secret(tmp_path: Path) -> None:
    placeholder = tmp_path / "update-key.pub"
    placeholder.write_text("# no release key yet\ndevelopment\n")
    # a fork: no secret, no release key → unsigned release, allowed
    assert _run("check-key", "--public", str(placeholder)).returncode == 0
    # a secret but the placeholder still committed → refused
    refused = _run("check-key", "--public", str(placeholder), secret=_other_secret())
    assert refused.returncode == 1 and "development placeholder" in refused.stderr
    # a release key committed but the secret missing → refused
    real = tmp_path / "real.pub"
    _keygen(real)
    missing = _run("check-key", "--public", str(real))
    assert missing.returncode == 1 and "UPDATE_SIGNING_KEY is not set" in missing.stderr
    gone = _run("check-key", "--public", str(tmp_path / "absent.pub"), secret=_other_secret())
    assert gone.returncode == 1 and "missing" in gone.stderr


def test_a_manifest_signed_by_the_script_verifies_with_the_key_it_wrote(tmp_path: Path) -> None:
    public = tmp_path / "update-key.pub"
    secret = _keygen(public)
    notes = tmp_path / "notes.txt"
    notes.write_text("Faster start-up")
    asset = tmp_path / "ow.AppImage"
    asset.write_bytes(b"an app")
    out = tmp_path / "manifest.json"
    done = _run("sign", "9.0.0", str(notes), str(out), "--asset",
                f"linux-x86_64=https://example.org/ow.AppImage={asset}", secret=secret)
    assert done.returncode == 0, done.stderr
    with serve() as server:
        server.files["/manifest.json"] = out.read_bytes()
        check = check_for_update(server.url + "/manifest.json", "0.1.0",
                                 shipped_public_key(tmp_path), platform="linux-x86_64")
    assert check.available and check.manifest.notes == "Faster start-up"
    assert check.asset is not None and check.asset.url == "https://example.org/ow.AppImage"


def test_the_repository_ships_no_key_without_a_holder() -> None:
    """The committed key is the development placeholder until a maintainer makes the
    release key (then it is a key, and check-key in CI proves the secret matches)."""
    text = (REPO / "resources" / "update-key.pub").read_text(encoding="utf-8")
    assert "BzQR+4JaWXxcSVg2wMlB7MIQcC6bYocLLGp4ADUKNSo=" not in text  # nobody holds it
    if is_development_key(text):
        assert _run("check-key").returncode == 0  # no secret here: a fork's release
