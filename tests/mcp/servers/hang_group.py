"""Never answers initialize, ignores the end of its stdin, and starts a child that
ignores SIGTERM (as ``npx`` starting ``node`` would, the child keeps the pipes).
Writes "<its pid> <the child's pid>" to the file named by its first argument."""
import signal
import subprocess
import sys
import time

child = subprocess.Popen([sys.executable, "-c",
                          "import signal, time\n"
                          "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                          "time.sleep(3600)\n"])
signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open(sys.argv[1], "w") as f:
    f.write(f"{__import__('os').getpid()} {child.pid}")
sys.stderr.write("listening...\n")
sys.stderr.flush()
for _line in sys.stdin:
    pass
time.sleep(3600)
