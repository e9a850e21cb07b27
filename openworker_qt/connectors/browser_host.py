"""The Chromium the browser connector drives: one page session per chat (what it may load
and send, its downloads), on a thread of its own.

The browser runs in a thread of its own, with its own event loop: the app's loop only
awaits futures, never an import, a launch or a page. It starts on the first call, a
session's browser closes after :data:`IDLE_CLOSE` seconds unused.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import sys
import threading
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlparse

from openworker_qt.connectors.base import (
    ConnectorError,
)
from openworker_qt.storage.paths import app_paths

T = TypeVar("T")

DEFAULT_CHROMIUM = "/usr/bin/chromium"
INSTALL_HINT = ("Install Chromium: on Debian or Ubuntu `sudo apt-get install chromium` "
                "(scripts/dev install does it), or give the path to a Chromium or Chrome "
                "in Settings → Connectors → Browser.")
NO_PLAYWRIGHT = (
    "The browser connector is not part of this packaged build (Playwright, which drives "
    "Chromium, is too large to bundle): run OpenWorker from a source install "
    "(scripts/dev install) to use it." if getattr(sys, "frozen", False) else
    "The browser could not start: Playwright, which drives Chromium, is missing or broken. "
    "Reinstall OpenWorker's packages (scripts/dev install).")
FLAGS = (
    "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
)
OUTPUT_DIR = "outputs"
IDLE_CLOSE = 600.0
NAV_TIMEOUT_MS = 30_000
ACTION_TIMEOUT_MS = 8_000
SETTLE_MS = 10_000
QUIET = 0.3  # seconds without a request in flight: the page has settled
QUIET_MAX = 3.0
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
REF = re.compile(r"^(f\d+)?e\d+$")

#: Installed in every page: a form submission not allowed by ``browser_submit`` is
#: stopped before the page (or the browser) sends it, and reported.
SUBMIT_GUARD = """
(() => {
  window.addEventListener('submit', (event) => {
    if (window.__openworkerSubmit === true) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    let host = location.hostname;
    try { host = new URL(event.target.action || location.href).hostname; } catch (e) {}
    if (window.__openworkerBlocked) window.__openworkerBlocked(host);
  }, true);
})();
"""


def domain_name(host: str) -> str:
    """A host name as the browser sends it: lower case, no final dot, IDNA (punycode)."""
    host = host.strip().lower().rstrip(".")
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


def host_of(url: str) -> str:
    return domain_name(urlparse(url).hostname or "")


def find_chromium(configured: str = "") -> str | None:
    """The browser to drive: the configured path, else Chromium or Chrome on PATH."""
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return DEFAULT_CHROMIUM if os.access(DEFAULT_CHROMIUM, os.X_OK) else None


def profile_dir(session_id: str) -> Path:
    """The session's browser profile (cookies, logins), in the app's data folder."""
    return app_paths().data / "browser" / re.sub(r"[^\w.-]", "_", session_id)


def as_root() -> bool:
    return sys.platform.startswith("linux") and os.geteuid() == 0


def launch_flags() -> list[str]:
    """Chromium's flags beyond Playwright's (which adds ``--headless`` in headless mode)."""
    # Chromium refuses to start its sandbox as root.
    return [*FLAGS, "--no-sandbox"] if as_root() else list(FLAGS)


def unique_path(folder: Path, name: str) -> Path:
    """``folder/name`` (only the file name kept), numbered if it exists already."""
    base = Path(name.replace("\\", "/")).name.strip().lstrip(".") or "download"
    stem, suffix = Path(base).stem or "download", Path(base).suffix
    candidate = folder / base
    n = 2
    while candidate.exists():
        candidate = folder / f"{stem} ({n}){suffix}"
        n += 1
    return candidate


# --------------------------------------------------------------------- one session


@dataclass
class PageSession:
    """A session's browser (in the browser thread): its context, its page, the
    domains the user approved and what the guards stopped since the last call."""

    context: Any
    page: Any
    outputs: Path
    approved: set[str] = field(default_factory=set)
    sending_to: str | None = None
    blocked: list[str] = field(default_factory=list)
    downloads: list[Path] = field(default_factory=list)
    pending: set[asyncio.Task[None]] = field(default_factory=set)
    idle: asyncio.TimerHandle | None = None
    shots: int = 0
    inflight: int = 0
    last_activity: float = 0.0

    def allowed(self, host: str) -> bool:
        return host in self.approved or host == self.sending_to

    async def route(self, route: Any, request: Any) -> None:
        host = host_of(request.url)
        main = False
        with contextlib.suppress(Exception):  # a service worker's request has no frame
            main = request.is_navigation_request() and request.frame.parent_frame is None
        if main and not self.allowed(host):
            self.blocked.append(f"The page tried to go to {host}, which the user has not "
                                "approved in this session (use browser_navigate to ask).")
            await route.abort("blockedbyclient")
            return
        if request.method.upper() not in SAFE_METHODS and host != self.sending_to:
            self.blocked.append(f"The page tried to send data to {host} ({request.method}); "
                                "sending needs approval: use browser_submit.")
            await route.abort("blockedbyclient")
            return
        await route.continue_()

    def submit_blocked(self, _source: Any, host: str) -> None:
        self.blocked.append(f"A form submission to {host} was stopped: submitting needs "
                            "approval (use browser_submit with its button or field).")

    def watch(self, page: Any) -> None:
        page.set_default_timeout(ACTION_TIMEOUT_MS)
        page.set_default_navigation_timeout(NAV_TIMEOUT_MS)
        page.on("download", self._download)

    def new_page(self, page: Any) -> None:
        self.watch(page)
        self.page = page  # a link that opens a tab: the agent follows it there

    def _download(self, download: Any) -> None:
        task = asyncio.ensure_future(self._save(download))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    def output_folder(self) -> Path:
        """The session's output folder, made if missing; never where a link leads."""
        folder = self.outputs
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise ConnectorError("request", "{folder} is not a plain folder: downloads and "
                                 "screenshots go only into the session's own output folder.",
                                 folder=folder)
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    async def _save(self, download: Any) -> None:
        try:
            target = unique_path(self.output_folder(), download.suggested_filename)
            await download.save_as(target)
        except Exception as exc:
            self.blocked.append(f"The download {download.suggested_filename} failed: {exc}")
            return
        self.downloads.append(target)

    def request_started(self, _request: Any) -> None:
        self.inflight += 1
        self.last_activity = asyncio.get_running_loop().time()

    def request_ended(self, _request: Any) -> None:
        self.inflight = max(0, self.inflight - 1)
        self.last_activity = asyncio.get_running_loop().time()

    async def quiet(self) -> None:
        """Until no request has been in flight for :data:`QUIET` s (at most
        :data:`QUIET_MAX` s): what an action set off (a download, a late load) is seen."""
        loop = asyncio.get_running_loop()
        end = loop.time() + QUIET_MAX
        while loop.time() < end:
            if self.inflight == 0 and loop.time() - self.last_activity >= QUIET:
                return
            await asyncio.sleep(0.05)

    async def settle(self) -> None:
        """Wait for the page to load, its requests to end and downloads to finish (bounded)."""
        self.last_activity = asyncio.get_running_loop().time()
        with contextlib.suppress(Exception):
            await self.page.wait_for_load_state("load", timeout=SETTLE_MS)
        await self.quiet()
        if self.pending:
            await asyncio.wait(set(self.pending), timeout=120)
        if self.page.url.startswith("http") and not self.allowed(host_of(self.page.url)):
            self.blocked.append(f"The site sent the browser on to {host_of(self.page.url)}, "
                                "which the user has not approved in this session; the page was "
                                "left (use browser_navigate to ask for it).")
            with contextlib.suppress(Exception):
                await self.page.goto("about:blank")

    def notes(self) -> str:
        lines = [*self.blocked]
        lines += [f"Downloaded {OUTPUT_DIR}/{p.name} ({p.stat().st_size} bytes)."
                  for p in self.downloads if p.exists()]
        self.blocked.clear()
        self.downloads.clear()
        return "\n".join(lines)

    async def where(self) -> str:
        title = ""
        with contextlib.suppress(Exception):
            title = await self.page.title()
        return f"Page: {title or '(no title)'} — {self.page.url}"

    async def report(self, done: str) -> str:
        await self.settle()
        notes = self.notes()
        return "\n".join(x for x in (done, await self.where(), notes) if x)

    def element(self, ref: str) -> Any:
        ref = ref.strip()
        if REF.match(ref):
            return self.page.locator(f"aria-ref={ref}")
        return self.page.locator(ref).first  # a CSS selector or text=…


# ------------------------------------------------------------------ the browser thread


class BrowserHost:
    """Playwright in a thread of its own; one persistent context per session."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._playwright: Any = None
        self._sessions: dict[str, PageSession] = {}
        self._starting: asyncio.Lock | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def sessions(self) -> list[str]:
        return list(self._sessions)

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._thread is None or not self._thread.is_alive():
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=_run_then_close, args=(loop,),
                                          name="openworker-browser", daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
                # What belonged to a stopped loop is of no use in the new one.
                self._playwright, self._starting, self._sessions = None, None, {}
            return self._loop

    async def call(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` in the browser thread; await it from any loop (a cancel here
        cancels it there)."""
        future = asyncio.run_coroutine_threadsafe(work, self._ensure_loop())
        return await asyncio.wrap_future(future)

    async def run(self, session_id: str, workspace: str, executable: str,
                  action: Callable[[PageSession], Awaitable[T]]) -> T:
        async def work() -> T:
            page = await self._session(session_id, workspace, executable)
            if page.idle is not None:
                page.idle.cancel()
            # The session's folder now (it may have moved since the browser started).
            page.outputs = await asyncio.to_thread(Path(workspace).resolve) / OUTPUT_DIR
            try:
                return await action(page)
            finally:
                page.idle = asyncio.get_running_loop().call_later(
                    IDLE_CLOSE, lambda: asyncio.ensure_future(self._close(session_id)))

        return await self.call(work())

    async def _session(self, session_id: str, workspace: str, executable: str) -> PageSession:
        if self._starting is None:  # made in the browser loop, on its first use
            self._starting = asyncio.Lock()
        async with self._starting:  # two sessions' first calls: one Playwright, one each
            current = self._sessions.get(session_id)
            if current is not None:
                return current
            return await self._launch(session_id, workspace, executable)

    async def _launch(self, session_id: str, workspace: str, executable: str) -> PageSession:
        if self._playwright is None:
            try:
                from playwright.async_api import async_playwright

                self._playwright = await async_playwright().start()
            except Exception as exc:
                raise ConnectorError("config", NO_PLAYWRIGHT + " ({problem})",
                                     problem=f"{type(exc).__name__}: {exc}") from exc
        profile = profile_dir(session_id)
        profile.mkdir(parents=True, exist_ok=True)
        try:
            context = await self._playwright.chromium.launch_persistent_context(
                str(profile), executable_path=executable, headless=True, args=launch_flags(),
                accept_downloads=True, chromium_sandbox=not as_root())
        except Exception as exc:
            raise ConnectorError("config", "Chromium did not start ({executable}): "
                                 "{problem}. " + INSTALL_HINT, executable=executable,
                                 problem=(str(exc).splitlines() or [""])[0]) from exc
        pages = context.pages
        page = pages[0] if pages else await context.new_page()
        folder = await asyncio.to_thread(Path(workspace).resolve)
        state = PageSession(context, page, folder / OUTPUT_DIR)
        await context.add_init_script(SUBMIT_GUARD)
        await context.expose_binding("__openworkerBlocked", state.submit_blocked)
        await context.route("**/*", state.route)
        state.watch(page)
        context.on("page", state.new_page)
        context.on("request", state.request_started)
        context.on("requestfinished", state.request_ended)
        context.on("requestfailed", state.request_ended)
        self._sessions[session_id] = state
        return state

    async def _close(self, session_id: str) -> None:
        state = self._sessions.pop(session_id, None)
        if state is None:
            return
        if state.idle is not None:
            state.idle.cancel()
        with contextlib.suppress(Exception):
            await state.context.close()

    async def close_session(self, session_id: str) -> None:
        if self.running:
            await self.call(self._close(session_id))

    async def _close_everything(self) -> None:
        for sid in list(self._sessions):
            await self._close(sid)
        if self._playwright is not None:
            with contextlib.suppress(Exception):
                await self._playwright.stop()
            self._playwright = None

    async def close_all(self) -> None:
        """Close every browser and stop the thread (the runtime stopping)."""
        if not self.running:
            return
        await self.call(self._close_everything())
        self._stop_thread()
        thread = self._thread
        if thread is not None:
            await asyncio.to_thread(thread.join, 5)

    def _stop_thread(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(loop.stop)

    def close_now(self) -> None:
        """Blocking: the process is exiting (``atexit``)."""
        loop = self._loop
        if not self.running or loop is None:
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self._close_everything(), loop).result(10)
        self._stop_thread()


def _run_then_close(loop: asyncio.AbstractEventLoop) -> None:
    """The browser thread: its loop runs until stopped, then is closed (its sockets)."""
    try:
        loop.run_forever()
    finally:
        loop.close()
