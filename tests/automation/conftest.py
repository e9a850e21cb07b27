"""The desktop app fixture of the UI tests, for the automation window's wiring test."""

from tests.ui.conftest import make_desktop  # noqa: F401  (a fixture)
