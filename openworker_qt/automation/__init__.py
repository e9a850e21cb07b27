"""Scheduler, self-wake and keep-awake. No Qt here."""
