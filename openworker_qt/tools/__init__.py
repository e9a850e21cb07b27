"""Tools the agent can call: callable + JSON schema + risk metadata. No Qt here."""
