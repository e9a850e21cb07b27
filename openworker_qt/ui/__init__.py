"""Widgets and windows."""
