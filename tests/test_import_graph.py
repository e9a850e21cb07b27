"""The import graph: arrows only point down the layers, and nothing imports in a circle.

The layers and the exempt arrows are written once, in ``pyproject.toml``
(``[tool.importlinter]``); ``lint-imports`` checks them and so does this file,
so a plain ``pytest`` run fails where the linter does. The graph is grimp's (the
one import-linter builds): imports inside functions and under ``TYPE_CHECKING``
count like the ones at the top of a module.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "openworker_qt"
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]


def _contract(kind: str) -> Mapping[str, Any]:
    [contract] = [c for c in CONFIG["contracts"] if c["type"] == kind]
    return contract


def _layers() -> list[tuple[set[str], bool]]:
    """Each layer's top-level names (optional ones included) and whether they are independent."""
    out = []
    for raw in _contract("layers")["layers"]:
        names = {n.strip().strip("()") for n in re.split(r"[|:]", raw)}
        out.append((names, ":" not in raw))
    return out


#: The widgets' contract (ui/ reaches the core through runtime, qt/ and domain/ only).
WIDGETS = "Widgets reach storage, providers, connectors and MCP only through runtime and qt/"


def _ignored(contract: Mapping[str, Any]) -> set[tuple[str, str]]:
    out = set()
    for line in contract.get("ignore_imports", []):
        importer, imported = (s.strip() for s in line.split("->"))
        out.add((importer, imported))
    return out


def _exempt() -> set[tuple[str, str]]:
    """The arrows some contract exempts (none: see the test below)."""
    out = set()
    for contract in CONFIG["contracts"]:
        out |= _ignored(contract)
    return out


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(PACKAGE, cache_dir=None)


def _edges(graph: grimp.ImportGraph) -> Iterator[tuple[str, str]]:
    exempt = _exempt()
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if (importer, imported) not in exempt:
                yield importer, imported


def _top(module: str) -> str:
    """``openworker_qt.core.engine`` -> ``core``; the root package itself -> ``""``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_import_contracts_are_kept(capsys: pytest.CaptureFixture[str]) -> None:
    import importlinter.api  # noqa: F401  (registers the contract types)
    from importlinter.application import use_cases

    kept = use_cases.lint_imports(
        config_filename=str(ROOT / "pyproject.toml"), cache_dir=None, no_logo=True,
    )
    assert kept, capsys.readouterr().out


def test_no_module_is_part_of_an_import_cycle(graph: grimp.ImportGraph) -> None:
    edges: dict[str, set[str]] = {m: set() for m in graph.modules}
    for importer, imported in _edges(graph):
        edges[importer].add(imported)
    # Tarjan's strongly connected components, iteratively (no recursion limit).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    assert not cycles, "modules that import each other (directly or around a circle):\n" + "\n".join(
        " <-> ".join(c) for c in cycles)


def test_every_arrow_between_packages_points_down_the_layers(graph: grimp.ImportGraph) -> None:
    layers = _layers()
    rank = {name: i for i, (names, _) in enumerate(layers) for name in names}
    independent = {name: free for names, free in layers for name in names}
    unplaced = sorted({_top(m) for m in graph.modules} - set(rank) - {""})
    assert unplaced == [], "top-level modules missing from the layers in pyproject.toml"
    upward = []
    for importer, imported in _edges(graph):
        a, b = _top(importer), _top(imported)
        if a == b or b == "":  # within a package; the root only holds __version__
            continue
        if rank[a] > rank[b] or (rank[a] == rank[b] and independent[a]):
            upward.append(f"{importer} -> {imported}")
    assert not upward, "arrows that run up a layer (or across independent siblings):\n" + "\n".join(
        upward)


def test_no_arrow_is_exempted() -> None:
    """The contracts hold with no exemption (the windows no longer name DesktopApp,
    nor the stores and clients beneath the runtime), so an ``ignore_imports`` entry
    would only hide a new arrow."""
    assert _exempt() == set()


def test_the_widgets_reach_the_core_only_through_runtime_qt_and_domain(
    graph: grimp.ImportGraph,
) -> None:
    """ui/ reaches storage, providers, connectors and MCP through the runtime's
    services, the qt/ adapters and domain/ types: not one widget module imports
    them (a lazy import inside a function or one under ``TYPE_CHECKING`` counts),
    and the contract exempts none."""
    [contract] = [c for c in CONFIG["contracts"] if c["name"] == WIDGETS]
    forbidden = tuple(f"{m}." for m in contract["forbidden_modules"])
    assert set(contract["forbidden_modules"]) == {
        f"{PACKAGE}.{name}" for name in ("storage", "providers", "connectors", "mcp")}
    arrows = sorted(
        f"{importer} -> {imported}"
        for importer in graph.modules if importer.startswith("openworker_qt.ui.")
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported.startswith(forbidden) or imported in contract["forbidden_modules"]
    )
    assert arrows == [], "arrows from ui/ into the core: go through a qt/ adapter"
    assert "ignore_imports" not in contract


def test_the_core_owns_the_provider_and_tool_protocols(graph: grimp.ImportGraph) -> None:
    """``providers/base.py`` and ``tools/base.py`` only re-export the core's protocols
    for code outside the package; the package imports them from the core."""
    from openworker_qt.core import provider_api, tool_api
    from openworker_qt.providers import base as provider_base
    from openworker_qt.tools import base as tool_base

    for shim, home in ((provider_base, provider_api), (tool_base, tool_api)):
        assert all(getattr(shim, name) is getattr(home, name) for name in shim.__all__)
        assert graph.find_modules_that_directly_import(shim.__name__) == set()
    below = {_top(m) for m in graph.find_upstream_modules("openworker_qt.core", as_package=True)}
    assert below <= {"storage", "domain"}, "the core depends only on what lies below it"
