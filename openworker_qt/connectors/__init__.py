"""Connectors to the user's apps (Slack, GitHub, …). No Qt here."""
