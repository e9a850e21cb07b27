"""MCP tools as engine tools (``mcp__<server>__<tool>``, one name per pair:
:mod:`openworker_qt.domain.mcp_names`).

Safety rules (the model is not trusted, and neither is a server):

* every tool is EXTERNAL unless the user's global ``toolRisk`` says otherwise;
  the server's read-only hint is shown, never used to lower the risk;
* the description the model sees is capped (:data:`DESCRIPTION_CAP`), and the
  first call of each tool in a session shows the user what the server says the
  tool does (a poisoned description is visible, not hidden in the prompt);
* results are capped (:data:`RESULT_CAP`); images and binary resources become a
  one-line note.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from openworker_qt.core.approvals import tool_key
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.domain.mcp_names import PREFIX, server_prefix, split_name, tool_name
from openworker_qt.mcp.content import RESULT_CAP, cap, result_text
from openworker_qt.mcp.status import McpFailure

if TYPE_CHECKING:
    from openworker_qt.mcp.client import McpServer
    from openworker_qt.mcp.status import ToolInfo

__all__ = [
    "PREFIX", "RESULT_CAP", "make_tool", "server_prefix", "server_tools", "split_name", "tool_name",
]

DESCRIPTION_CAP = 1024
SHOWN_KEY = "mcp.described"


def _description(server: McpServer, info: ToolInfo) -> str:
    text = " ".join(info.description.split()) or info.title or info.name
    return cap(f"[MCP server {server.config.name}] {text}", DESCRIPTION_CAP)


def make_tool(server: McpServer, info: ToolInfo) -> Tool:
    """The engine tool for ``info`` on ``server`` (see the module docstring)."""
    config = server.config
    name = tool_name(config.name, info.name)
    shown_to_user = {
        "server": config.name, "tool": info.name, "title": info.title,
        "description": cap(info.description, 4000),
        "read_only_hint": info.read_only_hint, "destructive_hint": info.destructive_hint,
    }

    async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        shown = ctx.state.setdefault(SHOWN_KEY, set())
        if name not in shown:
            shown.add(name)
            hint = (" It says it only reads." if info.read_only_hint else "")
            ctx.report(f"First use of {info.name} from the MCP server {config.name}.{hint} "
                       f"What the server says it does: {cap(info.description, 600) or '(nothing)'}\n")

        async def progress(done: float, total: float | None, message: str | None) -> None:
            amount = f"{done:g}/{total:g}" if total else f"{done:g}"
            ctx.report(f"{message + ' ' if message else ''}({amount})\n")

        def call(session: Any) -> Any:
            return session.call_tool(info.name, args, read_timeout_seconds=config.timeout,
                                     progress_callback=progress)

        try:
            result = await server.request(call, f"the call to {info.name}")
        except McpFailure as exc:
            return ToolResult(str(exc), is_error=True, display={"mcp": shown_to_user})
        except Exception as exc:  # the server answered with an error
            message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            return ToolResult(f"The MCP server {config.name!r} answered with an error: {message}",
                              is_error=True, display={"mcp": shown_to_user})
        text, extras = result_text(result)
        display: dict[str, Any] = {"mcp": shown_to_user}
        if extras:
            display["mcp_content"] = extras
        return ToolResult(text or "(no output)", is_error=bool(result.is_error), display=display)

    return Tool.from_mcp(
        config.name, name=name, description=_description(server, info),
        parameters=_schema(info.schema), handler=handler,
        risk=config.tool_risk.get(info.name),
        tool_key=tool_key(config.name, info.name),  # "always for this tool of this server"
    )


def _schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The server's input schema as the providers take it (an object schema, without
    the keys that only name the schema)."""
    out = {k: v for k, v in schema.items() if k not in ("$schema", "$id")}
    out.setdefault("type", "object")
    if out.get("type") == "object":
        out.setdefault("properties", {})
    return out


def server_tools(server: McpServer) -> list[Tool]:
    """The enabled tools of a ready server."""
    return [make_tool(server, info) for info in server.tools
            if server.config.offers(info.name)]
