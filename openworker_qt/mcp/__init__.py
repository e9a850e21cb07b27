"""MCP client: config, stdio and HTTP transports, OAuth. No Qt here."""
