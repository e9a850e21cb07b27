"""Spreadsheet formulas worked out for previews: plain arithmetic over numbers and cells.

The XLSX file keeps its formulas (a spreadsheet application computes them itself); the
deliverables panel shows their values. A formula this small evaluator does not work out
is shown as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

#: A single cell reference such as ``B2`` or ``$C$10`` (column letters, row number).
CELL_REF = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+)$")


class _Unknown(Exception):
    """A formula this small evaluator does not work out (shown as written)."""


def _fail() -> Any:
    raise _Unknown


def _average(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else float(_fail())


_FUNCS: dict[str, Callable[[list[float]], float]] = {
    "SUM": sum,
    "AVERAGE": _average,
    "MIN": lambda xs: min(xs) if xs else 0.0,
    "MAX": lambda xs: max(xs) if xs else 0.0,
    "COUNT": lambda xs: float(len(xs)),
}


def formula_values(rows: list[list[Any]]) -> list[list[Any]]:
    """``rows`` (row 1 first, as a sheet holds them) with each formula replaced by its
    value where it is plain arithmetic over numbers and cells (``+ - * / ^``, ``%``,
    parentheses, ``SUM``/``AVERAGE``/``MIN``/``MAX``/``COUNT``/``ROUND``/``ABS`` over
    cells and ranges); any other formula is left as written. For previews: the file
    keeps its formulas, a spreadsheet application computes them itself."""
    sheet = _Sheet(rows)
    return [[_shown(sheet, r, c, value) for c, value in enumerate(row)]
            for r, row in enumerate(rows)]


def _shown(sheet: _Sheet, r: int, c: int, value: Any) -> Any:
    try:
        return sheet.cell(r, c)
    except (_Unknown, ArithmeticError, ValueError, RecursionError):
        return value


def _is_formula(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("=") and len(value) > 1


def _number(value: Any) -> float:
    if value is None or value == "":
        return 0.0
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Unknown
    return float(value)


def _arith(op: str, a: float, b: float) -> Any:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a / b if b else _fail()
    return a ** b


def _call(name: str, args: list[list[float]]) -> float:
    if name in _FUNCS:
        return float(_FUNCS[name]([x for a in args for x in a]))
    if name == "ABS" and len(args) == 1 and len(args[0]) == 1:
        return abs(args[0][0])
    if name == "ROUND" and len(args) in (1, 2) and all(len(a) == 1 for a in args):
        return round(args[0][0], int(args[1][0]) if len(args) == 2 else 0)
    raise _Unknown


class _Sheet:
    """The cells of one sheet, each formula worked out once (a circular one is unknown)."""

    def __init__(self, rows: list[list[Any]]) -> None:
        from openpyxl.formula import Tokenizer
        from openpyxl.utils import column_index_from_string

        self._rows = rows
        self._tokenizer = Tokenizer
        self._column = column_index_from_string
        self._done: dict[tuple[int, int], Any] = {}
        self._busy: set[tuple[int, int]] = set()

    def cell(self, r: int, c: int) -> Any:
        if not (0 <= r < len(self._rows) and 0 <= c < len(self._rows[r])):
            return None
        if (r, c) in self._done:
            return self._done[(r, c)]
        value = self._rows[r][c]
        if _is_formula(value):
            value = self._work_out(r, c, value)
        self._done[(r, c)] = value
        return value

    def _work_out(self, r: int, c: int, formula: str) -> Any:
        if (r, c) in self._busy:
            raise _Unknown  # a circular reference
        self._busy.add((r, c))
        try:
            value = _Parser(self, self._tokenizer(formula).items).formula()
        finally:
            self._busy.discard((r, c))
        return 0.0 if value is None else value  # a formula naming an empty cell shows 0

    def ref(self, text: str) -> tuple[int, int]:
        m = CELL_REF.match(text.replace("$", ""))
        if m is None:
            raise _Unknown
        return int(m.group(2)) - 1, self._column(m.group(1).upper()) - 1

    def values(self, text: str) -> list[float]:
        """The numbers in a range such as ``B2:C4`` (text and empty cells left out)."""
        if "!" in text:
            raise _Unknown  # another sheet
        first, _, last = text.partition(":")
        (r1, c1), (r2, c2) = self.ref(first), self.ref(last or first)
        out = [self.cell(r, c) for r in range(min(r1, r2), max(r1, r2) + 1)
               for c in range(min(c1, c2), max(c1, c2) + 1)]
        return [float(v) for v in out if isinstance(v, int | float) and not isinstance(v, bool)]


class _Parser:
    """One formula's tokens, read by recursive descent (``+ -`` below ``* /`` below ``^``)."""

    def __init__(self, sheet: _Sheet, items: list[Any]) -> None:
        self._sheet = sheet
        self._tokens = [t for t in items if t.type != "WHITE-SPACE"]
        self._pos = 0

    def formula(self) -> Any:
        value = self._add()
        if self._pos != len(self._tokens):
            raise _Unknown
        return value

    def _peek(self) -> Any:
        return self._tokens[self._pos] if self._pos < len(self._tokens) else None

    def _take(self) -> Any:
        self._pos += 1
        return self._tokens[self._pos - 1]

    def _next(self) -> Any:
        return self._take() if self._peek() is not None else _fail()

    def _infix(self, ops: str, lower: Callable[[], Any]) -> Any:
        left = lower()
        while (t := self._peek()) is not None and t.type == "OPERATOR-INFIX" and t.value in ops:
            self._take()
            right = lower()
            left = _arith(t.value, _number(left), _number(right))
        return left

    def _add(self) -> Any:
        return self._infix("+-", self._mul)

    def _mul(self) -> Any:
        return self._infix("*/", self._power)

    def _power(self) -> Any:
        return self._infix("^", self._unary)

    def _unary(self) -> Any:
        t = self._peek()
        if t is not None and t.type == "OPERATOR-PREFIX":
            self._take()
            value = _number(self._unary())
            return -value if t.value == "-" else value
        value = self._primary()
        while (t := self._peek()) is not None and t.type == "OPERATOR-POSTFIX" and t.value == "%":
            self._take()
            value = _number(value) / 100
        return value

    def _primary(self) -> Any:
        t = self._next()
        if t.type == "OPERAND" and t.subtype == "NUMBER":
            return float(t.value)
        if t.type == "OPERAND" and t.subtype == "RANGE" and ":" not in t.value:
            return self._sheet.cell(*self._sheet.ref(t.value)) if "!" not in t.value else _fail()
        if t.type == "PAREN" and t.subtype == "OPEN":
            value = self._add()
            end = self._next()
            return value if end.type == "PAREN" and end.subtype == "CLOSE" else _fail()
        if t.type == "FUNC" and t.subtype == "OPEN":
            return _call(t.value[:-1].upper(), self._arguments())
        raise _Unknown

    def _arguments(self) -> list[list[float]]:
        args: list[list[float]] = []
        while True:
            nxt = self._peek()
            if nxt is None:
                raise _Unknown
            if nxt.type == "FUNC" and nxt.subtype == "CLOSE":
                self._take()
                return args
            if nxt.type == "SEP" and nxt.subtype == "ARG":
                self._take()
            elif nxt.type == "OPERAND" and nxt.subtype == "RANGE" and ":" in nxt.value:
                self._take()
                args.append(self._sheet.values(nxt.value))
            else:
                args.append([_number(self._add())])


def circular_cells(rows: list[list[Any]]) -> list[str]:
    """The cells (``A1`` style, row 1 first as in ``rows``) whose formulas refer back to
    themselves, directly or through other cells (a circular reference), in sheet order."""
    from openpyxl.formula import Tokenizer
    from openpyxl.utils import column_index_from_string, get_column_letter

    def refs(formula: str) -> set[tuple[int, int]]:
        out: set[tuple[int, int]] = set()
        try:
            tokens = Tokenizer(formula).items
        except Exception:  # an unparsable formula is reported elsewhere
            return out
        for tok in tokens:
            if tok.type != "OPERAND" or tok.subtype != "RANGE" or "!" in tok.value:
                continue
            first, _, last = tok.value.replace("$", "").partition(":")
            a, b = CELL_REF.match(first), CELL_REF.match(last or first)
            if a is None or b is None:
                continue
            r1, r2 = sorted((int(a.group(2)) - 1, int(b.group(2)) - 1))
            c1, c2 = sorted((column_index_from_string(a.group(1).upper()) - 1,
                             column_index_from_string(b.group(1).upper()) - 1))
            for r in range(r1, min(r2, len(rows) - 1) + 1):
                for c in range(c1, min(c2, len(rows[r]) - 1) + 1):
                    if _is_formula(rows[r][c]):
                        out.add((r, c))
        return out

    graph = {(r, c): refs(v) for r, row in enumerate(rows) for c, v in enumerate(row)
             if _is_formula(v)}
    # A cell is circular when it can reach itself: Tarjan's strongly connected parts.
    index: dict[tuple[int, int], int] = {}
    low: dict[tuple[int, int], int] = {}
    stack: list[tuple[int, int]] = []
    on_stack: set[tuple[int, int]] = set()
    circular: set[tuple[int, int]] = set()
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    part.append(top)
                    if top == node:
                        break
                if len(part) > 1 or node in graph.get(node, ()):
                    circular.update(part)
    return [f"{get_column_letter(c + 1)}{r + 1}" for r, c in sorted(circular)]
