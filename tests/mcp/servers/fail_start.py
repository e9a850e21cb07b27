"""Fails before speaking MCP: says why on stderr and exits 1."""
import sys

sys.stderr.write("Error: missing configuration file settings.yaml\n")
sys.exit(1)
