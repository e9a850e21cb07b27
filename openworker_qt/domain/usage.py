"""Token usage in one shape for every provider.

Providers report usage in their own words and with their own arithmetic
(Anthropic's ``input_tokens`` leaves out the tokens read from or written to its
prompt cache, OpenAI's ``prompt_tokens`` includes the cached ones, Gemini counts
thinking apart from the answer). Each provider adapter converts what it receives
into this one shape, so a turn's and a session's totals add up the same way
whatever answered:

``input_tokens``
    every token of the prompt, cached or not;
``cache_read_tokens``
    the part of ``input_tokens`` read from the provider's prompt cache (billed at a
    fraction of the input price);
``cache_write_tokens``
    the part of ``input_tokens`` written to the cache (Anthropic bills a premium);
``output_tokens``
    every token the model produced, its thinking included;
``reasoning_tokens``
    the part of ``output_tokens`` spent thinking;
``estimated_tokens``
    the part of ``input_tokens + output_tokens`` that is an estimate, not a count
    the server gave (a local server that reports no usage: :func:`estimate_tokens`);
    shown with a "~" and the word "estimated".

Pure data and arithmetic: no I/O, nothing else of the package.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields

#: The roles of the stored messages that carry a ``usage``: a model's reply, a
#: compaction's notice, and a sub-agent's tool result (the explorer's tokens).
USAGE_ROLES: tuple[str, ...] = ("assistant", "notice", "tool")

KEYS: tuple[str, ...] = (
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
    "estimated_tokens",
)

#: Characters per token of :func:`estimate_tokens` (OpenAI's rule of thumb for
#: English text; code and JSON run a little denser, other scripts sparser).
CHARS_PER_TOKEN = 4


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts (see the module docstring for what each one includes)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    estimated_tokens: int = 0

    @classmethod
    def of(cls, raw: Mapping[str, object] | None) -> Usage:
        """From a usage mapping (a ``FinishChunk``'s, a stored message's); unknown keys
        and values that are not whole numbers are ignored."""
        if not raw:
            return cls()
        values: dict[str, int] = {}
        for key in KEYS:
            value = raw.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                values[key] = value
        return cls(**values)

    @classmethod
    def total(cls, items: Iterable[Usage]) -> Usage:
        out = cls()
        for item in items:
            out = out + item
        return out

    def __add__(self, other: Usage) -> Usage:
        return Usage(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))

    @property
    def uncached_input(self) -> int:
        """Input tokens billed at the full input price."""
        return max(self.input_tokens - self.cache_read_tokens - self.cache_write_tokens, 0)

    @property
    def estimated(self) -> bool:
        """Every figure is an estimate (see ``estimated_tokens``)."""
        return bool(self.estimated_tokens) and (
            self.estimated_tokens >= self.input_tokens + self.output_tokens)

    def as_dict(self) -> dict[str, int]:
        """The non-zero counts (what is stored on a message)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}


@dataclass(frozen=True, slots=True)
class ModelUsage:
    """What one model used in a session (``calls``: how many of its calls are summed)."""

    model: str
    usage: Usage
    calls: int


def estimate_tokens(text: str) -> int:
    """A token count for ``text`` when the server gives none: one token per
    :data:`CHARS_PER_TOKEN` characters, rounded up (no tokenizer: the model's own is
    not known here). Recorded with ``estimated_tokens`` so it is shown as an estimate."""
    return -(-len(text) // CHARS_PER_TOKEN)


def estimated_usage(prompt: str, answer: str) -> dict[str, int]:
    """Usage in our shape estimated from the prompt's and the answer's text."""
    tokens_in, tokens_out = estimate_tokens(prompt), estimate_tokens(answer)
    return {"input_tokens": tokens_in, "output_tokens": tokens_out,
            "estimated_tokens": tokens_in + tokens_out}


def compact_count(n: int) -> str:
    """``1234`` → ``1.2k``, ``2_500_000`` → ``2.5M`` (for a status line)."""
    if n < 1_000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1_000:.1f}k".replace(".0k", "k")
    return f"{n / 1_000_000:.1f}M".replace(".0M", "M")
