"""Entry point: ``openworker-qt`` opens the desktop app (``openworker-qt FILE…`` opens
it with those files and folders attached); with a command, the CLI."""

from __future__ import annotations

import os
import sys

NO_DISPLAY = (
    "OpenWorker Qt needs a graphical session, and none was found (neither DISPLAY nor "
    "WAYLAND_DISPLAY is set).\n"
    "On a server or over SSH, use the command line instead: openworker-qt run \"…\" "
    "(see openworker-qt --help),\n"
    "or run the window without a screen with QT_QPA_PLATFORM=offscreen.\n"
)


def _no_display() -> bool:
    """On Linux/BSD, Qt aborts with a misleading plugin error when there is no display."""
    if sys.platform in ("darwin", "win32") or os.environ.get("QT_QPA_PLATFORM"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _files_to_open(args: list[str]) -> list[str] | None:
    """``openworker-qt FILE…`` (the .desktop file's ``Exec=openworker-qt %F``, a file
    manager's "Open with"): existing files and folders to open the app with, made
    absolute (a running app, handed them, has another working folder). ``None`` when
    ``args`` are a command line for the CLI: a command's name wins over a path."""
    options = [a for a in args if a.startswith("-")]
    paths = [a for a in args if not a.startswith("-")]
    if not paths or any(o != "--new-instance" for o in options):
        return None
    if not all(os.path.exists(p) for p in paths):
        return None
    from openworker_qt.cli import commands

    if paths[0] in commands():
        return None
    return [*options, *(os.path.abspath(p) for p in paths)]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if (files := _files_to_open(args)) is not None:
        args = ["app", *files]
    if not args or args[0] in ("app", "gui"):
        if _no_display():
            sys.stderr.write(NO_DISPLAY)
            return 2
        try:
            from openworker_qt.launch import main as app_main
        except ImportError as exc:  # the desktop layer is optional for headless installs
            if getattr(exc, "name", "") not in ("openworker_qt.app", "openworker_qt.launch", "PySide6",
                                                  "qasync"):
                raise
            from openworker_qt.cli import main as cli_main

            print("The desktop app is not available here; showing the command line.\n")
            return cli_main(["--help"])
        return int(app_main(args[1:]))
    from openworker_qt.cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
