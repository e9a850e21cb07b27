"""The SSRF guard of ``web_fetch``: which hosts and addresses a fetch may reach
(checked on every hop, before connecting), and the HTTP client pinned to the
addresses checked; the ``[web]`` settings it reads and :class:`WebError`."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

#: Cloud metadata services (also inside the refused ranges; named for the message).
METADATA = frozenset({
    ipaddress.ip_address("169.254.169.254"),
    ipaddress.ip_address("fd00:ec2::254"),
})
_SHARED = ipaddress.ip_network("100.64.0.0/10")

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
#: Blocking name lookup: host, port -> the addresses (strings). Run in a worker.
Resolve = Callable[[str, int], Sequence[str]]


class WebError(Exception):
    """A fetch or a search that failed; the message is for the model and the user."""


def system_resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to (blocking: ``getaddrinfo``)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise WebError(f"the name {host} could not be resolved ({exc.strerror or exc})") from exc
    out: list[str] = []
    for info in infos:
        addr = str(info[4][0])
        if addr not in out:
            out.append(addr)
    return out


def refused_reason(address: str) -> str | None:
    """Why a connection to ``address`` is refused (``None``: a public address)."""
    try:
        ip: IP = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return f"{address} is not an IP address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip in METADATA:
        kind = "a cloud metadata address"
    elif ip.is_unspecified:
        kind = "an unspecified address"
    elif ip.is_loopback:
        kind = "a loopback address (this computer)"
    elif ip.is_link_local:
        kind = "a link-local address"
    elif ip.is_multicast:
        kind = "a multicast address"
    elif isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED:
        kind = "a shared (carrier-grade NAT) address"
    elif ip.is_private:
        kind = "a private network address"
    elif not ip.is_global or ip.is_reserved:
        kind = "a reserved address"
    else:
        return None
    return f"{ip} is {kind}"


def _port(parts: Any) -> int:
    try:
        port = parts.port
    except ValueError as exc:
        raise WebError(f"the URL has an invalid port ({exc})") from exc
    return int(port) if port else (443 if parts.scheme == "https" else 80)


def split_url(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of an http(s) URL, or a :class:`WebError` saying why not."""
    if not isinstance(url, str) or not url.strip():
        raise WebError("no URL given")
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise WebError(f"only http and https URLs can be fetched, not {scheme or 'this'!r}")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise WebError(f"the URL {url!r} has no host")
    if not host.isascii():  # the name the client connects to (and asks the resolver for)
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise WebError(f"the URL {url!r} has an invalid host name") from exc
    return scheme, host, _port(parts)


def url_host(arguments: Mapping[str, Any]) -> str | None:
    """The approval target of a ``web_fetch`` call: the URL's host (lower-case)."""
    try:
        return split_url(str(arguments.get("url") or ""))[1]
    except WebError:
        return None


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def host_allowed(host: str, port: int, allowed: Sequence[str]) -> bool:
    """``host`` (any port) or ``host:port`` is in the user's ``allow_private_hosts``."""
    names = {str(a).strip().lower().rstrip("/") for a in allowed}
    bare = f"[{host}]" if ":" in host else host
    return host in names or bare in names or _host_port(host, port) in names


@dataclass(frozen=True, slots=True)
class WebSettings:
    """The ``[web]`` table of the *global* config (a workspace file cannot set it)."""

    allow_private_hosts: tuple[str, ...] = ()
    search_provider: str = "duckduckgo"
    searxng_url: str = ""


def global_settings() -> WebSettings:
    """Read ``[web]`` from the global config file (blocking: run it in a worker)."""
    from openworker_qt.storage.config import load_config

    cfg = load_config()  # no workspace: a workspace file never applies here
    hosts = cfg.get("web.allow_private_hosts", []) or []
    return WebSettings(
        allow_private_hosts=tuple(str(h) for h in hosts if isinstance(h, str)),
        search_provider=str(cfg.get("web.search_provider", "duckduckgo") or "duckduckgo"),
        searxng_url=str(cfg.get("web.searxng_url", "") or ""),
    )


SettingsSource = Callable[[], WebSettings]


async def read_settings(source: SettingsSource) -> WebSettings:
    """The settings ``source`` gives, read in a worker (a config file is read)."""
    return await asyncio.to_thread(source)


class Pins:
    """The addresses the guard checked, per host: all the HTTP client may connect to."""

    def __init__(self) -> None:
        self.pins: dict[str, list[str]] = {}

    def resolver(self) -> Any:
        """An aiohttp resolver answering only with the pinned addresses."""
        from aiohttp.abc import AbstractResolver, ResolveResult

        pins = self.pins

        class PinnedResolver(AbstractResolver):
            async def resolve(
                self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
            ) -> list[ResolveResult]:
                addrs = pins.get(host.rstrip(".").lower().strip("[]"))
                if not addrs:
                    raise OSError(f"{host} was not checked before connecting")
                return [
                    ResolveResult(
                        hostname=host, host=addr, port=port,
                        family=socket.AF_INET6 if ":" in addr else socket.AF_INET,
                        proto=0, flags=socket.AI_NUMERICHOST,
                    )
                    for addr in addrs
                ]

            async def close(self) -> None:
                return None

        return PinnedResolver()


async def check_hop(url: str, settings: WebSettings, resolve: Resolve) -> tuple[str, list[str]]:
    """(host, checked addresses) for ``url``, or a :class:`WebError` if refused."""
    _scheme, host, port = split_url(url)
    literal = host.strip("[]")
    try:
        ipaddress.ip_address(literal)
        addrs = [literal]
    except ValueError:
        addrs = list(await asyncio.to_thread(resolve, host, port))
    if not addrs:
        raise WebError(f"the name {host} did not resolve to any address")
    if host_allowed(literal, port, settings.allow_private_hosts):
        return literal, addrs
    for addr in addrs:
        why = refused_reason(addr)
        if why is not None:
            if addr != literal:
                why = f"{host} resolves to {why}"
            raise WebError(
                f"refused to fetch {url}: {why}. To allow it, add "
                f"\"{_host_port(literal, port)}\" to [web] allow_private_hosts in your settings"
            )
    return literal, addrs


def refused_literal(url: str, host: str, port: int, settings: WebSettings) -> None:
    """Refuse ``url`` now if its host is an IP address the guard refuses (a name is
    not looked up: that is for the call that fetches it)."""
    literal = host.strip("[]")
    try:
        ipaddress.ip_address(literal)
    except ValueError:
        return
    if host_allowed(literal, port, settings.allow_private_hosts):
        return
    why = refused_reason(literal)
    if why is not None:
        raise WebError(f"refused to follow the redirect to {url}: {why}")
