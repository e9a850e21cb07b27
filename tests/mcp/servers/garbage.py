"""Prints things that are not JSON-RPC on stdout (a log line, a banner) and never
answers properly."""
import sys

print("Welcome to the Example Server v1.2!", flush=True)
for _line in sys.stdin:
    print("<html>not json</html>", flush=True)
    print('{"jsonrpc": "2.0", "oops": true}', flush=True)
    sys.stderr.write("got a request I do not understand\n")
    sys.stderr.flush()
