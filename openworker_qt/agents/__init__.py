"""Personas, the consent gate and skills. No Qt here."""
