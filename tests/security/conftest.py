"""Shares the provider stub server fixture."""

from tests.providers.conftest import stub  # noqa: F401
