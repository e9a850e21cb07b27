"""Write the signed update manifest (release job), check or make the release key.

    python installer/sign_manifest.py keygen            # prints a private key, writes resources/update-key.pub
    python installer/sign_manifest.py check-key         # UPDATE_SIGNING_KEY matches resources/update-key.pub?
    python installer/sign_manifest.py sign VERSION NOTES_FILE OUT.json \
        --asset linux-x86_64=https://…/OpenWorker.AppImage=dist/OpenWorker.AppImage …

``sign`` and ``check-key`` read the base64 raw Ed25519 private key from the
``UPDATE_SIGNING_KEY`` environment variable (a CI secret, see installer/README.md).
``check-key`` derives the public key from it and compares it with the key the build
ships; it exits 1, saying why, when they differ, when the shipped file is the
development placeholder while a secret is set, or when a release key is shipped but
the secret is missing (the release would carry no manifest). With neither a secret
nor a release key (a fork) it exits 0: the build is unsigned and says it cannot check
for updates. Each ``--asset`` of ``sign`` names the platform key, the public download
URL and the local file whose SHA-256 is recorded.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from openworker_qt.storage.updates import (  # noqa: E402
    UpdateError,
    is_development_key,
    load_public_key,
    sign_manifest,
)

KEY_HEADER = (
    "# OpenWorker Qt's update key: base64 of the raw 32-byte Ed25519 public key on one line\n"
    "# (storage/updates.py). Its private half is the UPDATE_SIGNING_KEY secret of the\n"
    "# release workflow; installer/README.md (\"Update manifest and its key\") says more.\n")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def keygen(public_out: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.Raw,
                                           serialization.PublicFormat.Raw)
    public_out.write_text(KEY_HEADER + base64.b64encode(public).decode() + "\n")
    print("UPDATE_SIGNING_KEY (store it as a CI secret, nowhere else):")
    print(base64.b64encode(private).decode())


def _private_key(secret: str) -> bytes:
    try:
        key = base64.b64decode(secret.strip(), validate=True)
    except ValueError:
        key = b""
    if len(key) != 32:
        raise ValueError("UPDATE_SIGNING_KEY is not a base64 raw Ed25519 private key "
                         "(32 bytes); store the line `keygen` printed")
    return key


def derive_public(secret: str) -> bytes:
    """The raw public key of a base64 raw Ed25519 private key (``UPDATE_SIGNING_KEY``)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.from_private_bytes(_private_key(secret))
    return private.public_key().public_bytes(serialization.Encoding.Raw,
                                             serialization.PublicFormat.Raw)


def check_key(public_file: Path, secret: str) -> tuple[bool, str]:
    """Whether the release may publish with this secret and this shipped key, and why."""
    try:
        shipped_text = public_file.read_text(encoding="utf-8")
    except OSError:
        return False, f"{public_file} is missing: the build would ship no update key"
    development = is_development_key(shipped_text)
    if not secret.strip():
        if development:
            return True, ("UPDATE_SIGNING_KEY is not set and the build ships the development "
                          "key: the release is unsigned, has no update manifest, and the app "
                          "says it cannot check for updates")
        return False, (f"{public_file} holds a release key but UPDATE_SIGNING_KEY is not set: "
                       "the release would have no update manifest; store the secret")
    if development:
        return False, (f"{public_file} is the development placeholder, but UPDATE_SIGNING_KEY "
                       "is set: commit the public key `keygen` wrote with that secret")
    try:
        shipped = load_public_key(shipped_text)
    except UpdateError:
        return False, f"{public_file} is damaged: it holds no readable Ed25519 public key"
    try:
        derived = derive_public(secret)
    except ValueError as exc:
        return False, str(exc)
    if derived != shipped:
        return False, (f"UPDATE_SIGNING_KEY does not match {public_file}: its public half is "
                       f"{base64.b64encode(derived).decode()}, the build ships "
                       f"{base64.b64encode(shipped).decode()}. Manifests signed with it would "
                       "be refused by every copy of this build; nothing was published")
    return True, f"UPDATE_SIGNING_KEY matches {public_file}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    k = sub.add_parser("keygen")
    k.add_argument("--public", type=Path, default=ROOT / "resources" / "update-key.pub")
    c = sub.add_parser("check-key")
    c.add_argument("--public", type=Path, default=ROOT / "resources" / "update-key.pub")
    s = sub.add_parser("sign")
    s.add_argument("version")
    s.add_argument("notes", type=Path)
    s.add_argument("out", type=Path)
    s.add_argument("--asset", action="append", default=[], help="platform=url=file")
    args = parser.parse_args(argv)
    if args.command == "keygen":
        keygen(args.public)
        return 0
    secret = os.environ.get("UPDATE_SIGNING_KEY", "")
    if args.command == "check-key":
        ok, message = check_key(args.public, secret)
        print(message, file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 1
    if not secret:
        print("UPDATE_SIGNING_KEY is not set", file=sys.stderr)
        return 2
    platforms = {}
    for spec in args.asset:
        name, url, file = spec.split("=", 2)
        platforms[name] = {"url": url, "sha256": _sha256(Path(file))}
    manifest = {"version": args.version, "notes": args.notes.read_text(encoding="utf-8"),
                "published": dt.date.today().isoformat(), "platforms": platforms}
    try:
        private = _private_key(secret)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    args.out.write_bytes(sign_manifest(manifest, private))
    return 0


if __name__ == "__main__":
    sys.exit(main())
