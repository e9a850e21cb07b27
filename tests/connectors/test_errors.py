"""A connector's error is an English template with named placeholders: the English
sentence for the model, the logs and the CLI, the template and values kept (and
stored with the connector's last error) for the settings page to translate. A
database from before keeps its stored errors as they were written."""

from __future__ import annotations

import json
from pathlib import Path

from openworker_qt.connectors.base import ConnectorError, Words, refused
from openworker_qt.connectors.registry import MIGRATIONS, ConnectorRegistry
from openworker_qt.storage.db import Database


def test_the_message_is_the_template_filled_and_both_are_kept() -> None:
    exc = ConnectorError("rate_limited", "{service} is rate limiting requests; it asks to wait "
                         "{seconds} s. Try again later.", status=429, service="Slack", seconds=7)
    assert exc.message == str(exc) == ("Slack is rate limiting requests; it asks to wait 7 s. "
                                       "Try again later.")
    assert exc.template.startswith("{service} is rate limiting")
    assert exc.values == {"service": "Slack", "seconds": "7"} and exc.status == 429
    labels = ConnectorError("config", "{service} needs: {fields}.", service="Jira",
                            fields=Words(("Site", "API token")))
    assert labels.message == "Jira needs: Site, API token."
    assert labels.values["fields"] == ["Site", "API token"]  # each translated on screen
    # Without values the braces are the text's own (an example of a JSON object).
    plain = ConnectorError("request", 'Give the fields as an object, e.g. {"Name": "Ana"}.')
    assert plain.message == 'Give the fields as an object, e.g. {"Name": "Ana"}.'
    # A value's own braces are not placeholders.
    assert ConnectorError("request", "{service}: {detail}", service="Linear",
                          detail="{bad}").message == "Linear: {bad}"
    assert refused("Zendesk").message == ("Zendesk refused the credentials (expired or "
                                          "revoked). Reconnect Zendesk in Settings → Connectors.")


async def test_a_failure_is_stored_with_its_template_and_an_older_row_reads_as_written(
    tmp_path: Path,
) -> None:
    db = Database(tmp_path / "state.sqlite3")
    db.ensure("connectors", MIGRATIONS[:1])  # the table as the previous version made it
    db.execute("INSERT INTO connectors(id, settings, status, identity, error, checked_at)"
               " VALUES ('github', '{}', 'failed', '', 'GitHub refused the credentials.', 0)")
    registry = ConnectorRegistry(db)
    old = registry.state("github")
    assert old.status == "failed" and old.error == "GitHub refused the credentials."
    assert old.error_template == "" and old.error_values == {}

    await registry.mark_failed("github", refused("GitHub", status=401))
    state = registry.state("github")
    assert state.error == ("GitHub refused the credentials (expired or revoked). Reconnect "
                           "GitHub in Settings → Connectors.")
    assert state.error_template == ("{service} refused the credentials (expired or revoked). "
                                    "Reconnect {service} in Settings → Connectors.")
    assert state.error_values == {"service": "GitHub"}
    row = db.query("SELECT said FROM connectors WHERE id = 'github'")[0]
    assert json.loads(row["said"])["values"] == {"service": "GitHub"}
    db.execute("UPDATE connectors SET said = 'not json' WHERE id = 'github'")
    assert registry.state("github").error_template == ""  # unreadable: the English stays
    assert registry.state("github").error == state.error
