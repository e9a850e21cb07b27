"""The windows take their colours, spacing and type sizes from the design system
(``ui/design.py``): no hard-coded colour, margin or font-size literals in them, so
light, dark and the platform's accent stay consistent and one edit changes a
measure everywhere."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from openworker_qt.ui import design

UI = Path(design.__file__).parent
MODULES = (
    "settings", "settings_pages", "settings_mcp", "settings_personas", "settings_memory",
    "onboarding", "workspace", "grant_dialog", "inbox_window",
    "automations", "sidebar", "persona_consent", "main_window", "approval", "todo_panel",
    "empty_state", "composer",
)
HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})\b")
NAMED = {"red", "green", "blue", "black", "white", "gray", "grey", "yellow", "orange",
         "darkGray", "lightGray", "darkRed", "darkGreen", "darkBlue"}
SPACING_CALLS = {"setContentsMargins", "setSpacing", "addSpacing", "setVerticalSpacing",
                 "setHorizontalSpacing", "setMargin"}
FONT_SIZE_CALLS = {"setPointSize", "setPointSizeF", "setPixelSize"}


def stray_literals(source: str) -> list[str]:
    """Each colour, spacing or font-size literal in ``source`` (by line)."""
    found: list[str] = []
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            for m in HEX.finditer(node.value):
                found.append(f"line {node.lineno}: colour {m.group()}")
            if re.search(r"\b(?:rgba?|hsla?)\(\s*\d", node.value):
                found.append(f"line {node.lineno}: colour in {node.value[:40]!r}")
        elif isinstance(node, ast.Attribute) and node.attr in NAMED and \
                isinstance(node.value, ast.Attribute) and node.value.attr == "GlobalColor":
            found.append(f"line {node.lineno}: Qt.GlobalColor.{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name == "QColor" or (isinstance(node.func, ast.Name)):
                continue
            numbers = [a.value for a in node.args
                       if isinstance(a, ast.Constant) and isinstance(a.value, (int, float))
                       and not isinstance(a.value, bool)]
            if name in SPACING_CALLS and any(n != 0 for n in numbers):
                found.append(f"line {node.lineno}: {name}{tuple(numbers)}")
            if name in FONT_SIZE_CALLS:
                found.append(f"line {node.lineno}: {name}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "QColor" \
                and node.args and isinstance(node.args[0], ast.Constant):
            found.append(f"line {node.lineno}: QColor({node.args[0].value!r})")
    return found


@pytest.mark.parametrize("module", MODULES)
def test_no_stray_literals(module: str) -> None:
    source = (UI / f"{module}.py").read_text(encoding="utf-8")
    assert stray_literals(source) == [], f"ui/{module}.py: use ui/design.py"


def test_the_check_finds_literals() -> None:
    bad = (
        "w.setStyleSheet('color: #a1b2c3')\n"
        "lay.setContentsMargins(16, 12, 16, 12)\n"
        "f.setPointSizeF(f.pointSizeF() * 1.25)\n"
        "c = QColor('#fff')\n"
        "b = Qt.GlobalColor.red\n"
        "lay.setSpacing(10)\n"
    )
    assert {f.split(':')[0] for f in stray_literals(bad)} == {f'line {n}' for n in range(1, 7)}
    good = ("lay.setContentsMargins(0, 0, 0, 0)\nlay.setSpacing(design.SPACE['s'])\n"
            "def f():\n    '''Issue #123 is not a colour; #abc in a docstring is prose.'''\n")
    assert stray_literals(good) == []


def test_headings_and_layouts_come_from_the_scale(qapp: object) -> None:
    w = QWidget()
    lay = design.arrange(QVBoxLayout(w), "page", "section")
    assert lay.spacing() == design.GAP["section"]
    m = lay.contentsMargins()
    assert (m.left(), m.top(), m.right(), m.bottom()) == design.MARGINS["page"]
    h = design.heading("Memory")
    body = QLabel("x").font().pointSizeF()
    assert h.font().pointSizeF() == pytest.approx(body * design.TYPE_SCALE["heading"])
    assert h.font().weight() >= h.font().Weight.DemiBold
    label = design.tint(QLabel("quiet"), "muted")
    assert label.palette().color(label.foregroundRole()).name() == design.colors().muted


def test_offline_demo_model_reads_as_words(qapp: object) -> None:
    from openworker_qt.ui.composer import Composer

    composer = Composer()
    demo = "scripted:/usr/share/openworker/demo/welcome.json"
    composer.set_models(["anthropic:claude-sonnet-4-6"], demo)
    assert composer.model.currentText() == "Offline demo"  # no path on screen
    assert composer.current_model() == demo  # what is sent is unchanged
    chosen: list[str] = []
    composer.model_chosen.connect(chosen.append)
    composer.model.activated.emit(composer.model.currentIndex())
    assert chosen == [demo]
    composer.show_model("anthropic:claude-sonnet-4-6")
    assert composer.current_model() == "anthropic:claude-sonnet-4-6"
    assert composer.model.currentText() == "claude-sonnet-4-6 · Anthropic"  # words, not an id
    composer.show_model("custom:stub-1")
    assert (composer.model.currentText(), composer.current_model()) == (
        "stub-1 · Custom server", "custom:stub-1")
    composer.show_model("gpt-4.1")  # OpenAI's bare names are already words
    assert composer.model.currentText() == composer.current_model() == "gpt-4.1"

