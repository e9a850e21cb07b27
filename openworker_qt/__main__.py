"""Entry point: ``openworker-qt`` opens the desktop app; with a command, the CLI."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("app", "gui"):
        try:
            from openworker_qt.app import main as app_main
        except ImportError as exc:  # the desktop layer is optional for headless installs
            if getattr(exc, "name", "") not in ("openworker_qt.app", "PySide6", "qasync"):
                raise
            from openworker_qt.cli import main as cli_main

            print("The desktop app is not available here; showing the command line.\n")
            return cli_main(["--help"])
        return int(app_main(args[1:]))
    from openworker_qt.cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
