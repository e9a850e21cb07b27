"""Set-up of the cloud platforms (Azure OpenAI, Google Vertex AI) shared by onboarding
and Settings (no widgets here): the settings each asks for (:data:`CLOUD_FIELDS`),
the ``[providers.<name>]`` table they make (:func:`cloud_settings`) and the "Test"
(:func:`validate_cloud`: the smallest real call — Vertex counts the tokens of one
word; Azure asks its deployment for a one-token reply). Errors are
:class:`ProviderError` whose message names the setting to fix.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openworker_qt.core.provider_api import ModelRequest, ProviderError

TEST_TIMEOUT = 30.0


@dataclass(frozen=True, slots=True)
class CloudField:
    """One setting a cloud platform asks for (``key``: its name in config)."""

    key: str
    label: str
    placeholder: str = ""
    required: bool = False
    path: bool = False  # a file on this computer (its path is stored, never its contents)


CLOUD_FIELDS: dict[str, tuple[CloudField, ...]] = {
    "azure": (
        CloudField("endpoint", "Endpoint", "https://my-resource.openai.azure.com", required=True),
        CloudField("deployment", "Deployment", "the deployment's name, e.g. gpt-4o", required=True),
        CloudField("model", "Model of the deployment", "optional, e.g. gpt-4o (for its price)"),
        CloudField("api_version", "API version", "2024-10-21"),
        CloudField("token_command", "Entra ID token command",
                   "optional, instead of a key: az account get-access-token …"),
    ),
    "vertex": (
        CloudField("project", "Project ID", "my-project", required=True),
        CloudField("location", "Location", "global (or a region such as us-east5)"),
        CloudField("credentials_file", "Service-account file",
                   "optional: else your gcloud sign-in is used", path=True),
    ),
}

#: The model the Vertex test counts tokens with.
VERTEX_PROBE = "gemini-2.5-flash"


def cloud_settings(provider: str, values: Mapping[str, str]) -> dict[str, Any]:
    """The ``[providers.<provider>]`` table for the values typed (blanks left out).

    Raises:
        ProviderError: a required value is missing (names it).
    """
    table: dict[str, Any] = {}
    for field in CLOUD_FIELDS[provider]:
        value = str(values.get(field.key) or "").strip()
        if field.required and not value:
            raise ProviderError("bad_request", f"Enter the {field.label.lower()} "
                                f"(providers.{provider}.{field.key}).", provider=provider)
        if value and field.key not in ("deployment", "model"):
            table[field.key] = value.rstrip("/") if field.key == "endpoint" else value
    if provider == "azure":
        deployment = str(values.get("deployment") or "").strip()
        model = str(values.get("model") or "").strip()
        table["deployments"] = {deployment: model or deployment}
    return table


async def validate_cloud(provider: str, values: Mapping[str, str], key: str = "", *,
                         base_url: str = "", credentials: Any = None,
                         access_token: str | None = None) -> None:
    """One real, tiny request with these settings; raises ProviderError.

    ``base_url``, ``credentials`` and ``access_token``: another host and fixed
    credentials (a test's stub); normally the platform's address and its own
    credential chain.
    """
    from openworker_qt.providers.retry import NO_RETRY, StreamTimeouts

    table = cloud_settings(provider, values)
    options: dict[str, Any] = {"retry": NO_RETRY, "timeouts": StreamTimeouts(
        first_event=TEST_TIMEOUT, stall=TEST_TIMEOUT)}
    try:
        async with asyncio.timeout(TEST_TIMEOUT):
            if provider == "vertex":
                await _count_vertex_tokens(table, base_url, credentials, access_token, options)
            else:
                await _azure_one_token(table, key, values, base_url, options)
    except TimeoutError as exc:
        raise ProviderError("timeout", "The provider did not answer in time.",
                            provider=provider) from exc


async def _count_vertex_tokens(table: Mapping[str, Any], base_url: str, credentials: Any,
                               access_token: str | None, options: dict[str, Any]) -> None:
    from openworker_qt.providers import vertex
    from openworker_qt.providers.errors import classify

    project, location, path = vertex.check_settings(table)
    if credentials is None:
        credentials = await asyncio.to_thread(vertex.load_credentials, path)
    provider = vertex.VertexProvider(project=project, location=location, credentials=credentials,
                                     access_token=access_token, base_url=base_url or None,
                                     **options)
    try:
        client = await asyncio.to_thread(lambda: provider.gemini.client)
        await client.aio.models.count_tokens(model=VERTEX_PROBE, contents="OK")
    except ProviderError:
        raise
    except Exception as exc:
        raise vertex._refine(classify(exc, provider="vertex", model=VERTEX_PROBE), VERTEX_PROBE,
                             project, location) from exc
    finally:
        await provider.aclose()


async def _azure_one_token(table: Mapping[str, Any], key: str, values: Mapping[str, str],
                           base_url: str, options: dict[str, Any]) -> None:
    from openworker_qt.providers import azure

    if base_url:
        table = {**table, "endpoint": base_url}
    provider = azure.build(table, key.strip() or None, options, None)
    deployment = str(values.get("deployment") or "").strip()
    request = ModelRequest(deployment, [{"role": "user", "content": "Say OK."}], max_tokens=1)
    stream = provider.stream(request)
    try:
        async for _chunk in stream:
            break  # any answer at all means the settings work
    finally:
        closer = getattr(stream, "aclose", None)
        if closer is not None:
            await closer()
        await provider.aclose()


def stored_values(provider: str, table: Mapping[str, Any]) -> dict[str, str]:
    """The values :func:`validate_cloud` takes, read back from a stored
    ``[providers.<provider>]`` table (Settings' "Test" of what is set up)."""
    values = {f.key: str(table.get(f.key) or "") for f in CLOUD_FIELDS[provider]}
    deployments = table.get("deployments")
    if provider == "azure" and isinstance(deployments, Mapping) and deployments:
        deployment, model = next(iter(deployments.items()))
        values.update(deployment=str(deployment), model=str(model or ""))
    return values
