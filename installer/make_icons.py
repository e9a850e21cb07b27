"""Render ``resources/icons/openworker.svg`` into the platform icon files.

PyInstaller wants an ``.icns`` (macOS bundle) and an ``.ico`` (Windows
executable); converting needs Pillow, which the project does not use, so this
script renders the SVG with Qt and writes both containers itself. Both formats
simply hold PNG images:

* ICO: a 6-byte header, one 16-byte directory entry per image, then the PNGs
  (PNG entries are supported since Windows Vista);
* ICNS: ``b"icns"`` + total length, then ``type + length + PNG`` per image
  (PNG entries of these types are supported since OS X 10.7).

Usage: ``python installer/make_icons.py OUT_DIR`` → ``OUT_DIR/openworker-qt.ico``
and ``OUT_DIR/openworker-qt.icns``. The spec runs it at build time.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "resources" / "icons" / "openworker.svg"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS element types holding PNG data, by pixel size (the @2x types reuse sizes).
ICNS_TYPES = (
    (b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256),
    (b"ic09", 512), (b"ic10", 1024), (b"ic11", 32), (b"ic12", 64), (b"ic13", 256),
    (b"ic14", 512),
)


def render_png(svg: Path, size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"make_icons: cannot read {svg}")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def ico(pngs: dict[int, bytes]) -> bytes:
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        blob = pngs[size]
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICO directory
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
        blobs += blob
    return header + entries + blobs


def icns(pngs: dict[int, bytes]) -> bytes:
    body = b"".join(kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size]
                    for kind, size in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main(out_dir: str) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    sizes = sorted(set(ICO_SIZES) | {size for _, size in ICNS_TYPES})
    pngs = {size: render_png(SVG, size) for size in sizes}
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "openworker-qt.ico").write_bytes(ico({s: pngs[s] for s in ICO_SIZES}))
    (out / "openworker-qt.icns").write_bytes(icns(pngs))
    (out / "openworker-qt.png").write_bytes(pngs[256])
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: make_icons.py OUT_DIR")
    sys.exit(main(sys.argv[1]))
