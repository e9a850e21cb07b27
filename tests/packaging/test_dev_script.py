"""scripts/dev on a fresh Debian/Ubuntu machine, driven through its own functions.

The script is sourced by a real bash with a PATH that holds only a few real tools and
stand-ins for the machine: a ``dpkg-query`` that answers ``-W -f=FORMAT`` from a package
table (status, provides) the way dpkg formats it, an ``apt-get`` that records its calls
and "installs" into that table (resolving a virtual name to its provider, as apt does),
``id -u``, optionally ``sudo``, and pythons that report a chosen version. The venv
checks use the real interpreter.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEV = REPO / "scripts" / "dev"
REAL_TOOLS = ["bash", "sh", "awk", "dirname", "rm", "mkdir", "env", "cat", "touch", "ln"]

FAKE_DPKG_QUERY = r'''
import json, os, re, sys
db = json.load(open(os.environ["FAKE_DPKG_DB"]))
args = sys.argv[1:]
assert args[0] == "-W" and args[1].startswith("-f="), args
fmt = args[1][3:].encode().decode("unicode_escape")
names = args[2:] or sorted(db)
rc = 0
for name in names:
    if name not in db:
        print(f"dpkg-query: no packages found matching {name}", file=sys.stderr)
        rc = 1
        continue
    entry = db[name]
    fields = {
        "Package": name,
        "db:Status-Abbrev": "ii " if entry["installed"] else "un ",
        "Status": "install ok installed" if entry["installed"] else "unknown ok not-installed",
        "Provides": ", ".join(f"{p} (= 1.0)" for p in entry.get("provides", [])),
    }
    sys.stdout.write(re.sub(r"\$\{([^}]+)\}", lambda m: fields[m.group(1)], fmt))
sys.exit(rc)
'''

FAKE_APT_GET = r'''
import json, os, stat, sys
log, dbfile = os.environ["FAKE_APT_LOG"], os.environ["FAKE_DPKG_DB"]
with open(log, "a") as f:
    f.write(json.dumps({"argv": sys.argv[1:], "frontend": os.environ.get("DEBIAN_FRONTEND")}) + "\n")
if "install" in sys.argv:
    db = json.load(open(dbfile))
    archive = json.loads(os.environ.get("FAKE_APT_ARCHIVE", "{}"))
    for name in [a for a in sys.argv[sys.argv.index("install") + 1:] if not a.startswith("-")]:
        real = archive.get(name, {"package": name})
        db[real["package"]] = {"installed": True, "provides": real.get("provides", [])}
        if name == "python3":  # the distribution's Python 3.11 arrives on PATH
            exe = os.path.join(os.environ["FAKE_BIN"], "python3")
            with open(exe, "w") as f:
                f.write(os.environ["FAKE_PYTHON311"])
            os.chmod(exe, os.stat(exe).st_mode | stat.S_IEXEC)
    json.dump(db, open(dbfile, "w"))
'''


def fake_python(version: str, prefix: str = "/usr", shared: int = 1,
                venv_fails: bool = False) -> str:
    """A python that reports a version; ``-m venv`` can fail half-way like Debian's
    without python3-venv (the folder is made, ensurepip is missing, exit 1)."""
    venv = ('mkdir -p "$3/bin"; ln -s /nonexistent/python "$3/bin/python"; '
            'echo "The virtual environment was not successfully created because ensurepip '
            'is not available." >&2; exit 1' if venv_fails else 'exit 3')
    return textwrap.dedent(f"""\
        #!/bin/sh
        if [ "$1" = -m ] && [ "$2" = venv ]; then {venv}; fi
        echo "{version} {prefix} {shared}"
        """)


@dataclass
class Machine:
    root: Path
    bin: Path
    db: Path
    apt_log: Path
    env: dict[str, str]

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bin = root / "bin"
        self.bin.mkdir()
        self.db = root / "dpkg.json"
        self.apt_log = root / "apt.log"
        for tool in REAL_TOOLS:
            found = shutil.which(tool)
            assert found, tool
            (self.bin / tool).symlink_to(found)
        self.script("dpkg-query", f"#!{sys.executable}\n{FAKE_DPKG_QUERY}")
        self.script("apt-get", f"#!{sys.executable}\n{FAKE_APT_GET}")
        self.script("id", '#!/bin/sh\n[ "$1" = -u ] && echo "${FAKE_UID:-0}"\n')
        self.env = {
            "PATH": str(self.bin), "HOME": str(root), "LANG": "C.UTF-8",
            "FAKE_DPKG_DB": str(self.db), "FAKE_APT_LOG": str(self.apt_log),
            "FAKE_BIN": str(self.bin), "FAKE_PYTHON311": fake_python("3.11"),
        }
        self.packages({})

    def script(self, name: str, text: str) -> Path:
        path = self.bin / name
        path.write_text(text)
        path.chmod(0o755)
        return path

    def packages(self, db: dict[str, dict[str, object]]) -> None:
        self.db.write_text(json.dumps(db))

    def installed(self) -> set[str]:
        db: dict[str, dict[str, object]] = json.loads(self.db.read_text())
        return {name for name, entry in db.items() if entry["installed"]}

    def apt_calls(self) -> list[dict[str, object]]:
        if not self.apt_log.exists():
            return []
        return [json.loads(line) for line in self.apt_log.read_text().splitlines()]

    def run(self, shell: str, **env: str) -> subprocess.CompletedProcess[str]:
        """Source scripts/dev in a bash with this machine's PATH, then run ``shell``."""
        return subprocess.run(
            [str(self.bin / "bash"), "-c", f'source "{DEV}"\n{shell}'],
            cwd=self.root, capture_output=True, text=True, timeout=120,
            env={**self.env, **env},
        )


def system_packages() -> list[str]:
    done = subprocess.run(["bash", "-c", f'source "{DEV}"; printf "%s\\n" "${{SYSTEM_PACKAGES[@]}}"'],
                          capture_output=True, text=True, check=True, timeout=30)
    return done.stdout.split()


def everything_but(*missing: str, noble: bool = False) -> dict[str, dict[str, object]]:
    db: dict[str, dict[str, object]] = {
        name: {"installed": name not in missing} for name in system_packages()
    }
    db["python3.12-venv"] = {"installed": "python3.12-venv" not in missing}
    db["python3.11-venv"] = {"installed": "python3.11-venv" not in missing}
    if noble:  # Ubuntu 24.04's 64-bit time_t names; the old names are only provided
        del db["libglib2.0-0"]
        db["libglib2.0-0t64"] = {"installed": True, "provides": ["libglib2.0-0"]}
        db["libpython3.12t64"] = {"installed": True, "provides": ["libpython3.12"]}
    else:
        db["libpython3.11"] = {"installed": "libpython3.11" not in missing}
    return db


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path)


def test_ubuntu_noble_names_provided_by_t64_packages_are_installed(machine: Machine) -> None:
    machine.script("python3", fake_python("3.12"))
    machine.packages(everything_but(noble=True))
    done = machine.run("install_system", FAKE_UID="1000")  # not root, no sudo: must not need them
    assert done.returncode == 0, done.stderr
    assert machine.apt_calls() == []
    assert done.stdout == "" and done.stderr == ""


def test_missing_packages_are_installed_once_with_the_distribution_python_extras(
        machine: Machine) -> None:
    machine.script("python3", fake_python("3.12"))
    db = everything_but("binutils", "python3.12-venv", noble=True)
    del db["libpython3.12t64"]
    machine.packages(db)
    archive = {"libpython3.12": {"package": "libpython3.12t64", "provides": ["libpython3.12"]}}
    env = {"FAKE_APT_ARCHIVE": json.dumps(archive)}
    first = machine.run("install_system", **env)
    assert first.returncode == 0, first.stderr
    calls = machine.apt_calls()
    assert [c["argv"][0] for c in calls] == ["update", "install"]
    install = calls[1]
    assert install["frontend"] == "noninteractive"
    assert [a for a in install["argv"] if not a.startswith("-")] == [
        "install", "binutils", "python3.12-venv", "libpython3.12"]
    assert "libpython3.12t64" in machine.installed()
    again = machine.run("install_system", **env)
    assert again.returncode == 0, again.stderr
    assert len(machine.apt_calls()) == 2  # nothing left to install, apt is not called again


def test_without_root_or_sudo_the_exact_apt_command_is_printed(machine: Machine) -> None:
    machine.script("python3", fake_python("3.11"))
    machine.packages(everything_but("binutils", "libpython3.11", "xvfb"))
    done = machine.run("install_system", FAKE_UID="1000")
    assert done.returncode == 1
    assert "apt-get install --no-install-recommends xvfb binutils libpython3.11\n" in done.stderr
    assert "not root" in done.stderr
    assert "command not found" not in done.stderr
    assert machine.apt_calls() == []


def test_a_user_with_sudo_installs_through_sudo(machine: Machine) -> None:
    machine.script("python3", fake_python("3.11"))
    machine.packages(everything_but("binutils"))
    sudo_log = machine.root / "sudo.log"
    machine.script("sudo", f'#!/bin/sh\necho "$*" >> "{sudo_log}"\nexec "$@"\n')
    done = machine.run("install_system", FAKE_UID="1000")
    assert done.returncode == 0, done.stderr
    lines = sudo_log.read_text().splitlines()
    assert lines[0] == "apt-get update -qq"
    assert lines[1].startswith("env DEBIAN_FRONTEND=noninteractive apt-get install")
    assert lines[1].endswith(" binutils")
    assert machine.apt_calls()[1]["frontend"] == "noninteractive"


def test_a_machine_without_python_gets_the_distributions_and_then_its_libpython(
        machine: Machine) -> None:
    machine.packages(everything_but("libpython3.11", "python3.11-venv"))
    done = machine.run("install_system")
    assert done.returncode == 0, done.stderr
    installs = [[a for a in c["argv"][1:] if not a.startswith("-")]
                for c in machine.apt_calls() if c["argv"][0] == "install"]
    assert installs == [["python3", "python3-venv"], ["python3.11-venv", "libpython3.11"]]


def test_an_old_python3_falls_back_to_a_newer_one_on_path(machine: Machine) -> None:
    machine.script("python3", fake_python("3.10"))
    newer = machine.script("python3.12", fake_python("3.12"))
    machine.script("python3.11", fake_python("3.11"))
    done = machine.run("find_python")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(newer)


def test_only_an_old_python_is_a_clear_error(machine: Machine) -> None:
    machine.script("python3", fake_python("3.10"))
    done = machine.run("install_python")
    assert done.returncode == 1
    assert "needs Python 3.11 or newer, and python3 is Python 3.10" in done.stderr
    assert "PYTHON=" in done.stderr
    old = machine.script("py39", fake_python("3.9"))
    machine.script("python3", fake_python("3.12"))
    done = machine.run("install_python", PYTHON=str(old))
    assert done.returncode == 1
    assert f"PYTHON={old} is Python 3.9" in done.stderr
    assert not (machine.root / ".venv").exists()


def test_a_failed_venv_creation_leaves_nothing_behind(machine: Machine) -> None:
    py = machine.script("python3", fake_python("3.12", venv_fails=True))
    venv = machine.root / "venv"
    done = machine.run(f'VENV="{venv}"; make_venv "{py}"')
    assert done.returncode == 1
    assert "ensurepip is not available" in done.stderr  # Python's own words are shown
    assert "install python3.12-venv" in done.stderr
    assert not venv.exists()


def base_python() -> str:
    """The interpreter this venv was made from (a venv can't be copied into another)."""
    exe = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    assert exe.exists(), exe
    return str(exe)


@pytest.mark.parametrize("damage", ["no-pip", "dangling-python"])
def test_a_half_made_venv_is_rebuilt(machine: Machine, damage: str) -> None:
    venv = machine.root / "venv"
    if damage == "no-pip":  # what `python3 -m venv` leaves without python3-venv
        subprocess.run([base_python(), "-m", "venv", "--without-pip", str(venv)],
                       check=True, timeout=120)
    else:
        (venv / "bin").mkdir(parents=True)
        (venv / "bin" / "python").symlink_to("/nonexistent/python3")
    (venv / ".installed").touch()  # a stamp from an earlier run must not survive
    done = machine.run(f'VENV="{venv}"; make_venv "{base_python()}"')
    assert done.returncode == 0, done.stderr
    assert "is incomplete" in done.stdout
    assert not (venv / ".installed").exists()
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "--version"],
                         capture_output=True, text=True, timeout=60)
    assert pip.returncode == 0, pip.stderr
    again = machine.run(f'VENV="{venv}"; make_venv "{base_python()}"')  # a good one is kept
    assert again.returncode == 0 and "incomplete" not in again.stdout


def test_pip_errors_are_shown_and_success_is_quiet(machine: Machine) -> None:
    venv = machine.root / "venv"
    (venv / "bin").mkdir(parents=True)
    pip_log = machine.root / "pip.log"
    machine.script("python3", fake_python("3.12"))
    fake_venv_python = textwrap.dedent(f"""\
        #!/bin/sh
        if [ "$1" = -c ]; then echo "3.12 /usr 1"; exit 0; fi
        echo "$*" >> "{pip_log}"
        case "$*" in
          "-m pip --version") echo "pip 23.0.1 from {venv}" ;;
          *"--upgrade pip"*) echo "ERROR: No matching distribution found for pip" >&2; exit 1 ;;
          *) exit 0 ;;
        esac
        """)
    (venv / "bin" / "python").write_text(fake_venv_python)
    (venv / "bin" / "python").chmod(0o755)
    done = machine.run(f'VENV="{venv}"; install_python')
    assert done.returncode == 0, done.stderr
    assert "ERROR: No matching distribution found for pip" in done.stderr
    assert "could not upgrade pip" in done.stderr and "pip 23.0.1" in done.stderr
    assert any(line.startswith("-m pip install -q -e ") and line.endswith("[dev]")
               for line in pip_log.read_text().splitlines())
    assert (venv / ".installed").exists()
    # A good pip: not a word.
    good = fake_venv_python.replace(
        'echo "ERROR: No matching distribution found for pip" >&2; exit 1', "exit 0")
    assert good != fake_venv_python
    (venv / "bin" / "python").write_text(good)
    (venv / ".installed").unlink()
    quiet = machine.run(f'VENV="{venv}"; install_python')
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout == "" and quiet.stderr == ""


def test_ci_and_readme_run_the_same_two_commands() -> None:
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert ci[-1] == "exec scripts/dev test"
    readme = (REPO / "README.md").read_text()
    assert "scripts/dev app  " in readme and "scripts/dev test  " in readme
    dev = DEV.read_text()
    assert 'timeout --kill-after=30 1800 "$VENV/bin/python" -m pytest ${parallel[@]+' in dev
    assert 'parallel=(-n "$OPENWORKER_TEST_WORKERS" --dist loadfile)' in dev
    dev_extra = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    assert any(r.startswith("pytest-xdist") for r in dev_extra)  # what -n needs, on a fresh machine
    assert os.access(DEV, os.X_OK)


def test_the_licence_is_an_spdx_expression_for_a_setuptools_that_reads_it() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert pyproject["project"]["license"] == "Apache-2.0"
    requires = pyproject["build-system"]["requires"]
    assert "setuptools>=77" in requires
