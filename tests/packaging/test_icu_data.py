"""installer/icu_data.py: ICU's data cut to what Qt asks of it, and Qt still answers."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "installer"))

import icu_data  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux build")


def wheel_icu() -> Path:
    from PySide6.QtCore import QLibraryInfo

    lib = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.LibrariesPath))
    found = sorted(lib.glob("libicudata.so.*[0-9]"))
    assert found, f"no libicudata in {lib}"
    return found[0]


def icu_problems_with(lib: Path) -> list[str]:
    """smoke.icu_problems() in a Qt process that loads ``lib`` as its ICU data."""
    code = ("from PySide6.QtCore import QCoreApplication\n"
            "app = QCoreApplication([])\n"
            "from openworker_qt import smoke\n"
            "maps = open('/proc/self/maps').read()\n"
            f"assert {str(lib)!r} in maps, 'the cut library was not loaded'\n"
            "print(repr(smoke.icu_problems()))\n")
    env = {**os.environ, "LD_PRELOAD": str(lib), "PYTHONPATH": str(REPO),
           "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])  # printed by repr()


def test_the_cut_keeps_what_qt_uses_and_nothing_else(tmp_path: Path) -> None:
    src = wheel_icu()
    out = tmp_path / src.name
    before, after = icu_data.build(src, out)
    assert after < before / 2
    _, original = icu_data._items(icu_data._symbol(src)[1])
    symbol, package = icu_data._symbol(out)
    assert symbol == icu_data._symbol(src)[0]
    _, items = icu_data._items(package)
    kept = {name.split("/", 1)[1]: data for name, data in items}
    whole = {name.split("/", 1)[1]: data for name, data in original}
    for name in ("coll/zh.res", "coll/root.res", "coll/ucadata.icu", "zone/zh.res",
                 "zone/en.res", "zoneinfo64.res", "metaZones.res", "gb18030.cnv",
                 "cnvalias.icu", "root.res", "zh_Hans.res", "pool.res", "res_index.res"):
        assert kept[name] == whole[name], name  # the same bytes
    for name in ("coll/fr.res", "zone/de.res", "fr.res", "brkitr/cjdict.dict",
                 "translit/root.txt" if "translit/root.txt" in whole else "translit/root.res",
                 "unames.icu", "curr/en.res"):
        assert name not in kept, name
    # Items are 16-byte aligned in the package, as ICU expects.
    assert package.index(kept["coll/zh.res"]) % 16 == 0


def test_qt_answers_from_the_cut_data_and_the_check_sees_an_overcut(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = wheel_icu()
    good = tmp_path / "good" / src.name
    icu_data.build(src, good)
    assert icu_problems_with(good) == []
    monkeypatch.setattr(icu_data, "KEEP_LANGUAGES", ("en",))  # Chinese cut away too
    bad = tmp_path / "bad" / src.name
    icu_data.build(src, bad)
    problems = icu_problems_with(bad)
    assert any("Chinese collation" in p for p in problems), problems
