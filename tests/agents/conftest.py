"""The desktop app fixture of the UI tests, for the persona picker and consent tests."""

from tests.ui.conftest import make_desktop  # noqa: F401
