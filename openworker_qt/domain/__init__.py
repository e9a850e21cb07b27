"""The domain's vocabulary, below every layer that speaks it.

The shapes of messages and tool calls (``messages``), the risk classes and the
built-in risk table (``risk``), the shell allowlist's words (``shell``). Pure types,
data and parsers: no I/O, no Qt, nothing else of the package, so the storage
(which keeps and validates them) and the core (which acts on them) both use them
without importing each other.
"""
