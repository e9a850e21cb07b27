"""Write the signed update manifest (release job) or make a new release key.

    python installer/sign_manifest.py keygen            # prints a private key, writes resources/update-key.pub
    python installer/sign_manifest.py sign VERSION NOTES_FILE OUT.json \
        --asset linux-x86_64=https://…/OpenWorker.AppImage=dist/OpenWorker.AppImage …

``sign`` reads the base64 raw Ed25519 private key from the ``UPDATE_SIGNING_KEY``
environment variable (a CI secret, see the README); each ``--asset`` names the
platform key, the public download URL and the local file whose SHA-256 is recorded.
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

from openworker_qt.storage.updates import sign_manifest  # noqa: E402


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
    public_out.write_text(base64.b64encode(public).decode() + "\n")
    print("UPDATE_SIGNING_KEY (store it as a CI secret, nowhere else):")
    print(base64.b64encode(private).decode())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    k = sub.add_parser("keygen")
    k.add_argument("--public", type=Path, default=ROOT / "resources" / "update-key.pub")
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
    if not secret:
        print("UPDATE_SIGNING_KEY is not set", file=sys.stderr)
        return 2
    platforms = {}
    for spec in args.asset:
        name, url, file = spec.split("=", 2)
        platforms[name] = {"url": url, "sha256": _sha256(Path(file))}
    manifest = {"version": args.version, "notes": args.notes.read_text(encoding="utf-8"),
                "published": dt.date.today().isoformat(), "platforms": platforms}
    args.out.write_bytes(sign_manifest(manifest, base64.b64decode(secret)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
