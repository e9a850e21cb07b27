"""The prose that documents the code stays true to it.

* A comment or docstring that names a file of this repository (``core/engine.py``,
  ``docs/durability.md``, quoted or backticked, with a folder) names one that exists.
* A ``Signals:`` section (in a class docstring, or in the module docstring for the
  module's one class with signals, or ``Signals (ClassName):``) lists exactly that
  class's public signals; a class with public signals has such a section, bar the few
  in :data:`UNDOCUMENTED`, a list that may only shrink.

Both read the source with :mod:`ast` and :mod:`tokenize`: nothing is imported.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "openworker_qt"

# ------------------------------------------------------------------ file names

_PATH = re.compile(
    r"[`'\"]{1,2}((?:[\w.-]+/)+[\w.-]+\.(?:py|md|toml|sh|json|ya?ml|txt|cfg|ini|spec|svg|png))"
    r"[`'\"]{1,2}")


def _python_files(top: Path) -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(top):
        subfolders[:] = [d for d in subfolders if d not in {"node", "node_modules", "__pycache__"}]
        found += [Path(folder, f) for f in files if f.endswith(".py")]
    return found


def _sources() -> list[Path]:
    tops = ("openworker_qt", "tests", "bench", "scripts", "installer")
    return sorted(p for top in tops for p in _python_files(ROOT / top))


def _folders() -> set[str]:
    """First components that mean "a file of this repository": its top-level folders,
    the package's subpackages and the test folders (``core/engine.py`` is read relative
    to the package). Anything else (``.openworker/config.toml``, ``models/README.md`` in
    a download) names a file on the user's machine, not one here."""
    names: set[str] = set()
    for base in (ROOT, PACKAGE, ROOT / "tests"):
        names |= {p.name for p in base.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    return names


def _prose(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of each comment and docstring in ``path``."""
    source = path.read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield (node.body[0].lineno if node.body else 1), doc


def missing_files(paths: list[Path]) -> list[str]:
    folders = _folders()
    problems = []
    for path in paths:
        bases = [ROOT, PACKAGE, ROOT / "tests", *path.parents]
        for line, text in _prose(path):
            for match in _PATH.finditer(text):
                ref = match.group(1)
                if ref.split("/")[0] not in folders:
                    continue
                if not any((base / ref).exists() for base in bases):
                    problems.append(f"{path.relative_to(ROOT)}:{line}: {ref}")
    return problems


def test_comments_and_docstrings_name_files_that_exist() -> None:
    assert missing_files(_sources()) == []


_MD_PATH = re.compile(
    r"`((?:[\w.-]+/)+[\w.-]+\.(?:py|md|toml|sh|json|ya?ml|txt|cfg|ini|spec|svg|png))`"
    r"|\]\(((?:[\w.-]+/)*[\w.-]+\.(?:md|png|py|toml))\)")


def test_the_documents_name_files_that_exist() -> None:
    """The same for the Markdown documents: backticked repository paths and links."""
    folders = _folders()
    problems = []
    documents = [*ROOT.glob("*.md"), *(ROOT / "docs").glob("*.md"), *(ROOT / "installer").glob("*.md")]
    for document in documents:
        for number, line in enumerate(document.read_text(encoding="utf-8").splitlines(), 1):
            for match in _MD_PATH.finditer(line):
                ref = match.group(1) or match.group(2)
                if match.group(1) and ref.split("/")[0] not in folders:
                    continue
                if not any((base / ref).exists() for base in (ROOT, document.parent, PACKAGE)):
                    problems.append(f"{document.relative_to(ROOT)}:{number}: {ref}")
    assert problems == []


def test_the_file_check_sees_a_missing_file() -> None:
    """The check itself: a made-up file in a docstring and a comment is reported."""
    sample = ROOT / "tests" / "_docs_sample.py"  # inside the repository, like the real ones
    sample.write_text('"""See ``docs/setup-notes.md``."""\n'
                      "# and `core/engine.py`, `core/no_such_module.py`\n", encoding="utf-8")
    try:
        assert missing_files([sample]) == [
            "tests/_docs_sample.py:2: core/no_such_module.py",
            "tests/_docs_sample.py:1: docs/setup-notes.md",
        ]
    finally:
        sample.unlink()


# --------------------------------------------------------------------- signals

_HEAD = re.compile(r"^(\s*)Signals(?: \((\w+)\))?:\s*$")
_NAME = re.compile(r"(?<![\w.`])([a-z_][A-Za-z0-9_]*)\(")

#: Classes with public signals and no ``Signals:`` section yet (remove as they get one).
UNDOCUMENTED = {
    "qt/session_model.py:SessionListModel",
    "ui/approval.py:ApprovalCard",
    "ui/approval.py:ApprovalDialog",
    "ui/connector_catalog.py:ConnectorCard",
    "ui/connector_catalog.py:ConnectorCatalog",
    "ui/settings_connectors.py:ConnectorsPage",
    "ui/settings_voice.py:VoicePage",
    "ui/update_notice.py:AutoUpdateCheck",
    "ui/updates.py:UpdatePrompt",
    "ui/upgrade_window.py:UpgradeWindow",
}


def signal_sections(doc: str) -> dict[str | None, set[str]]:
    """{class named in the heading, or None: names listed} for each section."""
    sections: dict[str | None, set[str]] = {}
    lines = doc.splitlines()
    i = 0
    while i < len(lines):
        head = _HEAD.match(lines[i])
        i += 1
        if not head:
            continue
        indent, names = len(head.group(1)), set()
        while i < len(lines) and lines[i].strip() and (
                len(lines[i]) - len(lines[i].lstrip()) > indent):
            names |= set(_NAME.findall(lines[i]))
            i += 1
        sections[head.group(2)] = names
    return sections


def public_signals(cls: ast.ClassDef) -> set[str]:
    """Names assigned ``Signal(...)`` in the class body, leading underscore excepted."""
    names = set()
    for node in cls.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            if (isinstance(func, ast.Name) and func.id == "Signal") or (
                    isinstance(func, ast.Attribute) and func.attr == "Signal"):
                names |= {t.id for t in node.targets
                          if isinstance(t, ast.Name) and not t.id.startswith("_")}
    return names


def signal_problems(path: Path, relative: str) -> tuple[list[str], set[str]]:
    """(mismatches, classes with signals and no section) for one module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = signal_sections(ast.get_docstring(tree) or "")
    problems: list[str] = []
    orphans: list[ast.ClassDef] = []
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        signals = public_signals(cls)
        listed = signal_sections(ast.get_docstring(cls) or "").get(None, module.get(cls.name))
        if listed is None:
            if signals and not cls.name.startswith("_"):  # a private class: no section
                orphans.append(cls)
        elif listed != signals:
            problems.append(f"{relative}:{cls.lineno} {cls.name}: not listed "
                            f"{sorted(signals - listed)}, listed but no such signal "
                            f"{sorted(listed - signals)}")
    if None in module:
        if len(orphans) != 1:
            problems.append(f"{relative}: the module's Signals: section fits none or several "
                            f"of {[c.name for c in orphans]}: name it, Signals (Class):")
        else:
            cls = orphans.pop()
            if module[None] != public_signals(cls):
                problems.append(
                    f"{relative}:{cls.lineno} {cls.name} (module docstring): not listed "
                    f"{sorted(public_signals(cls) - module[None])}, listed but no such "
                    f"signal {sorted(module[None] - public_signals(cls))}")
    return problems, {f"{relative}:{c.name}" for c in orphans}


def test_signals_sections_list_every_signal() -> None:
    problems: list[str] = []
    undocumented: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        found, orphans = signal_problems(path, path.relative_to(PACKAGE).as_posix())
        problems += found
        undocumented |= orphans
    assert problems == []
    assert undocumented - UNDOCUMENTED == set(), "add a Signals: section to its docstring"
    assert UNDOCUMENTED - undocumented == set(), "documented now: take it off UNDOCUMENTED"


def test_the_signals_check_sees_a_missing_signal(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('''"""A window.

Signals:
    opened(), closed(str): said when.
"""
from PySide6.QtCore import QObject, Signal


class Window(QObject):
    opened = Signal()
    closed = Signal(str)
    moved = Signal()
    _internal = Signal()
''', encoding="utf-8")
    problems, orphans = signal_problems(sample, "sample.py")
    assert problems == ["sample.py:9 Window (module docstring): not listed ['moved'], "
                        "listed but no such signal []"]
    assert orphans == set()
