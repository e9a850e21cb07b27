"""Collect the connectors' words for translation (the "Connectors" context of the .ts).

The connectors are plain Python (no Qt, so ``pyside6-lupdate`` cannot see
their words): each descriptor's category, description, field labels, help
texts and placeholders, what it says after connecting, and its tools'
descriptions (and, where the catalogue shows them, their first sentences); and
the templates of the errors they raise (``ConnectorError(kind, "{service}
refused …", service=…)``: every message is a constant template, its
placeholders filled after translation; an f-string message is reported, as
it could not be translated). Settings → Connectors passes each of them through
``QCoreApplication.translate("Connectors", text)``; this script writes every
one of them into the "Connectors" context of the translation files, so a new
connector's words show up there to be translated:

    python scripts/connector_strings.py            # add the new strings (unfinished)
    python scripts/connector_strings.py --check    # exit 1 if any is untranslated
    python scripts/connector_strings.py --union theirs.ts  # after a merge: both sides' messages

Run it after ``pyside6-lupdate`` too: lupdate marks the strings it cannot find
in the sources as vanished, and this script brings the connectors' back.
Translations keep technical tokens as they are (``xoxb-…``, scope names, URLs,
the labels of the service's own screens in quotes). The services' names stay as
the services write them and are not collected.
"""

from __future__ import annotations

import argparse
import ast
import copy
import importlib
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "resources" / "translations"
CONTEXT = "Connectors"
#: Words of a connector's ``extra`` that are shown to the user.
SHOWN_EXTRA = ("after_connect",)
#: Where the connectors raise their errors (plain Python, scanned without importing).
CONNECTORS = ROOT / "openworker_qt" / "connectors"
ERROR = "ConnectorError"


def descriptor_strings(specs: Iterable[Any] | None = None) -> list[str]:
    """Every user-visible string of the connectors' descriptors, once each, in order."""
    if specs is None:
        sys.path.insert(0, str(ROOT))
        from openworker_qt.connectors.registry import catalogue

        specs = catalogue()
    try:  # the catalogue's plain words for what a connector reads and does
        summary: Any = importlib.import_module("openworker_qt.connectors.summary")
    except ImportError:
        summary = None
    found: dict[str, None] = {}

    def add(text: object) -> None:
        if isinstance(text, str) and text.strip():
            found.setdefault(text, None)

    for spec in specs:
        add(spec.category)
        add(spec.description)
        for key in SHOWN_EXTRA:
            add(spec.extra.get(key))
        for f in spec.fields:
            add(f.label)
            add(f.help)
            if " " in f.placeholder.strip():  # a sentence; a bare token stays as it is
                add(f.placeholder)
        for tool in spec.tools:
            add(tool.description)
            if summary is not None:
                add(summary.sentence(tool.description))
    return list(found)


def error_templates(paths: Iterable[Path] | None = None) -> tuple[list[str], list[str]]:
    """The message templates of every ``ConnectorError(kind, message, …)`` in the
    connectors' sources, once each, in order; and where a message is not a constant
    template ("file:line: …"): those could not be translated.

    A message is a string literal (adjacent literals join), a module constant holding
    one, or such pieces joined with ``+`` (or chosen with ``… if … else …``)."""
    found: dict[str, None] = {}
    wrong: list[str] = []
    for path in sorted(CONNECTORS.rglob("*.py")) if paths is None else paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        constants = {**_imported_constants(tree), **_constants(tree)}
        calls = [node for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and _name(node.func) == ERROR]
        for node in sorted(calls, key=lambda c: c.lineno):
            args = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "message")]
            texts = _texts(args[0], constants) if args else None
            if texts:
                found.update(dict.fromkeys(texts))
            else:
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                wrong.append(f"{where}:{node.lineno}: the message is not a constant template")
    return list(found), wrong


def _constants(tree: ast.Module) -> dict[str, ast.expr]:
    """A module's constants: its top-level ``NAME = …`` assignments."""
    return {target.id: node.value for node in tree.body if isinstance(node, ast.Assign)
            for target in node.targets if isinstance(target, ast.Name)}


def _imported_constants(tree: ast.Module) -> dict[str, ast.expr]:
    """The constants a module imports from another connectors module by name
    (``from openworker_qt.connectors.browser_host import INSTALL_HINT``)."""
    found: dict[str, ast.expr] = {}
    for node in tree.body:
        if not (isinstance(node, ast.ImportFrom) and node.module
                and node.module.startswith("openworker_qt.connectors.")):
            continue
        source = ROOT.joinpath(*node.module.split(".")).with_suffix(".py")
        if not source.is_file():
            continue
        theirs = _constants(ast.parse(source.read_text(encoding="utf-8"), str(source)))
        found.update({a.asname or a.name: theirs[a.name] for a in node.names
                      if a.name in theirs})
    return found


def _texts(node: ast.expr, constants: dict[str, ast.expr], depth: int = 0) -> list[str] | None:
    """The strings an expression of constants can be: a literal, a module constant,
    ``a + b``, ``a if … else b``; None when it is anything else (an f-string, a call)."""
    if depth > 10:
        return None
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) else None
    if isinstance(node, ast.Name) and node.id in constants:
        return _texts(constants[node.id], constants, depth + 1)
    if isinstance(node, ast.IfExp):
        body, orelse = (_texts(node.body, constants, depth + 1),
                        _texts(node.orelse, constants, depth + 1))
        return body + orelse if body is not None and orelse is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = (_texts(node.left, constants, depth + 1),
                       _texts(node.right, constants, depth + 1))
        return [a + b for a in left for b in right] if left and right else None
    return None


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(
        func, ast.Attribute) else ""


def connector_strings() -> list[str]:
    """Everything of the "Connectors" context: the descriptors' words, then the errors'."""
    found = dict.fromkeys(descriptor_strings())
    found.update(dict.fromkeys(error_templates()[0]))
    return list(found)


# ------------------------------------------------------------------ .ts files


def _text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attr(value: str) -> str:
    return _text(value).replace('"', "&quot;")


def write_ts(root: ET.Element) -> str:
    """A .ts document written the way ``pyside6-lupdate`` writes it (small diffs)."""
    attrs = "".join(f' {k}="{_attr(v)}"' for k, v in root.attrib.items())
    out = ['<?xml version="1.0" encoding="utf-8"?>', "<!DOCTYPE TS>", f"<TS{attrs}>"]
    for context in root.findall("context"):
        out.append("    <context>")
        out.append(f"        <name>{_text(context.findtext('name') or '')}</name>")
        for message in context.findall("message"):
            mattrs = "".join(f' {k}="{_attr(v)}"' for k, v in message.attrib.items())
            out.append(f"        <message{mattrs}>")
            for child in message:
                cattrs = "".join(f' {k}="{_attr(v)}"' for k, v in child.attrib.items())
                forms = child.findall("numerusform")
                if forms:
                    out.append(f"            <{child.tag}{cattrs}>")
                    out.extend(f"                <numerusform>{_text(f.text or '')}</numerusform>"
                               for f in forms)
                    out.append(f"            </{child.tag}>")
                elif child.text is None and child.tag != "source":
                    out.append(f"            <{child.tag}{cattrs} />")
                else:
                    out.append(f"            <{child.tag}{cattrs}>{_text(child.text or '')}</{child.tag}>")
            out.append("        </message>")
        out.append("    </context>")
    out.append("</TS>")
    return "\n".join(out) + "\n"


def update(root: ET.Element, strings: Iterable[str]) -> list[str]:
    """Put every string in the "Connectors" context; returns the ones added.

    Existing translations stay; one marked vanished or obsolete (by lupdate) and
    still used comes back; strings no longer used stay (harmless)."""
    context = next((c for c in root.findall("context") if c.findtext("name") == CONTEXT), None)
    if context is None:
        context = ET.Element("context")
        ET.SubElement(context, "name").text = CONTEXT
        names = [c.findtext("name") or "" for c in root.findall("context")]
        at = sum(1 for n in names if n.lower() < CONTEXT.lower())
        root.insert(at, context)
    messages = {m.findtext("source"): m for m in context.findall("message")}
    added = []
    for text in strings:
        message = messages.get(text)
        if message is None:
            message = ET.SubElement(context, "message")
            ET.SubElement(message, "source").text = text
            ET.SubElement(message, "translation", type="unfinished")
            messages[text] = message
            added.append(text)
            continue
        translation = message.find("translation")
        if translation is not None and translation.get("type") in ("vanished", "obsolete"):
            del translation.attrib["type"]
    return added


def untranslated(root: ET.Element, strings: Iterable[str]) -> list[str]:
    """The strings without a finished translation in the "Connectors" context."""
    done = {}
    for context in root.findall("context"):
        if context.findtext("name") == CONTEXT:
            for m in context.findall("message"):
                t = m.find("translation")
                if t is not None and not t.get("type") and (t.text or "").strip():
                    done[m.findtext("source")] = t.text
    return [s for s in strings if s not in done]


def union(root: ET.Element, other: ET.Element) -> int:
    """Add to ``root`` every message of ``other`` it lacks (a finished translation
    replaces an unfinished one); returns how many came. Merging two branches'
    translation files: ``--union theirs.ts``."""
    contexts = {c.findtext("name"): c for c in root.findall("context")}
    came = 0
    for theirs in other.findall("context"):
        name = theirs.findtext("name") or ""
        ours = contexts.get(name)
        if ours is None:
            ours = ET.Element("context")
            ET.SubElement(ours, "name").text = name
            names = [c.findtext("name") or "" for c in root.findall("context")]
            root.insert(sum(1 for n in names if n.lower() < name.lower()), ours)
            contexts[name] = ours
        have = {m.findtext("source"): m for m in ours.findall("message")}
        for message in theirs.findall("message"):
            mine = have.get(message.findtext("source"))
            if mine is None:
                ours.append(copy.deepcopy(message))
                came += 1
            elif _unfinished(mine) and not _unfinished(message):
                ours.remove(mine)
                ours.append(copy.deepcopy(message))
                came += 1
    return came


def _unfinished(message: ET.Element) -> bool:
    t = message.find("translation")
    return t is None or bool(t.get("type")) or not (t.text or "").strip() and not len(t)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a string has no finished translation")
    parser.add_argument("--union", type=Path, metavar="OTHER.ts",
                        help="first add the messages of another branch's .ts that are missing")
    parser.add_argument("files", nargs="*", type=Path,
                        help="the .ts files (default: every one in resources/translations)")
    args = parser.parse_args(argv)
    strings = connector_strings()
    status = 0
    for problem in error_templates()[1]:
        print(problem)
        status = 1
    for path in args.files or sorted(TRANSLATIONS.glob("*.ts")):
        root = ET.parse(path).getroot()
        if args.check:
            missing = untranslated(root, strings)
            for text in missing:
                print(f"{path.name}: untranslated: {text}")
            status |= bool(missing)
            continue
        if args.union:
            came = union(root, ET.parse(args.union).getroot())
            print(f"{path.name}: {came} messages from {args.union.name}")
        added = update(root, strings)
        path.write_text(write_ts(root), encoding="utf-8")
        print(f"{path.name}: {len(added)} new, {len(untranslated(root, strings))} to translate")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
