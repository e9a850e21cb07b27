"""Fails its first start (the file named by argv[1] counts the starts), then
serves like behave.py."""
import runpy
import sys
from pathlib import Path

counter = Path(sys.argv[1])
starts = int(counter.read_text()) if counter.exists() else 0
counter.write_text(str(starts + 1))
if starts == 0:
    sys.stderr.write("not ready yet: the database is still starting\n")
    sys.exit(1)
sys.argv = [str(Path(__file__).with_name("behave.py"))]
runpy.run_path(sys.argv[0], run_name="__main__")
