"""sed scripts against the real GNU sed: whatever runs a program, writes a file or reads
another file never auto-runs.

A corpus of generated variants (addresses with any delimiter, bracket expressions
holding the delimiter, ``s`` with any delimiter and its flags, ``e w W r R``
commands, blocks, several ``-e`` parts, ``--expression=``) is run by the real
``sed`` in a scratch folder whose input lines are shell commands. A variant that
made a file appear (``e``, ``s///e``, ``w``…) or printed the contents of a file it
was not given (``r``, ``R``) must not be auto-allowed by the checker.
"""

from __future__ import annotations

import itertools
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from openworker_qt.core.shell_policy import check_command
from openworker_qt.core.shell_programs import check_arguments

SED = shutil.which("sed")
pytestmark = pytest.mark.skipif(SED is None, reason="needs sed")

ADDRESSES = [
    "", "1", "$", "2,3", "0,/a/", "1~2", "/a/", "/a/I", "\\%a%", "\\,a,", "\\|a|",
    "/[/]/", "/[]/]/", "/[^/]/", "/[[:alpha:]/]/", "/a\\/b/", "/[/s/]/", "\\,[,],",
    "/[/]/,/x/", "/a/!", "1,+2 !",
]
COMMANDS = [
    "p", "d", "=", "l", "q", "s/a/b/", "s/a/b/g", "s|a|b|g", "s,a,b,2", "s#a#b#p",
    "s/[/]/X/", "s/[]/]/X/", "y/ab/cd/", "{p}", "{p;d}",
    # the ones that run, write or read
    "e touch ran_e", "s/.*/touch ran_s/e", "s|.*|touch ran_s|e", "s,.*,touch ran_s,ge",
    "s/[/]/X/e", "s/a/b/w wrote_s", "s,x,y,w wrote_s", "s/a/b/ w wrote_s",
    "s/a/b/gw wrote_s", "s/a/b/ e", "w wrote_w", "W wrote_W", "r secret.txt",
    "R secret.txt", "{e touch ran_b\n}", "s/[/s/]/e touch ran_x #/g",
    "s/[/s/]/w ../wrote_up #/g", "/[/s/]/e touch ran_y #/g",
]
# The issue's own attacks, verbatim apart from the names.
ATTACKS = ["/[/s/]/e sh evil.sh #/g", "/[/s/]/w ../g"]


def _variants() -> list[list[str]]:
    scripts = [a + c for a, c in itertools.product(ADDRESSES, COMMANDS)] + ATTACKS
    out = [[s, "in.txt"] for s in scripts]
    out += [["-n", s, "in.txt"] for s in scripts[::7]]
    out += [["-E", "-s", "-e", s, "in.txt"] for s in scripts[::5]]
    out += [[f"--expression={s}", "in.txt"] for s in scripts[::6]]
    pairs = list(itertools.product(["p", "s/a/b/", "/[/]/d"], COMMANDS))
    out += [["-e", a, "-e", b, "in.txt"] for a, b in pairs]
    out += [[f"{a};{b}", "in.txt"] for a, b in pairs]
    out += [[f"{a}\n{b}", "in.txt"] for a, b in pairs]
    return out


VARIANTS = _variants()


def _run_sed(args: list[str], root: Path) -> tuple[bool, str]:
    """Run the real sed in a fresh folder: (did it create a file or read the secret?,
    what it printed)."""
    work = root / "ws"
    work.mkdir(parents=True)
    (work / "in.txt").write_text("touch ran_line\na/b]c\ntouch again\n")
    (work / "evil.sh").write_text("touch ran_evil\n")
    (root / "secret.txt").write_text("SECRET-CONTENT\n")
    (work / "secret.txt").symlink_to(root / "secret.txt")
    before = {p for p in root.rglob("*")}
    proc = subprocess.run([SED or "sed", *args], cwd=work, capture_output=True, text=True,
                          timeout=20, stdin=subprocess.DEVNULL)
    after = {p for p in root.rglob("*")}
    return bool(after - before) or "SECRET-CONTENT" in proc.stdout, proc.stdout + proc.stderr


def test_every_variant_that_runs_writes_or_reads_asks(tmp_path: Path) -> None:
    effects = allowed = 0
    for n, args in enumerate(VARIANTS):
        acted, output = _run_sed(args, tmp_path / str(n))
        verdict_table = check_arguments(["sed", *args])
        verdict = check_command(shlex.join(["sed", *args]), ["sed"])
        if acted:
            effects += 1
            assert verdict_table is not None, (args, output)
            assert not verdict.auto, (args, output)
        if verdict_table is None:
            allowed += 1
    # The corpus exercises both sides: sed really ran programs / wrote files, and
    # plain scripts still pass the sed table (the raw-string check also refuses
    # ``;`` and ``$`` anywhere, quotes included).
    assert effects > 100 and allowed > 100, (effects, allowed)


def test_the_issue_attacks_really_act_and_ask(tmp_path: Path) -> None:
    for n, script in enumerate(ATTACKS):
        acted, output = _run_sed([script, "in.txt"], tmp_path / str(n))
        assert acted, output
        verdict = check_command(shlex.join(["sed", script, "in.txt"]), ["sed"])
        assert not verdict.auto and "sed" in verdict.reason


@pytest.mark.parametrize(
    "command",
    [
        "sed -f script.sed in.txt", "sed --file=script.sed in.txt", "sed -i s/a/b/ in.txt",
        "sed --in-place=.bak s/a/b/ in.txt", "sed -ni p in.txt", "sed --in s/a/b/ in.txt",
        "sed --follow-symlinks -i s/a/b/ in.txt", "sed 'a hello' in.txt", "sed ':a;N;ba' in.txt",
        "sed 's/a/b/;w x' in.txt", "sed 's\\a\\b\\' in.txt", "sed 'v' in.txt",
        "sed --expr=p in.txt",
    ],
)
def test_options_and_commands_outside_the_small_set_ask(command: str) -> None:
    assert not check_command(command, ["sed"]).auto


@pytest.mark.parametrize(
    "command",
    [
        "sed -n 1,5p README.md", "sed 's/a/b/g' README.md", "sed -E 's/x+/y/2' README.md",
        "sed -n '/start/,/end/p' README.md", "sed -e 1d -e 2d README.md", "sed -z 's/a/b/' x",
        "sed --posix -s -n 3p a b", "sed --sandbox 's,/usr,/opt,g' x", "sed 's/[0-9]*//' x",
        "sed -n '/[[:digit:]]/p' x", "sed '\\,a,d' x", "sed -e p -e 's/a/b/' x", "sed y/ab/cd/ x",
        "sed '/x/{p}' x", "sed -n '/a/Ip' x", "sed 's/a/b/gI' x", "sed q5 x",
    ],
)
def test_plain_scripts_still_auto_run(command: str) -> None:
    verdict = check_command(command, ["sed"])
    assert verdict.auto, verdict.reason


ATOMS = ["/", "\\", "[", "]", "^", ":", "alpha", ":]", "s", "e", "w", "W", "r", "R", " ", ";",
         "\n", "{", "}", "#", "!", ",", "|", "%", "a", "x", "p", "d", "g", "I", "M", "1", "$",
         "~", "+", "y", "touch ran", " f", "\\n", "\\/", ".*", "q", "l", "=", "0"]


def test_random_scripts_the_checker_accepts_never_act(tmp_path: Path) -> None:
    """Random scripts made of sed's own punctuation and commands (a fixed seed): every
    one the sed table accepts is run by the real sed, and none creates a file."""
    import random

    rnd = random.Random(23)
    accepted = 0
    for n in range(4000):
        script = "".join(rnd.choice(ATOMS) for _ in range(rnd.randint(1, 12)))
        if check_arguments(["sed", "-e", script, "in.txt"]) is not None:
            continue
        accepted += 1
        acted, output = _run_sed(["-e", script, "in.txt"], tmp_path / str(n))
        assert not acted, (script, output)
    assert accepted > 100
