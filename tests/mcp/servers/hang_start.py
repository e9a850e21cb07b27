"""Reads stdin and never answers, not even initialize."""
import sys

sys.stderr.write("listening...\n")
sys.stderr.flush()
for _line in sys.stdin:
    pass
