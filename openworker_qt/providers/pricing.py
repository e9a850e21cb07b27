"""An approximate cost for the tokens a session used.

Prices are US dollars per million tokens, by ``provider:model`` pattern. The
defaults ship in ``prices.toml`` beside this module; the user's settings file may
replace any entry or add new ones under ``[prices]`` (same shape). The cost is an
estimate from list prices: it is shown as such, never as a bill.

Usage comes in the shape of :mod:`openworker_qt.domain.usage`: the input tokens
read from or written to a prompt cache are priced at the cache prices (the input
price when a model lists none), the rest of the input at the input price, all of
the output (thinking included) at the output price.
"""

from __future__ import annotations

import functools
import logging
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from openworker_qt.domain.usage import USAGE_ROLES, Usage, compact_count

log = logging.getLogger(__name__)

DEFAULTS_FILE = Path(__file__).with_name("prices.toml")
_FIELDS = ("input", "output", "cache_read", "cache_write")


@dataclass(frozen=True, slots=True)
class Price:
    """Dollars per million tokens."""

    input: float
    output: float
    cache_read: float | None = None
    cache_write: float | None = None

    def cost(self, usage: Usage) -> float:
        read = self.input if self.cache_read is None else self.cache_read
        write = self.input if self.cache_write is None else self.cache_write
        return (
            usage.uncached_input * self.input
            + usage.cache_read_tokens * read
            + usage.cache_write_tokens * write
            + usage.output_tokens * self.output
        ) / 1_000_000


def parse_prices(table: Mapping[str, Any], where: str) -> tuple[dict[str, Price], list[str]]:
    """Entries of a ``[prices]`` table, and a warning for each one that cannot be used
    (it is left out; the others still count)."""
    prices: dict[str, Price] = {}
    warnings: list[str] = []
    for pattern, entry in table.items():
        if not isinstance(entry, Mapping):
            warnings.append(f"{where}: price '{pattern}' must be a table with input and output")
            continue
        unknown = sorted(set(entry) - set(_FIELDS))
        values: dict[str, float] = {}
        bad = [
            k for k in _FIELDS if k in entry
            and (isinstance(entry[k], bool) or not isinstance(entry[k], int | float) or entry[k] < 0)
        ]
        if bad or unknown or "input" not in entry or "output" not in entry:
            what = (f"unknown field(s) {', '.join(unknown)}" if unknown else
                    f"'{bad[0]}' must be a number of dollars, 0 or more" if bad else
                    "it needs both 'input' and 'output'")
            warnings.append(f"{where}: price '{pattern}' was left out: {what}")
            continue
        values = {k: float(entry[k]) for k in _FIELDS if k in entry}
        prices[str(pattern).lower()] = Price(**values)
    return prices, warnings


@functools.cache
def default_prices() -> Mapping[str, Price]:
    """The shipped price list (read once)."""
    try:
        with DEFAULTS_FILE.open("rb") as fh:
            raw = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError):
        log.exception("the default price list %s cannot be read: costs are not shown",
                      DEFAULTS_FILE)
        return {}
    prices, warnings = parse_prices(raw, str(DEFAULTS_FILE))
    for warning in warnings:
        log.warning("%s", warning)
    return prices


def _candidates(model: str) -> list[str]:
    model = model.strip().lower()
    head, sep, _ = model.partition(":")
    out = [model]
    if not sep or any(c in head for c in "./") or head[:1].isdigit():
        out.append(f"openai:{model}")  # a bare name (or a version tag) is OpenAI's
    out += _cloud_candidates(head, model.partition(":")[2]) if sep else []
    return out


# --- cloud platforms: the vendor's list price for the model they serve --------
_OPENAI_ID = re.compile(r"^(gpt-|chatgpt-|o[1-9])")


def _cloud_candidates(head: str, rest: str) -> list[str]:
    """Vertex AI serves Gemini and Claude at Google's and Anthropic's list prices
    (``claude-…@20250929`` without its date); an Azure deployment named after an
    OpenAI model costs that model's price. Another deployment name has no known
    price unless ``[prices."azure:<deployment>"]`` gives one."""
    if head == "vertex":
        if rest.startswith("claude"):
            return [f"anthropic:{rest.split('@')[0]}"]
        return [f"gemini:{rest}"]
    if head == "azure" and _OPENAI_ID.match(rest):
        return [f"openai:{rest}"]
    return []
# --- end cloud platforms ---


def glob_match(name: str, pattern: str) -> bool:
    """``fnmatchcase(name, pattern)``, without compiling a regular expression for a
    pattern whose only wildcard is ``*`` (every shipped one): the first price lookup
    compiled all 53 patterns, ~18 ms on the loop thread at the end of a first turn."""
    if "?" in pattern or "[" in pattern:
        return fnmatchcase(name, pattern)
    parts = pattern.split("*")
    if len(parts) == 1:
        return name == pattern
    head, tail = parts[0], parts[-1]
    if len(name) < len(head) + len(tail) or not name.startswith(head) or not name.endswith(tail):
        return False
    at, end = len(head), len(name) - len(tail)
    for part in parts[1:-1]:
        found = name.find(part, at, end)
        if found < 0:
            return False
        at = found + len(part)
    return True


def _specificity(pattern: str) -> tuple[int, int]:
    wild = pattern.find("*")
    return (0 if wild < 0 else 1, -(len(pattern) if wild < 0 else wild))


class PriceTable:
    """The defaults with the user's entries over them; looks a model up once."""

    def __init__(self, user: Mapping[str, Price] | None = None,
                 defaults: Mapping[str, Price] | None = None) -> None:
        merged = dict(default_prices() if defaults is None else defaults)
        merged.update({k.lower(): v for k, v in (user or {}).items()})
        self._ordered = sorted(merged.items(), key=lambda kv: _specificity(kv[0]))
        self._found: dict[str, Price | None] = {}

    @classmethod
    def from_config(cls, table: Any, where: str = "settings") -> tuple[PriceTable, list[str]]:
        """The table for a config's ``[prices]`` (``None`` or ``{}``: the defaults)."""
        if table is None:
            return cls(), []
        if not isinstance(table, Mapping):
            return cls(), [f"{where}: [prices] must be a table; the default prices are used"]
        user, warnings = parse_prices(table, where)
        return cls(user), warnings

    def price(self, model: str) -> Price | None:
        if model in self._found:
            return self._found[model]
        found: Price | None = None
        for name in _candidates(model):
            found = next((p for pat, p in self._ordered if glob_match(name, pat)), None)
            if found is not None:
                break
        self._found[model] = found
        return found

    def cost(self, model: str, usage: Usage) -> float | None:
        """Dollars, or ``None`` when no price is known for ``model``."""
        price = self.price(model)
        return None if price is None else price.cost(usage)


def format_cost(dollars: float | None) -> str:
    """``$0.042``, ``$1.23``, ``< $0.001``; ``""`` when unknown."""
    if dollars is None:
        return ""
    if dollars == 0:
        return "$0"
    if dollars < 0.001:
        return "< $0.001"
    if dollars < 1:
        return f"${dollars:.3f}"
    return f"${dollars:,.2f}"


def describe(usage: Usage, cost: float | None = None) -> str:
    """``12.3k in (8k cached) · 540 out (120 thinking) · ≈ $0.042`` (for a status line);
    ``~1.2k in · 40 out (estimated)`` when the server reported no usage (an estimate,
    ``domain.usage.estimate_tokens``), ``… (300 estimated)`` when part of it is."""
    n = compact_count
    cached = usage.cache_read_tokens + usage.cache_write_tokens
    text = f"{n(usage.input_tokens)} in"
    if usage.cache_read_tokens:
        text += f" ({n(usage.cache_read_tokens)} cached)"
    elif cached:
        text += f" ({n(cached)} to cache)"
    text += f" · {n(usage.output_tokens)} out"
    if usage.reasoning_tokens:
        text += f" ({n(usage.reasoning_tokens)} thinking)"
    if usage.estimated:  # the server counted nothing: all of it is an estimate
        text = f"~{text} (estimated)"
    elif usage.estimated_tokens:
        text += f" ({n(usage.estimated_tokens)} estimated)"
    if cost is not None:
        text += f" · ≈ {format_cost(cost)}"
    return text


class UsageTally:
    """Usage and cost of a session's stored messages, read in order, per turn (a turn
    starts at each message the user typed) and in total. Costs are summed per
    model; a call whose model has no price leaves the cost unknown (``None``)."""

    def __init__(self, table: PriceTable | None = None) -> None:
        self.table = table or PriceTable()
        self.turn = Usage()
        self.turn_cost: float | None = 0.0
        self.session = Usage()
        self.session_cost: float | None = 0.0

    def starts_turn(self, msg: Mapping[str, Any]) -> bool:
        return msg.get("role") == "user" and msg.get("source", "user") != "steering"

    def add(self, msg: Mapping[str, Any]) -> str | None:
        """Count ``msg``; returns the finished turn's line when ``msg`` starts a new
        turn after one that used tokens."""
        line = None
        if self.starts_turn(msg) and self.turn:
            line = self.turn_line()
            self.turn, self.turn_cost = Usage(), 0.0
        raw = msg.get("usage")
        if msg.get("role") in USAGE_ROLES and isinstance(raw, Mapping):
            used = Usage.of(raw)
            cost = self.table.cost(str(msg.get("model") or ""), used)
            self.turn += used
            self.session += used
            self.turn_cost = None if cost is None or self.turn_cost is None else self.turn_cost + cost
            self.session_cost = (None if cost is None or self.session_cost is None
                                 else self.session_cost + cost)
        return line

    def turn_line(self) -> str:
        return "Tokens this turn: " + describe(self.turn, self.turn_cost)

    def finish(self) -> list[str]:
        """The last turn's line and the session's total (nothing if no usage)."""
        if not self.session:
            return []
        lines = [self.turn_line()] if self.turn else []
        lines.append("Session total: " + describe(self.session, self.session_cost))
        if self.session_cost is not None:
            lines[-1] += " (estimated from list prices)"
        return lines
