"""Which connectors exist, which the user connected, and their tools.

:class:`ConnectorRegistry` holds every :class:`~.base.ConnectorSpec` (the
catalogue, :func:`catalogue`) and the user's state of each, in the shared
database (table ``connectors``: the non-secret settings, ``connected`` or
``failed``, the identity the service confirmed, the last error). Secret fields
live in the keyring only, one entry per field (``connector.<id>.<field>``), so
they are redacted wherever they would appear.

* :meth:`ConnectorRegistry.connect` validates the values *before* storing
  anything: a wrong token is reported and the previous, working credentials stay.
* :meth:`ConnectorRegistry.test` validates the stored ones again and records
  the outcome; a tool call the service refuses as unauthorised marks the
  connector ``failed`` too, so the settings page and ``connectors list`` say
  "reconnect".
* :meth:`ConnectorRegistry.tools` gives the tools of the connected connectors
  only (the runtime adds them to every session's registry). Keyring reads
  happen in a worker when a tool runs, never on the loop thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from openworker_qt.connectors.base import (
    NO,
    YES,
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Identity,
    RetryPolicy,
    ToolDef,
    Words,
)
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.storage import secrets
from openworker_qt.storage.db import Database

log = logging.getLogger(__name__)

Status = Literal["connected", "failed", "not connected"]

MIGRATIONS = [
    """
    CREATE TABLE connectors (
        id TEXT PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL,
        identity TEXT NOT NULL DEFAULT '',
        error TEXT NOT NULL DEFAULT '',
        checked_at REAL NOT NULL
    )
    """,
    # The last error as its template and values, translated on screen (JSON; '' before).
    "ALTER TABLE connectors ADD COLUMN said TEXT NOT NULL DEFAULT '';",
]


STORED = "_stored_secrets"
#: Settings beside a connector's fields: another endpoint (self-hosted, enterprise).
OVERRIDES = frozenset({"api_url", "token_url"})


def secret_name(connector: str, key: str) -> str:
    return f"connector.{connector}.{key}"


@dataclass(frozen=True, slots=True)
class ConnectorState:
    spec: ConnectorSpec
    status: Status
    identity: str = ""
    error: str = ""
    settings: Mapping[str, str] | None = None
    checked_at: float | None = None
    #: The last error's English template and the values of its placeholders (the
    #: settings page shows it translated); empty for an error stored before.
    error_template: str = ""
    error_values: Mapping[str, str | list[str]] | None = None

    @property
    def connected(self) -> bool:
        return self.status == "connected"

    def stored(self, key: str) -> bool:
        """Whether the secret field ``key`` has a value in the keyring."""
        return key in str((self.settings or {}).get(STORED, "")).split(",")

    def summary(self) -> str:
        if self.status == "connected":
            return self.identity or "Connected"
        if self.status == "failed":
            return f"Needs attention: {self.error}" if self.error else "Needs attention"
        return "Not connected"


def catalogue() -> list[ConnectorSpec]:
    """Every connector this build offers, in the order the settings page lists them
    (light imports: SDKs load when used). A service's connector is the ``SPEC`` of its
    module in :mod:`openworker_qt.connectors.services`."""
    from openworker_qt.connectors import browser, mail, slack
    from openworker_qt.connectors.services import (
        airtable,
        amplitude,
        asana,
        attio,
        bitbucket,
        box,
        clickup,
        close,
        confluence,
        datadog,
        discord,
        docusign,
        dropbox,
        figma,
        github,
        gitlab,
        gmail,
        google_calendar,
        google_drive,
        hubspot,
        intercom,
        jira,
        linear,
        mixpanel,
        monday,
        notion,
        onedrive,
        outlook,
        pagerduty,
        posthog,
        quickbooks,
        salesforce,
        sentry,
        stripe,
        teams,
        telegram,
        todoist,
        trello,
        vercel,
        whatsapp,
        zendesk,
        zoom,
    )

    before_mail = [github, gitlab, google_calendar, gmail, outlook, jira, confluence, linear,
                   notion]
    after_mail = [asana, monday, hubspot, pagerduty, datadog, zendesk, discord, telegram,
                  clickup, trello, airtable, todoist, google_drive, dropbox, box, onedrive,
                  salesforce, intercom, attio, close, sentry, bitbucket, vercel, posthog,
                  mixpanel, amplitude, stripe, quickbooks, teams, whatsapp, zoom, docusign, figma]
    return [slack.SPEC, *(m.SPEC for m in before_mail), *mail.SPECS,
            *(m.SPEC for m in after_mail), *browser.SPECS]


@contextlib.asynccontextmanager
async def opened(client: Any) -> AsyncIterator[Any]:
    """``client`` entered when it is an async context manager, else as it is."""
    if hasattr(client, "__aenter__"):
        async with client as entered:
            yield entered
    else:
        yield client


class ConnectorRegistry:
    def __init__(
        self,
        db: Database,
        *,
        specs: list[ConnectorSpec] | None = None,
        policy: RetryPolicy | None = None,
        get_secret: Callable[[str], str | None] = secrets.get_secret,
    ) -> None:
        self.db = db
        db.ensure("connectors", MIGRATIONS)
        self.specs = {s.id: s for s in (specs if specs is not None else catalogue())}
        self.policy = policy or RetryPolicy()
        self.get_secret = get_secret
        #: Called with a connector's id after it was connected, tested or disconnected
        #: here (on the loop thread): the Slack listener starts and stops by it.
        self.listeners: list[Callable[[str], None]] = []

    # ------------------------------------------------------------------ state

    def spec(self, connector: str) -> ConnectorSpec:
        spec = self.specs.get(connector.lower())
        if spec is None:
            known = ", ".join(sorted(self.specs))
            raise ConnectorError("config", "No connector named {name}. Known: {known}.",
                                 name=repr(connector), known=known)
        return spec

    def state(self, connector: str) -> ConnectorState:
        spec = self.spec(connector)
        rows = self.db.query("SELECT * FROM connectors WHERE id = ?", (spec.id,))
        if not rows:
            return ConnectorState(spec, "not connected")
        row = rows[0]
        said = _said(row["said"])
        return ConnectorState(
            spec, row["status"], identity=row["identity"], error=row["error"],
            settings=json.loads(row["settings"] or "{}"), checked_at=row["checked_at"],
            error_template=str(said.get("template", "")), error_values=said.get("values") or {},
        )

    def states(self) -> list[ConnectorState]:
        return [self.state(cid) for cid in self.specs]

    def connected(self) -> list[ConnectorSpec]:
        rows = self.db.query("SELECT id FROM connectors WHERE status = 'connected'")
        ids = {r["id"] for r in rows}
        return [spec for cid, spec in self.specs.items() if cid in ids]

    def values(self, connector: str) -> dict[str, str]:
        """The stored values of a connector, secrets included. Blocking (keyring)."""
        state = self.state(connector)
        values = {k: v for k, v in (state.settings or {}).items() if not k.startswith("_")}
        for key in state.spec.secret_keys:
            secret = self.get_secret(secret_name(state.spec.id, key))
            if secret:
                values[key] = secret
        return values

    def _record(self, connector: str, status: Status, *, settings: Mapping[str, str] | None = None,
                identity: str | None = None, error: ConnectorError | str = "") -> None:
        current = self.state(connector)
        kept = dict(current.settings or {}) if settings is None else dict(settings)
        said = json.dumps({"template": error.template, "values": error.values},
                          ensure_ascii=False) if isinstance(error, ConnectorError) else ""
        message = error.message if isinstance(error, ConnectorError) else error
        self.db.execute(
            "INSERT INTO connectors(id, settings, status, identity, error, checked_at, said)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET"
            " settings = excluded.settings, status = excluded.status,"
            " identity = excluded.identity, error = excluded.error,"
            " checked_at = excluded.checked_at, said = excluded.said",
            (connector, json.dumps(kept), status,
             current.identity if identity is None else identity, message, time.time(), said),
        )

    def _changed(self, connector: str) -> None:
        for listener in list(self.listeners):
            try:
                listener(connector)
            except Exception:  # a listener's failure must not undo the change
                log.exception("a connector listener failed")

    async def mark_failed(self, connector: str, error: ConnectorError | str) -> None:
        async with self.db.writing():
            if self.state(connector).status != "not connected":
                self._record(connector, "failed", error=error)

    # ------------------------------------------------------------ operations

    def check_values(self, spec: ConnectorSpec, values: Mapping[str, str]) -> dict[str, str]:
        """The values cleaned; a missing required field is a clear error."""
        clean = {k: str(v).strip() for k, v in values.items() if str(v or "").strip()}
        unknown = set(clean) - {f.key for f in spec.fields} - OVERRIDES
        if unknown:
            raise ConnectorError("config", "{service} has no field {key}.", service=spec.name,
                                 key=repr(sorted(unknown)[0]))
        for f in spec.fields:  # yes/no: stored as "yes" when on, left out when off
            if f.kind == "bool" and f.key in clean:
                answer = clean[f.key].lower()
                if answer not in YES | NO:
                    raise ConnectorError("config", "{service}: {field} is yes or no, "
                                         "not {value}.", service=spec.name,
                                         field=Words((f.label,)), value=repr(clean[f.key]))
                if answer in YES:
                    clean[f.key] = "yes"
                else:
                    del clean[f.key]
        missing = [f.label for f in spec.fields
                   if f.required and f.kind != "bool" and f.key not in clean]
        if missing:
            raise ConnectorError("config", "{service} needs: {fields}.", service=spec.name,
                                 fields=Words(missing))
        return clean

    async def validate(self, spec: ConnectorSpec, values: Mapping[str, str]) -> Identity:
        # Built in a worker: the first build imports the client's SDK.
        client = await asyncio.to_thread(spec.client, values, self.policy)
        async with opened(client) as entered:
            return await spec.validate(entered)

    async def connect(self, connector: str, values: Mapping[str, str]) -> Identity:
        """Validate ``values`` against the service, then store them (secrets in the
        keyring). On any failure nothing stored changes and the error says why."""
        spec = self.spec(connector)
        clean = self.check_values(spec, values)
        identity = await self.validate(spec, clean)
        await asyncio.to_thread(self._store_secrets, spec, clean)
        async with self.db.writing():
            settings = {k: v for k, v in clean.items() if k not in spec.secret_keys}
            # Which secrets are stored (their names only: the page says "stored" for them).
            settings[STORED] = ",".join(k for k in spec.secret_keys if k in clean)
            self._record(spec.id, "connected", settings=settings, identity=identity.text())
        self._changed(spec.id)
        return identity

    def _store_secrets(self, spec: ConnectorSpec, values: Mapping[str, str]) -> None:
        for key in spec.secret_keys:
            if key in values:
                secrets.set_secret(secret_name(spec.id, key), values[key])
            else:
                with contextlib.suppress(Exception):
                    secrets.delete_secret(secret_name(spec.id, key))

    async def test(self, connector: str) -> ConnectorState:
        """Validate the stored credentials again; the outcome is recorded and returned."""
        spec = self.spec(connector)
        if self.state(spec.id).status == "not connected":
            raise ConnectorError("config", "{service} is not connected.", service=spec.name)
        values = await asyncio.to_thread(self.values, spec.id)
        try:
            identity = await self.validate(spec, values)
        except ConnectorError as exc:
            async with self.db.writing():
                self._record(spec.id, "failed", error=exc)
        else:
            async with self.db.writing():
                self._record(spec.id, "connected", identity=identity.text())
        self._changed(spec.id)
        return self.state(spec.id)

    async def disconnect(self, connector: str) -> bool:
        """Forget a connector's credentials and state; False if it was not connected."""
        spec = self.spec(connector)
        was = self.state(spec.id).status != "not connected"

        def forget() -> None:
            for key in spec.secret_keys:
                with contextlib.suppress(Exception):
                    secrets.delete_secret(secret_name(spec.id, key))

        await asyncio.to_thread(forget)
        async with self.db.writing():
            self.db.execute("DELETE FROM connectors WHERE id = ?", (spec.id,))
        self._changed(spec.id)
        return was

    # ------------------------------------------------------------------ tools

    def _client(self, spec: ConnectorSpec) -> Any:
        return spec.client(self.values(spec.id), self.policy)

    def tools(self) -> list[Tool]:
        """The tools of every connected connector."""
        return [tool for spec in self.connected() for tool in self.tools_of(spec)]

    def tools_of(self, spec: ConnectorSpec) -> list[Tool]:
        # A connector may hold tools back by its settings (Stripe's changes, until allowed).
        offered = spec.extra.get("offered")
        settings = (self.state(spec.id).settings or {}) if offered else {}
        return [self._tool(spec, d) for d in spec.tools if not offered or offered(d, settings)]

    def _tool(self, spec: ConnectorSpec, d: ToolDef) -> Tool:
        async def handler(arguments: dict[str, Any], ctx: ToolContext) -> ToolResult | str:
            if self.state(spec.id).status == "not connected":  # disconnected meanwhile
                return ToolResult(f"{spec.name} is not connected: connect it in Settings → "
                                  "Connectors.", is_error=True)
            try:
                # Keyring reads and the client's build (its SDK's import) in a worker.
                built = await asyncio.to_thread(self._client, spec)
                async with opened(built) as client:
                    # The session's folder: tools that read a file stay inside it.
                    return await d.run(client, {**arguments, "_workspace": str(ctx.workspace),
                                                  "_session": ctx.session_id})
            except ConnectorError as exc:
                if exc.kind == "auth":
                    await self.mark_failed(spec.id, exc)
                return ToolResult(exc.message, is_error=True)

        return Tool.from_connector(
            spec.id, name=d.name, description=d.description, parameters=d.parameters,
            handler=handler, risk=RiskClass.EXTERNAL if d.action else RiskClass.READ,
            target_arg=d.target_arg, needs_approval=d.action,
        )


def _said(text: str) -> dict[str, Any]:
    """A stored error's template and values (nothing when unreadable or from before)."""
    try:
        said = json.loads(text) if text else {}
    except ValueError:
        return {}
    return said if isinstance(said, dict) else {}


def value(values: Credentials, key: str) -> str:
    """A required value (validated at connect time; a clear error if it went missing)."""
    found = values.get(key, "")
    if not found:
        raise ConnectorError("config", "The connector has no {key}: connect it again.", key=key)
    return found
