"""Browser: a Chromium the agent drives, for the sites that have no API.

Playwright drives the Chromium installed on the computer (Debian's ``chromium``
package: ``/usr/bin/chromium``; Playwright's own browser builds are never
downloaded). Each session has its own browser profile (cookies, logins) in the
app's data folder, which the file tools never read.

Where the agent may go, and what it may send, is the user's call:

* ``browser_navigate`` is EXTERNAL and asks, with the *domain* as its target
  (so an "always" answer binds to that exact domain); the URL must be on the
  domain named. A domain approved in the session may then be reached by links.
* ``browser_submit`` is EXTERNAL and asks, with the domain the form sends to as
  its target (checked against the form's own destination).
* Everything else (read the page, its accessibility snapshot, click, type,
  screenshot) only looks, and the browser itself enforces it: a page load in the
  main frame to a domain not approved in this session is refused, and so is
  every request that sends data (any method but GET/HEAD/OPTIONS) and every
  form submission, except during an approved ``browser_submit`` to its domain.
  (A redirect is followed by the browser before it can be stopped; a page that
  ends up on a domain not approved is left for a blank page, and the tool says so.)

Files the pages download land in the session's output folder (``outputs/``);
screenshots too, and they are attached to the result for the model to see.

The browser runs in a thread of its own (:mod:`.browser_host`); :func:`close_all` (the
runtime stopping) and an ``atexit`` hook close every session's browser, and
:func:`forget_session` (the session deleted) removes its profile too.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import importlib.util
import shutil
import subprocess
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast
from urllib.parse import urlparse

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Field,
    Identity,
    RetryPolicy,
    ToolDef,
    clip,
    obj,
    s,
)
from openworker_qt.connectors.browser_host import (
    DEFAULT_CHROMIUM,
    INSTALL_HINT,
    NAV_TIMEOUT_MS,
    NO_PLAYWRIGHT,
    OUTPUT_DIR,
    BrowserHost,
    PageSession,
    domain_name,
    find_chromium,
    host_of,
    profile_dir,
    unique_path,
)
from openworker_qt.core.tool_api import ToolResult

T = TypeVar("T")
MAX_IMAGE_BYTES = 5 * 1024 * 1024

FORM_HOST = """el => {
  const form = el.form || el.closest('form');
  try { return new URL(form ? form.action : location.href).hostname; }
  catch (e) { return location.hostname; }
}"""

PRESSES_ENTER = """el => {
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea') return false;
  if (tag !== 'input') return false;
  return !['submit', 'image', 'button', 'reset', 'checkbox', 'radio'].includes(el.type);
}"""


HOST = BrowserHost()
atexit.register(HOST.close_now)


async def close_all() -> None:
    await HOST.close_all()


async def close_session(session_id: str) -> None:
    await HOST.close_session(session_id)


async def forget_session(session_id: str) -> None:
    """The session was deleted: its browser closed and its profile removed."""
    await HOST.close_session(session_id)
    await asyncio.to_thread(shutil.rmtree, profile_dir(session_id), True)


# ----------------------------------------------------------------------- the connector


@dataclass(frozen=True, slots=True)
class BrowserClient:
    executable: str


def _client(values: Credentials, _policy: RetryPolicy) -> BrowserClient:
    found = find_chromium(values.get("executable", ""))
    if found is None:
        where = values.get("executable") or "on this computer"
        raise ConnectorError("config", "No Chromium found ({where}). " + INSTALL_HINT,
                             where=where)
    return BrowserClient(found)


async def _validate(client: BrowserClient) -> Identity:
    def version() -> str:
        if importlib.util.find_spec("playwright") is None:
            raise ConnectorError("config", NO_PLAYWRIGHT)
        try:
            out = subprocess.run([client.executable, "--version"], capture_output=True,
                                 text=True, timeout=30, check=False)
        except (OSError, subprocess.SubprocessError) as exc:
            raise ConnectorError("config", "{executable} did not run ({problem}). "
                                 + INSTALL_HINT, executable=client.executable,
                                 problem=exc) from exc
        text = (out.stdout or out.stderr).strip().splitlines()
        if out.returncode != 0 or not text:
            raise ConnectorError("config", "{executable} did not run. " + INSTALL_HINT,
                                 executable=client.executable)
        return text[0]

    return Identity(await asyncio.to_thread(version), "this computer")


def _on(client: BrowserClient, a: dict[str, Any],
        action: Callable[[PageSession], Awaitable[T]]) -> Awaitable[T]:
    session = str(a.get("_session") or "default")
    return HOST.run(session, str(a.get("_workspace") or "."), client.executable, action)


def _failed(what: str, exc: Exception) -> ConnectorError:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if "Timeout" in type(exc).__name__ or "Timeout" in text:
        text = ("it did not happen in time (take a new browser_snapshot: element refs "
                "change when the page does)")
    return ConnectorError("request", "{what} failed: {problem}", what=what, problem=text)


async def _navigate(client: BrowserClient, a: dict[str, Any]) -> str:
    url = str(a.get("url", "")).strip()
    domain = domain_name(str(a.get("domain", "")))
    if urlparse(url).scheme not in ("http", "https"):
        raise ConnectorError("request", "Only http and https addresses can be opened, "
                             "not {url}.", url=repr(url))
    if host_of(url) != domain:
        raise ConnectorError("request", "The address is on {host}, not on {domain}: domain "
                             "must be the address's own domain.",
                             host=host_of(url) or "(no domain)", domain=repr(domain))

    async def go(page: PageSession) -> str:
        page.approved.add(domain)
        try:
            await page.page.goto(url, wait_until="load")
        except Exception as exc:
            failed = _failed(f"Opening {url}", exc)
            notes = page.notes()  # why, when a guard stopped it
            if notes:
                raise ConnectorError("request", "{failed}\n{notes}", failed=failed.message,
                                     notes=notes) from exc
            raise failed from exc
        return await page.report(f"Opened {url}.")

    return await _on(client, a, go)


async def _read(client: BrowserClient, a: dict[str, Any]) -> str:
    wait_for = str(a.get("wait_for") or "")

    async def read(page: PageSession) -> str:
        if wait_for:
            try:
                await page.page.get_by_text(wait_for).first.wait_for(timeout=NAV_TIMEOUT_MS)
            except Exception as exc:
                raise _failed(f"Waiting for {wait_for!r}", exc) from exc
        text = await page.page.locator("body").inner_text()
        head = await page.where()
        notes = page.notes()
        return clip("\n".join(x for x in (head, notes, "", text) if x is not None))

    return await _on(client, a, read)


async def _snapshot(client: BrowserClient, a: dict[str, Any]) -> str:
    wait_for = str(a.get("wait_for") or "")

    async def snap(page: PageSession) -> str:
        if wait_for:
            try:
                await page.page.get_by_text(wait_for).first.wait_for(timeout=NAV_TIMEOUT_MS)
            except Exception as exc:
                raise _failed(f"Waiting for {wait_for!r}", exc) from exc
        tree = await page.page.aria_snapshot(mode="ai")
        return clip(f"{await page.where()}\n{page.notes()}\n{tree}".replace("\n\n", "\n"))

    return await _on(client, a, snap)


async def _click(client: BrowserClient, a: dict[str, Any]) -> str:
    ref = str(a.get("ref", ""))

    async def click(page: PageSession) -> str:
        try:
            await page.element(ref).click()
        except Exception as exc:
            raise _failed(f"Clicking {ref}", exc) from exc
        return await page.report(f"Clicked {ref}.")

    return await _on(client, a, click)


async def _type(client: BrowserClient, a: dict[str, Any]) -> str:
    ref, text = str(a.get("ref", "")), str(a.get("text", ""))

    async def type_(page: PageSession) -> str:
        try:
            await page.element(ref).fill(text)
        except Exception as exc:
            raise _failed(f"Typing into {ref}", exc) from exc
        return f"Typed into {ref}."

    return await _on(client, a, type_)


async def _submit(client: BrowserClient, a: dict[str, Any]) -> str:
    ref = str(a.get("ref", ""))
    domain = domain_name(str(a.get("domain", "")))

    async def submit(page: PageSession) -> str:
        element = page.element(ref)
        try:
            sends_to = str(await element.evaluate(FORM_HOST)).lower()
            enter = bool(await element.evaluate(PRESSES_ENTER))
        except Exception as exc:
            raise _failed(f"Finding {ref}", exc) from exc
        if sends_to != domain:
            raise ConnectorError("request", "This form sends to {host}, not to {domain}: "
                                 "call browser_submit with domain={quoted}.", host=sends_to,
                                 domain=domain, quoted=repr(sends_to))
        page.sending_to = domain
        try:
            await page.page.evaluate("() => { window.__openworkerSubmit = true; }")
            if enter:
                await element.press("Enter")
            else:
                await element.click()
            await page.settle()
            page.approved.add(domain)
        except Exception as exc:
            raise _failed(f"Submitting with {ref}", exc) from exc
        finally:
            page.sending_to = None
            with contextlib.suppress(Exception):
                await page.page.evaluate("() => { window.__openworkerSubmit = false; }")
        return await page.report(f"Submitted the form to {domain}.")

    return await _on(client, a, submit)


def _image_result(path: Path, data: bytes, mime: str, text: str) -> ToolResult:
    """A picture the model sees, where tool results carry pictures; else its path."""
    import base64

    fields = getattr(ToolResult, "__dataclass_fields__", {})
    display = {"path": str(path), "image": mime, "bytes": len(data)}
    if "attachments" in fields:
        url = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
        part = {"type": "image_url", "image_url": {"url": url}, "name": path.name}
        return ToolResult(text, display=display, **{"attachments": (part,)})  # type: ignore[arg-type]
    return ToolResult(text + " (Open it with read_file to see it.)", display=display)


async def _screenshot(client: BrowserClient, a: dict[str, Any]) -> ToolResult:
    full = bool(a.get("full_page"))

    async def shot(page: PageSession) -> tuple[Path, bytes, str]:
        try:
            data: bytes = await page.page.screenshot(full_page=full)
            mime, suffix = "image/png", ".png"
            if len(data) > MAX_IMAGE_BYTES:
                data = await page.page.screenshot(full_page=full, type="jpeg", quality=60)
                mime, suffix = "image/jpeg", ".jpg"
        except Exception as exc:
            raise _failed("The screenshot", exc) from exc
        page.shots += 1
        path = unique_path(page.output_folder(), f"screenshot-{page.shots}{suffix}")
        path.write_bytes(data)
        return path, data, mime + "\n" + await page.where()

    path, data, meta = await _on(client, a, shot)
    mime, where = meta.split("\n", 1)
    return _image_result(path, data, mime, f"Screenshot saved as {OUTPUT_DIR}/{path.name}. {where}")


REF_HELP = "an element's ref from browser_snapshot (e.g. e12), or a CSS selector"
DOMAIN_HELP = ("the domain, exactly as in the address (e.g. www.example.com): what the user "
               "approves")

SPEC = ConnectorSpec(
    id="browser", name="Browser", category="Web",
    description="A Chromium the agent drives for sites with no API: opens pages, reads them, "
                "clicks and types; asks before each new site and before sending a form.",
    fields=(Field("executable", "Chromium program", "Leave empty to use the Chromium installed "
                  "on this computer (/usr/bin/chromium on Debian and Ubuntu).", secret=False,
                  required=False, placeholder=DEFAULT_CHROMIUM),),
    client=_client, validate=_validate,
    instructions="Use the browser only for sites without a connector. Take browser_snapshot "
                 "to find element refs before clicking or typing.",
    tools=(
        ToolDef("browser_navigate", "Open a web page in the session's browser (asks the user "
                "for each new domain).",
                obj({"url": s("the full address, http or https"), "domain": s(DOMAIN_HELP)},
                    ("url", "domain")), _navigate, action=True, target_arg="domain"),
        ToolDef("browser_read", "The current page's text. wait_for: a text to wait for first "
                "(pages that load content late).",
                obj({"wait_for": s("text to wait for (optional)")}), _read),
        ToolDef("browser_snapshot", "The current page as an accessibility tree, each element "
                "with a ref for browser_click, browser_type and browser_submit.",
                obj({"wait_for": s("text to wait for (optional)")}), _snapshot),
        ToolDef("browser_click", "Click an element (a link, a button, a tab). Sending a form "
                "is browser_submit.", obj({"ref": s(REF_HELP)}, ("ref",)), _click),
        ToolDef("browser_type", "Fill a text field (replaces its text; does not submit).",
                obj({"ref": s(REF_HELP), "text": s("the text")}, ("ref", "text")), _type),
        ToolDef("browser_submit", "Submit a form: press its button (or Enter in its field). "
                "Asks the user, naming the domain the form sends to.",
                obj({"ref": s("the submit button's or a field's " + REF_HELP[3:]),
                     "domain": s("the domain the form sends to (the page's own, usually)")},
                    ("ref", "domain")), _submit, action=True, target_arg="domain"),
        ToolDef("browser_screenshot", "A picture of the current page (saved in outputs/).",
                obj({"full_page": {"type": "boolean", "description": "the whole page, not "
                                   "only what fits the window"}}),
                cast(Callable[[Any, dict[str, Any]], Awaitable[str]], _screenshot)),
    ),
)
SPECS = [SPEC]
