"""Which sed scripts may run without asking: a deliberately small parser.

GNU sed scripts can run programs (``e``, ``s///e``) and write files (``w``,
``W``, ``s///w``), and read any file (``r``, ``R``). Rather than follow every
corner of GNU sed's grammar, :func:`sed_script_problem` accepts only scripts it
can read completely as a list of plain commands, and says why for everything
else (the command then asks):

* addresses: a line number, ``$``, ``first~step``, ``0``, a regex ``/re/`` or
  ``\\cREc`` with the flags ``I`` ``M``; a range ``a1,a2`` (``a2`` may also be
  ``+N`` or ``~N``); then an optional ``!``;
* commands: ``p P d D n N g G h H x z = F l q Q`` (``l q Q`` with an optional
  number), ``s`` with any punctuation delimiter and only the flags ``g p i I m
  M`` and a number, ``y``, ``{ … }`` blocks, separated by ``;`` or newlines,
  ``#`` comments;
* everything else asks: ``e w W r R a i c b t T : v L``, the ``e`` and ``w``
  flags (GNU sed skips blanks between flags: ``s/a/b/ w f`` writes ``f``), a
  backslash before a newline, ``\\c`` in a regex.

A regex is split at its delimiter the way GNU sed splits it: a bracket
expression (``[/]``, ``[]/]``, ``[^/]``, ``[[:alpha:]/]``) does not end at a
``/`` inside it. To leave no room between this reading and sed's, a bracket
expression that holds the delimiter, a backslash, a newline or a ``[`` other
than a ``[:class:]`` asks, so a regex splits the same way whether or not
brackets are taken into account.
"""

from __future__ import annotations

import string

_PLAIN = frozenset("pPdDnNgGhHxz=F")
_NUMBERED = frozenset("lqQ")
_S_FLAGS = frozenset("gpiImM")
_DELIMITERS = frozenset(string.punctuation) - frozenset("\\[]")
_BLANK = " \t"
_CLASSES = frozenset({
    "alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print",
    "graph", "cntrl", "xdigit",
})


class _Refused(ValueError):
    pass


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def take(self) -> str:
        c = self.peek()
        self.i += 1 if c else 0
        return c

    def blanks(self) -> None:
        while self.peek() and self.peek() in _BLANK:
            self.i += 1

    def digits(self) -> str:
        start = self.i
        while self.peek().isdigit():
            self.i += 1
        return self.text[start : self.i]


def _bracket(r: _Reader, delim: str) -> None:
    """Read a bracket expression (the ``[`` already taken)."""
    if r.peek() == "^":
        r.take()
    if r.peek() == "]":
        r.take()
    while True:
        c = r.take()
        if not c or c in ("\n", "\\", delim):
            raise _Refused(
                "a bracket expression in the sed script holds its delimiter, a backslash "
                "or a line break"
            )
        if c == "]":
            return
        if c == "[":
            if r.peek() != ":":
                raise _Refused("the sed script has a bracket expression this check does not read")
            r.take()
            end = r.text.find(":]", r.i)
            if end < 0 or r.text[r.i : end] not in _CLASSES:
                raise _Refused("the sed script has a bracket expression this check does not read")
            r.i = end + 2


def _part(r: _Reader, delim: str, *, regex: bool) -> None:
    """Read up to and including the closing ``delim``."""
    while True:
        c = r.take()
        if not c or c == "\n":
            raise _Refused("the sed script has an unterminated expression")
        if c == delim:
            return
        if c == "\\":
            nxt = r.take()
            if not nxt or nxt == "\n":
                raise _Refused("the sed script has a backslash before a line break")
            if regex and nxt == "c":
                raise _Refused("the sed script uses \\c in a regular expression")
            continue
        if regex and c == "[":
            _bracket(r, delim)


def _delimiter(r: _Reader) -> str:
    c = r.take()
    if c not in _DELIMITERS:
        raise _Refused(f"the sed script uses {c!r} as a delimiter, which this check does not read")
    return c


def _address(r: _Reader) -> bool:
    """Read one address if there is one."""
    c = r.peek()
    if c.isdigit():
        r.digits()
        if r.peek() == "~":
            r.take()
            if not r.digits():
                raise _Refused("the sed script has an address this check does not read")
        return True
    if c == "$":
        r.take()
        return True
    if c in ("/", "\\"):
        r.take()
        delim = "/" if c == "/" else _delimiter(r)
        _part(r, delim, regex=True)
        while r.peek() in ("I", "M") and r.peek():
            r.take()
        return True
    return False


def _end_of_command(r: _Reader) -> None:
    r.blanks()
    c = r.peek()
    if c in ("", "}", "#"):
        return
    if c in (";", "\n"):
        r.take()
        return
    raise _Refused(f"the sed script has {c!r} where a command should end")


def _parse(script: str) -> None:
    r = _Reader(script)
    depth = 0
    while True:
        while r.peek() and r.peek() in _BLANK + ";\n":
            r.take()
        c = r.peek()
        if not c:
            break
        if c == "#":
            end = script.find("\n", r.i)
            r.i = len(script) if end < 0 else end + 1
            continue
        if c == "}":
            r.take()
            depth -= 1
            if depth < 0:
                raise _Refused("the sed script has an unmatched '}'")
            _end_of_command(r)
            continue
        if _address(r):
            r.blanks()
            if r.peek() == ",":
                r.take()
                r.blanks()
                if r.peek() in ("+", "~"):
                    r.take()
                    if not r.digits():
                        raise _Refused("the sed script has an address this check does not read")
                elif not _address(r):
                    raise _Refused("the sed script has an address this check does not read")
            r.blanks()
            if r.peek() == "!":
                r.take()
                r.blanks()
        cmd = r.take()
        if cmd == "{":
            depth += 1
            continue
        if cmd in _PLAIN:
            _end_of_command(r)
        elif cmd in _NUMBERED:
            r.blanks()
            r.digits()
            _end_of_command(r)
        elif cmd == "s":
            delim = _delimiter(r)
            _part(r, delim, regex=True)
            _part(r, delim, regex=False)
            while r.peek() and (r.peek() in _S_FLAGS or r.peek().isdigit()):
                r.take()
            _end_of_command(r)
        elif cmd == "y":
            delim = _delimiter(r)
            _part(r, delim, regex=False)
            _part(r, delim, regex=False)
            _end_of_command(r)
        elif not cmd:
            raise _Refused("the sed script ends with an address and no command")
        else:
            raise _Refused(
                f"the sed script uses the command {cmd!r}, which this check does not allow "
                "(sed commands can run programs, write and read files)"
            )
    if depth:
        raise _Refused("the sed script has an unmatched '{'")


def sed_script_problem(script: str) -> str | None:
    """Why ``script`` (the ``-e`` parts joined by newlines) must ask, or ``None``."""
    try:
        _parse(script)
    except _Refused as exc:
        return str(exc)
    return None
