"""Fail any connection or name lookup that leaves the machine (tests only)."""

from __future__ import annotations

import ipaddress
import socket


class NetworkBlocked(RuntimeError):
    pass


def _is_local(host: object) -> bool:
    if host is None:
        return True
    text = host.decode() if isinstance(host, bytes) else str(host)
    if text in ("localhost", "", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(text.split("%")[0]).is_loopback
    except ValueError:
        return False


_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


def _guard(sock: socket.socket, address: object) -> None:
    if sock.family == getattr(socket, "AF_UNIX", object()):
        return
    host = address[0] if isinstance(address, tuple) else address
    if not _is_local(host):
        raise NetworkBlocked(f"test tried to reach the network: {address!r}")


def _connect(self: socket.socket, address: object) -> None:
    _guard(self, address)
    return _real_connect(self, address)


def _connect_ex(self: socket.socket, address: object) -> int:
    _guard(self, address)
    return _real_connect_ex(self, address)


def _getaddrinfo(host: object, *args: object, **kwargs: object):
    if not _is_local(host):
        raise NetworkBlocked(f"test tried to resolve a network host: {host!r}")
    return _real_getaddrinfo(host, *args, **kwargs)





def install() -> None:
    socket.socket.connect = _connect
    socket.socket.connect_ex = _connect_ex
    socket.getaddrinfo = _getaddrinfo
