"""Per-program argument checks for allowlisted shell commands: which program gets which check.

Being on the allowlist names a program; it does not make every use of it
harmless: ``find . -delete``, ``git diff --output=~/.bashrc``, ``sort -o x``,
``sed -i`` or ``pytest -p evil`` write, delete or run code. :func:`check_arguments`
says why an allowlisted argv may *not* run without asking, and which of its
arguments are paths (the permission engine then checks that those stay inside
the folders the session may read and outside the sensitive set).

How a program is checked:

* **programs with a table** (every program of the default allowlist and the
  usual read-only tools: ``ls pwd date whoami uname cat head tail wc grep
  egrep fgrep find sort uniq sed tee echo printf git pytest``): every option
  must be one the table knows — an option that executes, deletes or writes is
  refused with its reason, an unknown one (including a GNU-style abbreviation
  such as ``sort --out=x``) is refused as unknown. Arguments and option values
  that name files are returned as paths — the files a program reads through an
  option too (``date -f``/``--file``/``-r``, ``grep -f``/``--exclude-from``,
  ``sort --random-source``, ``find -newer``…). An option that takes the names
  of the files to open from another file (``--files0-from``, ``find
  -files0-from``) or follows symbolic links while it walks a folder (``find
  -L``/``-H``/``-follow``, ``ls -L``, ``grep -R``) is refused: the files it
  reaches cannot be checked.
* ``git``: only read-only subcommands (``status log diff show blame …``;
  ``branch``/``tag``/``stash`` only to list), no ``-c``/``--config-env``/
  ``--exec-path``/pager options, and for each subcommand a deny-list of the
  options that write or run programs (``--output``, ``-o``, ``--ext-diff``,
  ``--open-files-in-pager``, ``--help``); git accepts abbreviated long options,
  so any prefix of a denied option is denied too. (git's option surface is too
  large for an allow-list; a repository's own config can still run programs —
  the permission engine therefore asks before any write into git metadata, and
  through ``git_check`` looks at where the repository's data is — ``-C`` and
  ``--git-dir`` applied — and at its settings before git auto-runs.)
* ``sed``: only scripts :mod:`~openworker_qt.core.shell_sed` reads completely as
  plain print/delete/substitute commands (no ``e w W r R``, no ``s///e`` or
  ``s///w``, bracket expressions read as GNU sed reads them); ``-i`` and script
  files are refused.
* ``printf``: not with ``-v`` (bash's printf assigns a shell variable).
* ``tee``: never (it writes the files it is given).
* ``tar`` (listing only), ``unzip`` (``-l``/``-t``/``-p``), ``jq`` (no ``env``,
  ``$ENV``, modules or program files), ``rg`` (no ``--pre``, ``-z``, ``-L``), ``fd``
  (no ``-x``/``-X``/``-l``), ``npm ls``, ``docker ps/images/version``, read-only
  ``kubectl`` (no secrets), ``man PAGE``.
* :data:`ALWAYS_ASK`: programs that run other programs or code (``env xargs timeout
  nice nohup watch sudo``, shells and interpreters, ``awk``, ``make``, ``npx``,
  ``cargo``…), editors and pagers (``vim -c``, ``less +!``), network tools (``curl
  wget ssh scp rsync``) and ``zip`` (``-TT``): only ``--version``/``--help``.
* **any other program** the user allowlisted: its options are not known, so it
  runs without asking only with no option at all (no argument starting with
  ``-`` or ``+``), and every argument is taken as a path.

Tables are looked up by the program's file name (``/usr/bin/env`` is ``env``).
"""


from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from openworker_qt.core import shell_archives, shell_basics, shell_devtools, shell_git, shell_search
from openworker_qt.core.shell_options import ProgramCheck, by_reason, generic_paths, version_only

PathCheck = Callable[[str], "str | None"]
"""Given a path argument, why it may not be touched without asking (or ``None``)."""

#: The programs with a check of their own, by file name.
PROGRAMS: Mapping[str, ProgramCheck] = {
    **shell_basics.PROGRAMS,
    **shell_git.PROGRAMS,
    **shell_archives.PROGRAMS,
    **shell_search.PROGRAMS,
    **shell_devtools.PROGRAMS,
}

INTERPRETER = "runs whatever program it is given (an interpreter)"
RUNS_COMMANDS = "runs the command it is given"
PROJECT_FILE = ("runs the commands of a project file the assistant can write (a Makefile, "
                "package scripts, a build file)")

#: Programs whose whole job is to run another program, or that run code they
#: are given: they always ask (only their version runs without asking).
ALWAYS_ASK: Mapping[str, str] = by_reason({
    RUNS_COMMANDS: (
        "env", "xargs", "timeout", "nice", "nohup", "watch", "sudo", "doas", "su", "runuser",
        "time", "stdbuf", "setsid", "chroot", "strace", "ltrace", "gdb", "lldb", "flock",
        "ionice", "taskset", "unbuffer", "script", "busybox", "parallel", "chrt", "nsenter",
        "unshare", "firejail", "systemd-run", "caffeinate", "command", "exec", "builtin",
        "entr", "expect", "screen", "tmux", "at", "batch", "crontab", "open", "xdg-open",
        "gio", "start", "run-parts", "sg", "newgrp", "pkexec",
    ),
    INTERPRETER: (
        "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "pwsh",
        "powershell", "node", "nodejs", "deno", "bun", "perl", "ruby", "php", "lua", "luajit",
        "Rscript", "R", "julia", "tclsh", "wish", "osascript", "awk", "gawk", "mawk", "nawk",
        "ipython", "jshell", "groovy", "scala", "elixir", "erl", "ghci", "runghc",
        "irb", "pypy", "uv", "uvx", "pipx", "poetry", "pdm", "hatch", "tox", "nox",
        "conda", "mamba", "python", "sqlite", "duckdb", "m4", "dc", "gnuplot", "octave",
        "matlab", "tex", "latex", "pdflatex", "xelatex", "lualatex", "latexmk", "luatex",
        "sage", "maxima", "swipl", "racket", "guile", "sbcl", "clisp", "ocaml", "gforth",
    ),
    PROJECT_FILE: (
        "make", "gmake", "cmake", "ninja", "npx", "yarn", "pnpm", "cargo", "go", "gradle",
        "mvn", "ant", "rake", "bundle", "just", "task", "meson", "bazel", "pip", "pip3",
        "gem", "composer",
    ),
    "is an editor or pager, which can run commands": (
        "vim", "vi", "nvim", "view", "ex", "nano", "pico", "emacs", "ed", "less", "more",
        "most", "pg", "mc", "ranger",
    ),
    "reaches other machines, which this check cannot judge": (
        "curl", "wget", "ssh", "sftp", "nc", "ncat", "netcat", "socat",
        "telnet", "ftp", "aria2c", "httpie", "http", "https",
    ),
    "copies files (it writes) and can reach other machines": (
        "rsync", "scp", "cp", "mv", "install",
    ),
    "changes files (only commands that read run without asking)": (
        "rm", "rmdir", "mkdir", "touch", "ln", "link", "unlink", "chmod", "chown", "chgrp",
        "chattr", "truncate", "dd", "shred", "split", "csplit", "patch", "mkfifo", "mknod",
        "mktemp", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4",
        "7z", "7za", "unrar", "ar", "convert", "magick", "mogrify", "pandoc", "sponge",
        "setfacl", "rename",
    ),
    "changes the system or other programs": (
        "kill", "pkill", "killall", "shutdown", "reboot", "systemctl", "service", "launchctl",
        "apt", "apt-get", "dpkg", "brew", "yum", "dnf", "pacman", "snap", "flatpak", "mount",
        "umount", "defaults", "code", "gsettings", "dconf",
    ),
    "reaches other machines or accounts, which this check cannot judge": (
        "gh", "glab", "aws", "gcloud", "az", "helm", "terraform", "pulumi", "ansible",
        "ansible-playbook", "podman", "docker-compose", "hg", "svn", "redis-cli", "mysql",
        "psql", "mongo", "mongosh",
    ),
    "writes an archive (and -TT runs a program)": ("zip",),
})
_VERSION_SUFFIX = re.compile(r"[0-9][0-9.\-]*$")  # ``python3.11``, ``node18``, ``lua5.4``


GitCheck = Callable[[str, "str | None"], "str | None"]
"""Given the folder a git command starts in and its ``--git-dir`` (or ``None``), why
it may not run without asking (or ``None``)."""


def check_arguments(argv: Sequence[str], path_check: PathCheck | None = None,
                    git_check: GitCheck | None = None) -> str | None:
    """Why the allowlisted ``argv`` must ask, or ``None`` when it may auto-run.

    ``argv`` is what the program receives (see
    :func:`~openworker_qt.core.shell_policy.shell_words`).
    ``path_check`` (from the permission engine) judges every path argument; without
    it only the options are checked.
    """
    if not argv:
        return "the command is empty"
    program, args = argv[0], list(argv[1:])
    name = program.rsplit("/", 1)[-1]  # ``/usr/bin/env`` is env
    checker = PROGRAMS.get(name)
    if checker is None:
        base = name if name in ALWAYS_ASK else _VERSION_SUFFIX.sub("", name).rstrip("-")
        if base in ALWAYS_ASK:
            checker = version_only(ALWAYS_ASK[base])
    result = checker(args, program) if checker else generic_paths(args, program)
    if result.reason:
        return result.reason
    if path_check is not None:
        for raw in result.paths:
            problem = path_check(literal_path(raw))
            if problem:
                return problem
    if git_check is not None and result.git_repo is not None:
        return git_check(*result.git_repo)
    return None


def literal_path(arg: str) -> str:
    """A path argument as the program reads it. ``argv`` is what the program
    receives — the shell has already expanded every ``~`` it expands — so a ``~``
    still leading a path (``-f~/x``, ``--file=~/x``) names a folder called ``~``
    in the working directory, never the home folder."""
    return "./" + arg if arg.startswith("~") else arg
