#!/usr/bin/env python3
"""ICU data for the Linux build, cut to what Qt asks ICU for: ``libicudata.so.NN``.

Qt's wheels ship ICU with its whole data library (31 MiB: every locale's names,
currencies, units, calendars, collations, break dictionaries, transliterators,
character names, converters). QtCore is the only library in the bundle that calls
ICU, and it calls four parts of it (``nm -D --undefined-only libQt6Core.so.6``):

- ``ucol_*``: collation (QCollator; Qt's file dialog sorts names with it);
- ``ucal_*``: time zone display names and canonical IDs (QTimeZone);
- ``ucnv_*``: legacy text encodings (QStringConverter/QStringDecoder by name);
- ``u_strToUpper``/``u_strToLower``: locale-aware case mapping.

So the data keeps every converter, the time zone and collation data, and the
core tables, but only the root, English and Chinese locales (the languages the app
ships: other locales fall back to root, as ICU's own locale filter does), and none
of what nothing calls: break iteration dictionaries (``ubrk_*``), transliterators,
spelled-out numbers (rbnf), currency and unit names, and Unicode character names.

The data is ICU's common-data package (a header, a table of contents of named
items, the items 16-byte aligned) stored under the symbol ``icudtNN_dat``; this
reads it from the wheel's library, writes a package with the kept items, and
assembles it into a shared library with the same soname and symbol (binutils'
``as`` and ``ld``, which PyInstaller needs anyway).

    python installer/icu_data.py SRC/libicudata.so.73 OUT/libicudata.so.73
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

#: The languages whose locale data is kept (the app's translations), plus root.
KEEP_LANGUAGES = ("en", "zh")
#: Trees nothing in the bundle reads (see the module docstring).
DROP_TREES = ("brkitr", "translit", "rbnf", "curr", "unit")
DROP_ITEMS = ("unames.icu",)
#: Trees (and the top level) whose locale files are filtered by language.
_LOCALE_FILE = re.compile(r"^([a-z]{2,3})(?:_[A-Za-z0-9]*)*\.res$")  # de.res, de__PHONEBOOK.res


def _symbol(lib: Path) -> tuple[str, bytes]:
    """The data symbol's name and bytes, read from the library's ELF tables."""
    data = lib.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError(f"{lib} is not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    for _name, sh_type, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if sh_type != 11:  # SHT_DYNSYM
            continue
        strtab = sections[link]
        for k in range(size // entsize):
            st_name, _st_info, _other, shndx, value, st_size = struct.unpack_from(
                "<IBBHQQ", data, offset + k * entsize)
            start = strtab[4] + st_name
            name = data[start:data.index(b"\0", start)].decode()
            if re.fullmatch(r"icudt\d+_dat", name):
                section = sections[shndx]
                file_offset = section[4] + (value - section[3])
                return name, data[file_offset:file_offset + st_size]
    raise ValueError(f"{lib} holds no icudtNN_dat symbol")


def _items(package: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """The package's header and its (name, bytes) items, in table order."""
    header_size, magic1, magic2 = struct.unpack_from("<HBB", package, 0)
    if (magic1, magic2) != (0xDA, 0x27) or package[12:16] != b"CmnD":
        raise ValueError("not an ICU common data package")
    toc = package[header_size:]
    count, = struct.unpack_from("<I", toc, 0)
    entries = [struct.unpack_from("<II", toc, 4 + 8 * i) for i in range(count)]
    items = []
    for i, (name_offset, data_offset) in enumerate(entries):
        name = toc[name_offset:toc.index(b"\0", name_offset)].decode()
        end = entries[i + 1][1] if i + 1 < count else len(toc)
        items.append((name, toc[data_offset:end]))
    return package[:header_size], items


def keep(name: str) -> bool:
    """Whether the item (``icudt73l/coll/zh.res``) stays in the package."""
    path = name.split("/", 1)[1] if "/" in name else name
    tree, _, leaf = path.rpartition("/")
    if tree.split("/", 1)[0] in DROP_TREES or path in DROP_ITEMS:
        return False
    match = _LOCALE_FILE.match(leaf)
    if match is None or leaf in ("root.res", "pool.res", "res_index.res"):
        return True
    return match.group(1) in KEEP_LANGUAGES


def filtered_package(package: bytes) -> tuple[bytes, int, int]:
    """The package with the kept items only; and the item counts (kept, all)."""
    header, items = _items(package)
    kept = [(name, data) for name, data in items if keep(name)]
    names = b"".join(name.encode() + b"\0" for name, _ in kept)
    toc_head = 4 + 8 * len(kept)
    first = (toc_head + len(names) + 15) & ~15
    first += (-(len(header) + first)) % 16  # the items 16-byte aligned in the file
    table, chunks, name_at, offset = [], [], toc_head, first
    for name, data in kept:
        table.append((name_at, offset))
        name_at += len(name.encode()) + 1
        pad = (-len(data)) % 16
        chunks.append(data + b"\0" * pad)
        offset += len(data) + pad
    body = b"".join(chunks)
    toc = struct.pack("<I", len(kept)) + b"".join(struct.pack("<II", *e) for e in table)
    toc += names
    toc += b"\0" * (first - len(toc))
    return header + toc + body, len(kept), len(items)


def build(src: Path, dst: Path) -> tuple[int, int]:
    """Write the cut ``libicudata`` at ``dst``; returns (bytes before, bytes after)."""
    symbol, package = _symbol(src)
    cut, _kept, _total = filtered_package(package)
    soname = src.name
    with tempfile.TemporaryDirectory() as tmp:
        dat = Path(tmp) / "icudata.dat"
        dat.write_bytes(cut)
        asm = Path(tmp) / "icudata.s"
        asm.write_text(
            f"\t.section .rodata\n\t.globl {symbol}\n\t.type {symbol}, @object\n\t.balign 16\n"
            f"{symbol}:\n\t.incbin \"{dat}\"\n\t.size {symbol}, {len(cut)}\n"
            "\t.section .note.GNU-stack,\"\",@progbits\n",
            encoding="utf-8")
        obj = Path(tmp) / "icudata.o"
        subprocess.run(["as", "-o", str(obj), str(asm)], check=True, capture_output=True)
        dst.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["ld", "-shared", "-soname", soname, "-o", str(dst), str(obj)],
                       check=True, capture_output=True)
    return src.stat().st_size, dst.stat().st_size


if __name__ == "__main__":
    before, after = build(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"{Path(sys.argv[1]).name}: {before / 2**20:.1f} MiB → {after / 2**20:.1f} MiB")
