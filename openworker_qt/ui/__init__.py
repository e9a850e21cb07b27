"""Widgets of the desktop app (main window, approvals, inbox, tray, quick ask, settings)."""
