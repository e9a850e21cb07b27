"""The connectors as Settings ▸ Connectors and the catalogue see them (no widgets here).

:class:`ConnectorSetup` stands between those pages and the runtime's connector
registry: the connectors' descriptors and states, connecting with what the form
holds (keeping the secrets already in the keyring when their fields are left empty),
the browser sign-in (OAuth with PKCE) that gives a refresh token, Test and
Disconnect. What a connector reads and does in plain words (the catalogue's cards
and its search) comes from the connectors' summary; the words on screen are
``qt/connector_words.py``'s.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

from openworker_qt.connectors.base import ConnectorError, ConnectorSpec, is_on
from openworker_qt.connectors.oauth import OAuth, sign_in
from openworker_qt.connectors.registry import OVERRIDES, ConnectorRegistry, ConnectorState
from openworker_qt.connectors.summary import does, haystack, reads

__all__ = [
    "ConnectorError",
    "ConnectorSetup",
    "Registry",
    "Spec",
    "State",
    "does",
    "haystack",
    "is_on",
    "oauth_service",
    "reads",
]

Registry = ConnectorRegistry
Spec = ConnectorSpec
State = ConnectorState


def oauth_service(spec: ConnectorSpec) -> str | None:
    """The service a connector signs in to through the browser ("Google"), if it does."""
    flow = spec.extra.get("oauth")
    return flow.service if isinstance(flow, OAuth) else None


class ConnectorSetup:
    """See module docstring. Raises :class:`ConnectorError` where the service or the
    keyring refuses (nothing stored changes then)."""

    def __init__(self, registry: ConnectorRegistry) -> None:
        self.registry = registry

    @property
    def specs(self) -> Mapping[str, ConnectorSpec]:
        return self.registry.specs

    def states(self) -> list[ConnectorState]:
        return self.registry.states()

    def state(self, connector: str) -> ConnectorState:
        return self.registry.state(connector)

    async def _stored(self, connector: str) -> dict[str, str]:
        """What the keyring and the settings hold for a connector set up before."""
        if self.registry.state(connector).status == "not connected":
            return {}
        return await asyncio.to_thread(self.registry.values, connector)

    async def connect(self, spec: ConnectorSpec, typed: Mapping[str, str]) -> str:
        """Check ``typed`` with the service and store it; "Connected as …" on success.
        A secret field left empty keeps the stored secret, and so do the overrides
        (another server's address) the form does not show."""
        values = dict(typed)
        if any(not values.get(k) for k in spec.secret_keys):
            stored = await self._stored(spec.id)
            for key in spec.secret_keys:
                if not values.get(key) and stored.get(key):
                    values[key] = stored[key]
            for key in OVERRIDES:
                if key in stored and key not in values:
                    values[key] = stored[key]
        identity = await self.registry.connect(spec.id, values)
        return identity.text()

    async def sign_in(self, spec: ConnectorSpec, typed: Mapping[str, str],
                      open_url: Callable[[str], object]) -> str:
        """Sign in through the browser (``open_url`` opens the service's page) with the
        typed client id and secret (or the stored ones); the refresh token it gives."""
        flow = spec.extra.get("oauth")
        if not isinstance(flow, OAuth):  # (the page offers Sign in only where there is one)
            raise ValueError(f"{spec.id} has no sign-in in the browser")
        stored = await self._stored(spec.id)
        tokens = await sign_in(
            flow, typed.get("client_id") or stored.get("client_id", ""), open_url,
            client_secret=typed.get("client_secret") or stored.get("client_secret", ""),
            token_url=stored.get("token_url", ""))
        return str(tokens["refresh_token"])

    async def test(self, connector: str) -> ConnectorState:
        """Check the stored credentials with the service again."""
        return await self.registry.test(connector)

    async def disconnect(self, connector: str) -> None:
        """Forget the connector's credentials."""
        await self.registry.disconnect(connector)
