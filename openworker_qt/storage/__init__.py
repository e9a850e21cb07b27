"""Durable state: platform paths, the SQLite database, config, secrets. No Qt here."""
