"""installer/make_icons.py writes .ico/.icns files Qt's own readers accept."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PySide6.QtGui import QImageReader

REPO = Path(__file__).resolve().parents[2]


def test_icons_render_and_read_back(qapp: object, tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_icons", REPO / "installer" / "make_icons.py")
    assert spec and spec.loader
    make_icons = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_icons)
    assert make_icons.main(str(tmp_path)) == 0
    ico = QImageReader(str(tmp_path / "openworker-qt.ico"))
    assert ico.canRead() and ico.imageCount() == len(make_icons.ICO_SIZES)
    sizes = set()
    for index in range(ico.imageCount()):
        ico.jumpToImage(index)
        sizes.add(ico.read().width())
    assert sizes == set(make_icons.ICO_SIZES)
    icns = QImageReader(str(tmp_path / "openworker-qt.icns"))
    assert icns.canRead() and icns.imageCount() == len(make_icons.ICNS_TYPES)
    assert not icns.read().isNull()
