"""Why an MCP server failed, in plain words: the exception trees the SDK and its
transports raise, read for the cause a user can act on."""

from __future__ import annotations

import os
import sys

from openworker_qt.mcp.config import ServerConfig

__all__ = ["explain", "innermost", "is_transport_error", "leaves", "needs_sign_in", "not_found"]


def explain(exc: BaseException, config: ServerConfig, http_status: int, hint: str) -> str:
    """Why connecting to the server ``config`` describes failed, in plain words
    (``http_status``: the last one it answered with; ``hint``: added when it
    stopped while starting)."""
    from openworker_qt.mcp.oauth import SignInRequired

    for one in leaves(exc):
        if isinstance(one, SignInRequired):
            return str(one)
        if type(one).__name__ in ("OAuthFlowError", "OAuthTokenError", "OAuthRegistrationError"):
            return (f"the sign-in did not work ({one}); sign in again (Settings → MCP "
                    f"servers → Sign in, or `openworker-qt mcp login {config.name}`).")
    leaf = innermost(exc)
    name = type(leaf).__name__
    text = str(leaf)
    if config.transport != "stdio" and http_status in (401, 403):
        what = "unauthorized" if http_status == 401 else "forbidden"
        return (f"{what}: check the token (or sign in again: "
                f"openworker-qt mcp login {config.name}).")
    if config.transport != "stdio" and http_status >= 400:
        return f"answered HTTP {http_status} ({text or name})."
    if name in ("ConnectError", "ConnectTimeout") or isinstance(leaf, ConnectionRefusedError):
        return f"could not be reached at {config.url} ({text or name})."
    if name == "HTTPStatusError":
        return f"refused the connection: {text}"
    if "Connection closed" in text or isinstance(leaf, (EOFError, BrokenPipeError)):
        return "stopped before it finished starting." + hint
    return f"could not start: {text or name}."


def innermost(exc: BaseException) -> BaseException:
    """The first exception at the bottom of ``exc``'s groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def leaves(exc: BaseException) -> list[BaseException]:
    """Every exception in ``exc`` (groups opened, causes and contexts followed)."""
    out: list[BaseException] = []
    todo = [exc]
    while todo and len(out) < 100:
        one = todo.pop()
        if isinstance(one, BaseExceptionGroup):
            todo.extend(one.exceptions)
            continue
        out.append(one)
        for linked in (one.__cause__, one.__context__):
            if linked is not None and linked not in out:
                todo.append(linked)
    return out


def needs_sign_in(exc: BaseException) -> bool:
    from openworker_qt.mcp.oauth import SignInRequired

    return any(isinstance(one, SignInRequired) for one in leaves(exc))


def is_transport_error(exc: BaseException) -> bool:
    import anyio

    leaf = innermost(exc)
    return isinstance(leaf, (anyio.ClosedResourceError, anyio.BrokenResourceError,
                             anyio.EndOfStream))


def not_found(command: str) -> str:
    tips = {
        "npx": "npx comes with Node.js.", "node": "Install Node.js.",
        "uvx": "uvx comes with uv (https://docs.astral.sh/uv/).", "uv": "Install uv.",
        "docker": "Install Docker and start it.",
        "python": "Install Python.", "python3": "Install Python.",
    }
    base = os.path.basename(command)
    tip = tips.get(base.removesuffix(".exe").removesuffix(".cmd"), "")
    where = "" if sys.platform.startswith("win") else (
        " OpenWorker looked in your login shell's PATH too; if you installed it with nvm, "
        "asdf, pyenv or Homebrew, run `openworker-qt mcp doctor` to see what it found.")
    return f"the program {command!r} was not found. {tip}{where}".replace("  ", " ")
