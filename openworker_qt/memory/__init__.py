"""Explicit SQLite memory facts and their tools. No Qt here."""
