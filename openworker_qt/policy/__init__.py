"""The permission vocabulary: risk classes, the built-in risk table, the shell
allowlist's words. Pure data and parsers under both the settings (``storage``) and
the permission engine (``core``), so neither has to import the other. No Qt, no I/O.
"""
