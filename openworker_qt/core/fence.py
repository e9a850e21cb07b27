"""The fixed parts of the fence: what is not a path, what the agent never writes,
what it never reads without asking.

Three sets, all pure functions of a path (and of ``$HOME`` and the app's own
directories, re-read on every call):

* **not a path** — URL-shaped strings (``file:///etc/passwd``, ``http://…``,
  ``smb://…``, any ``scheme://``) and strings holding a NUL character: the file
  tools and the permission engine refuse them (instead of making a folder named
  ``file:``, or calling a NUL "outside the roots");
* **app state** — the app's config, data, log and cache folders (so the
  database and its ``-wal``/``-shm`` files), every ``.openworker`` folder
  anywhere — also wherever a ``.openworker`` symlink leads (one in a folder on
  the way, in the workspace or a writable root) — and the OS key stores. A
  write there is refused in every mode, whatever root or approval covers it: it
  is how a model would lift its own fence (a workspace
  ``.openworker/config.toml``, the standing-rule table);
* **sensitive** — credentials and profiles by location (``~/.ssh``, ``~/.aws``,
  ``~/.gnupg``, ``~/.pgpass``, ``~/.cargo/credentials.toml``, a Hugging Face
  token, cloud, container and package-registry configs, browser profiles, key
  stores, ``/etc/shadow``, the app's data folder and database) and by name
  anywhere, inside the workspace too (:func:`credential_name_reason`: ``.env``
  files, shell histories, ``.netrc``-style files, keys and certificates,
  ``*token*``/``*secret*``/``*credentials*`` data files). A read there always
  asks the user, in every mode, even inside a read root; no "always" answer is
  offered;
* **git metadata** (:func:`git_metadata_reason`) — ``.git`` and everything in
  it, any other repository data folder, ``.gitmodules``, ``.gitattributes``: a
  write there always asks, in every mode.

Each check looks at both the path as written (``~`` expanded, ``..`` folded)
and the path with every symlink resolved, against both forms of each entry, so
neither a symlink to ``~/.ssh`` nor a ``~/.ssh`` that is itself a symlink
slips through.

Paths are resolved afresh on every check, never cached (a symlink swapped
between two checks is seen by the second). On Linux an existing path is
resolved by the kernel (:func:`real_path`: the path of an ``O_PATH``
descriptor, three system calls) instead of one ``lstat`` and a readlink per
component in Python; anything else takes the portable way.
"""

from __future__ import annotations

import functools
import os
import re
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from openworker_qt.core.gitdirs import is_git_dir
from openworker_qt.storage.paths import AppPaths, app_paths

# A scheme of two or more characters (so ``C://`` stays a Windows drive) then ``://``;
# ``file:`` alone is refused too (``file:/etc/passwd``).
_URL = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.\-]+)://|^\s*(file):", re.IGNORECASE)

STATE_DIR_NAME = ".openworker"

# Key stores: never written, never read without asking.
KEY_STORES_HOME: tuple[str, ...] = (
    ".local/share/keyrings",
    "Library/Keychains",
    ".password-store",
)
KEY_STORES_ABSOLUTE: tuple[str, ...] = ("/Library/Keychains",)

# System files that hold password hashes or host keys.
SENSITIVE_ABSOLUTE: tuple[str, ...] = (
    "/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/ssh",
    "/etc/ssl/private", "/etc/sudoers", "/etc/sudoers.d", "/root",
)

# Relative to the home folder: credentials, tokens and browser profiles of common
# tools. (Files are also caught anywhere by name: :func:`credential_name_reason`.)
SENSITIVE_HOME: tuple[str, ...] = (
    ".ssh",
    ".aws",
    ".azure",
    ".gnupg",
    ".config/gcloud",
    ".kube",
    ".docker",
    ".netrc",
    ".git-credentials",
    ".config/git/credentials",
    ".config/gh",
    ".config/hub",
    ".pypirc",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".gem/credentials",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".m2/settings.xml",
    ".m2/settings-security.xml",
    ".gradle/gradle.properties",
    ".pgpass",
    ".my.cnf",
    ".mylogin.cnf",
    ".vault-token",
    ".s3cfg",
    ".boto",
    ".databrickscfg",
    ".config/rclone",
    ".cache/huggingface/token",
    ".cache/huggingface/stored_tokens",
    ".huggingface/token",
    ".terraform.d/credentials.tfrc.json",
    ".terraformrc",
    ".oci",
    ".config/doctl",
    ".config/op",
    ".op",
    ".config/Bitwarden CLI",
    ".config/configstore",
    ".config/heroku",
    ".config/netlify",
    ".local/share/com.vercel.cli",
    ".fly",
    ".wrangler",
    ".config/hcloud",
    ".ibmcloud",
    ".bluemix",
    ".config/sops",
    ".sops",
    ".age",
    ".config/age",
    ".electrum",
    ".bitcoin",
    ".ethereum",
    ".thunderbird",
    ".local/share/fish/fish_history",
    # browser profiles
    ".mozilla",
    "snap/firefox",
    "snap/chromium",
    ".var/app/org.mozilla.firefox",
    ".var/app/com.google.Chrome",
    ".var/app/org.chromium.Chromium",
    ".config/google-chrome",
    ".config/chromium",
    ".config/BraveSoftware",
    ".config/microsoft-edge",
    ".config/vivaldi",
    ".config/opera",
    "Library/Application Support/Google/Chrome",
    "Library/Application Support/Firefox",
    "Library/Application Support/BraveSoftware",
    "Library/Application Support/Microsoft Edge",
    "Library/Application Support/Chromium",
    "Library/Safari",
    "Library/Cookies",
    *KEY_STORES_HOME,
)

# Windows: under %APPDATA% / %LOCALAPPDATA% when those are set.
_SENSITIVE_APPDATA: tuple[tuple[str, str], ...] = (
    ("APPDATA", "Mozilla/Firefox"),
    ("APPDATA", "Microsoft/Credentials"),
    ("APPDATA", "Microsoft/Protect"),
    ("LOCALAPPDATA", "Google/Chrome/User Data"),
    ("LOCALAPPDATA", "Microsoft/Edge/User Data"),
    ("LOCALAPPDATA", "Microsoft/Credentials"),
)
_KEY_STORES_APPDATA = (
    ("APPDATA", "Microsoft/Credentials"),
    ("APPDATA", "Microsoft/Protect"),
    ("LOCALAPPDATA", "Microsoft/Credentials"),
)

_CASELESS = sys.platform in ("darwin", "win32")


def url_scheme(raw: str) -> str | None:
    """The scheme of a URL-shaped string (``file``, ``http``…), else ``None``."""
    m = _URL.match(raw)
    if m is None:
        return None
    return (m.group(1) or m.group(2)).lower()


def not_a_path(raw: str) -> str | None:
    """Why ``raw`` is not a path (it holds a NUL character or is URL-shaped), or
    ``None`` if it may be one."""
    if "\0" in raw:
        return f"{raw!r} is not a valid path (contains a NUL character)"
    scheme = url_scheme(raw)
    if scheme is None:
        return None
    return (
        f"'{raw}' is a {scheme}: URL, not a path. The file tools only take paths on "
        "this computer (e.g. /home/me/notes.txt or notes.txt)"
    )


_SEPARATORS = "/\\" if os.name == "nt" else "/"


def names_a_folder(raw: str) -> bool:
    """``raw`` is written as a folder: it ends with a separator, ``.`` or ``..``
    (``notes/``, ``.``, ``src/..``), whether or not that folder exists."""
    tail = re.split(f"[{re.escape(_SEPARATORS)}]", raw)[-1]
    return tail in ("", ".", "..")


def home() -> Path:
    return Path(os.path.expanduser("~"))


def _fold(p: str) -> str:
    return p.casefold() if _CASELESS else p


def lexical(raw: str, base: Path) -> Path:
    """``raw`` made absolute against ``base`` with ``~`` expanded and ``..`` folded
    (no symlink resolved)."""
    p = os.path.expanduser(raw)
    if not os.path.isabs(p):
        p = os.path.join(base, p)
    return Path(os.path.normpath(p))


_O_PATH: int | None = getattr(os, "O_PATH", None) if sys.platform == "linux" else None


def _kernel_realpath(path: str) -> str | None:
    """Where ``path`` really is, as the kernel names an ``O_PATH`` descriptor of it
    (every symlink followed, ``..`` applied after them, as :func:`os.path.realpath`
    does). A path whose last component does not exist (and is not a dangling
    symlink either) is its parent's real path joined with that name, as
    ``realpath`` makes it. ``None`` when the kernel cannot say — a dangling
    symlink, no ``/proc``, not Linux — and the caller resolves the portable way.
    An ``O_PATH`` open reads nothing and never blocks (FIFOs and devices too)."""
    if _O_PATH is None:
        return None
    try:
        fd = os.open(path, _O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        return _missing_leaf(path)
    except (OSError, ValueError):
        return None
    try:
        real = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
    finally:
        os.close(fd)
    if not real.startswith("/") or real.endswith(" (deleted)"):
        return None  # not a path (a socket…) or removed meanwhile: ask the portable way
    return real


def _missing_leaf(path: str) -> str | None:
    head, leaf = os.path.split(path)
    if not leaf or leaf in (".", "..") or not head or head == path:
        return None
    try:
        os.lstat(path)
    except FileNotFoundError:
        pass  # nothing by that name: not even a dangling symlink
    except (OSError, ValueError):
        return None
    else:
        return None  # a dangling symlink: where it points is resolved the portable way
    parent = _kernel_realpath(head)
    return None if parent is None else os.path.join(parent, leaf)


def real_path(path: str | Path) -> Path:
    """``Path(path).resolve()`` (absolute ``path``), quicker for an existing path on
    Linux (see :func:`_kernel_realpath`). Raises as :meth:`Path.resolve` does."""
    fast = _kernel_realpath(str(path))
    return Path(fast) if fast is not None else Path(path).resolve()


def resolved(raw: str | Path, base: Path) -> Path | None:
    """``raw`` with symlinks and ``..`` resolved (``None`` if it cannot be)."""
    try:
        p = os.path.expanduser(str(raw))
        if not os.path.isabs(p):
            p = os.path.join(base, p)
        return real_path(p)
    except (OSError, RuntimeError, ValueError):
        return None


def forms_and_real(raw: str, base: Path) -> tuple[list[Path], Path | None]:
    """:func:`path_forms` and the resolved path (``None`` if it cannot be resolved)."""
    p = os.path.expanduser(raw)
    if not os.path.isabs(p):
        p = os.path.join(base, p)
    written = os.path.normpath(p)
    out = [Path(written)]
    try:
        fast = _kernel_realpath(p)
        if fast == written:
            return out, out[0]
        real: Path | None = Path(fast) if fast is not None else Path(p).resolve()
    except (OSError, RuntimeError, ValueError):
        real = None
    if real is not None and real != out[0]:
        out.append(real)
    return out, real


def path_forms(raw: str, base: Path) -> list[Path]:
    """The path as written (``~`` expanded, ``..`` folded) and as resolved; the
    resolved form, when there is one, comes last."""
    return forms_and_real(raw, base)[0]


# How long the resolved form of a set's entries is reused (re-resolving ~40 entries
# costs a few hundred microseconds; a tool loop checks many calls a second).
RESOLVE_TTL = 2.0
_COMPILED: dict[tuple[str, ...], tuple[float, dict[str, str]]] = {}
#: The last set asked for (compared by identity), when it was compiled, its table.
_LAST: tuple[tuple[str, ...] | None, float, dict[str, str]] = (None, 0.0, {})


def forget_resolved() -> None:
    """Drop the remembered resolution of every set (the next check re-resolves)."""
    global _LAST
    _COMPILED.clear()
    _LAST = (None, 0.0, {})


def _compiled(bases: tuple[str, ...]) -> dict[str, str]:
    """Each base as written and as resolved -> the base. The written form always
    counts; the resolved one is re-computed at most every :data:`RESOLVE_TTL` s."""
    global _LAST
    now = time.monotonic()
    last, when, known = _LAST
    if last is bases and now - when < RESOLVE_TTL:
        return known
    hit = _COMPILED.get(bases)
    if hit is not None and now - hit[0] < RESOLVE_TTL:
        _LAST = (bases, hit[0], hit[1])
        return hit[1]
    table: dict[str, str] = {}
    for base in bases:
        lex = os.path.normpath(os.path.expanduser(base))
        table.setdefault(_fold(lex), base)
        try:
            real = os.path.realpath(lex)
        except (OSError, ValueError):
            continue
        table.setdefault(_fold(real), base)
    if len(_COMPILED) > 64:
        _COMPILED.clear()
    _COMPILED[bases] = (now, table)
    _LAST = (bases, now, table)
    return table


def _ancestors(path: str) -> list[str]:
    out = [path]
    while True:
        parent = os.path.dirname(path)
        if parent == path:
            return out
        out.append(parent)
        path = parent


def within_any(forms: Sequence[Path], bases: Iterable[Path | str]) -> str | None:
    """The base (as given) that one of ``forms`` is, or lies below; else ``None``.
    Compares components, both the written and the resolved form of each base;
    caseless on macOS and Windows."""
    key: tuple[str, ...]
    if bases is _LAST[0] or _str_tuple(bases):
        key = bases  # type: ignore[assignment]
    else:
        key = tuple(str(b) for b in bases)
    table = _compiled(key)
    if not table:
        return None
    for form in forms:
        for ancestor in _ancestors(_fold(os.path.normpath(str(form)))):
            hit = table.get(ancestor)
            if hit is not None:
                return hit
    return None


def _str_tuple(value: object) -> bool:
    """A tuple of strings (PermissionEngine passes its sets so: taken as they are)."""
    return isinstance(value, tuple) and all(type(v) is str for v in value)


def is_within(path: Path, base: Path) -> bool:
    """``path`` is ``base`` or below it (see :func:`within_any`)."""
    return within_any([path], [base]) is not None


def _appdata(entries: Iterable[tuple[str, str]]) -> list[Path]:
    out = []
    for var, rel in entries:
        root = os.environ.get(var)
        if root:
            out.append(Path(root) / rel)
    return out


def database_files(database: Path) -> list[Path]:
    """A SQLite database and its companions."""
    return [database, *(database.with_name(database.name + s) for s in ("-wal", "-shm", "-journal"))]


def _env_key() -> tuple[str | None, ...]:
    return tuple(os.environ.get(v) for v in ("HOME", "USERPROFILE", "OPENWORKER_HOME",
                                                "APPDATA", "LOCALAPPDATA", "XDG_DATA_HOME",
                                                "XDG_CONFIG_HOME"))


def key_stores() -> list[Path]:
    h = home()
    return [
        *(h / rel for rel in KEY_STORES_HOME),
        *(Path(p) for p in KEY_STORES_ABSOLUTE),
        *_appdata(_KEY_STORES_APPDATA),
    ]


def app_state_paths(
    paths: AppPaths | None = None, databases: Iterable[Path] = ()
) -> list[str]:
    """Folders and files that are the app's own state (never written by the agent)."""
    if paths is None:
        return list(_default_state(_env_key(), tuple(str(d) for d in databases)))
    out = [paths.config, paths.data, paths.logs, paths.cache]
    for db in [paths.database, *databases]:
        out += database_files(Path(db))
    return [str(p) for p in [*out, *key_stores()]]


def sensitive_paths(paths: AppPaths | None = None, databases: Iterable[Path] = ()) -> list[str]:
    """Locations a read never reaches without asking (``.env`` files are by name)."""
    if paths is None:
        return list(_default_sensitive(_env_key(), tuple(str(d) for d in databases)))
    h = home()
    out = [h / rel for rel in SENSITIVE_HOME]
    out += [Path(x) for x in (*KEY_STORES_ABSOLUTE, *SENSITIVE_ABSOLUTE)]
    out += _appdata(_SENSITIVE_APPDATA)
    out.append(paths.data)
    for db in [paths.database, *databases]:
        out += database_files(Path(db))
    return [str(p) for p in out]


def default_app_state() -> tuple[str, ...]:
    """:func:`app_state_paths` of the platform's folders, as one tuple that stays the
    same object while the environment does (compare by identity)."""
    return _default_state(_env_key(), ())


def default_sensitive() -> tuple[str, ...]:
    """:func:`sensitive_paths` of the platform's folders (see :func:`default_app_state`)."""
    return _default_sensitive(_env_key(), ())


@functools.lru_cache(maxsize=16)
def _default_state(_env: tuple[str | None, ...], databases: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(app_state_paths(app_paths(), [Path(d) for d in databases]))


@functools.lru_cache(maxsize=16)
def _default_sensitive(_env: tuple[str | None, ...], databases: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sensitive_paths(app_paths(), [Path(d) for d in databases]))


def has_state_dir(forms: Sequence[Path]) -> bool:
    """One of the forms passes through a ``.openworker`` folder."""
    return any(part.casefold() == STATE_DIR_NAME for f in forms for part in f.parts)


def _state_link_targets(forms: Sequence[Path], anchors: Iterable[Path | str]) -> list[str]:
    """Where the ``.openworker`` symlinks that could own these paths lead: the one
    in every folder on the way to each form, and the one in each anchor (the
    workspace, the writable roots)."""
    seen: set[str] = set()
    out: list[str] = []
    folders = [str(a) for a in anchors]
    for f in forms:
        folders += _ancestors(os.path.dirname(os.path.normpath(str(f))))
    for folder in folders:
        if folder in seen:
            continue
        seen.add(folder)
        link = os.path.join(folder, STATE_DIR_NAME)
        try:
            if not os.path.islink(link):
                continue
            out.append(os.path.realpath(link))
        except (OSError, ValueError):
            continue
    return out


def is_env_file(path: Path) -> bool:
    """``.env``, ``.env.local``, ``.env-prod``, ``.envrc``, ``secrets.env``… (not a
    template such as ``.env.example``)."""
    name = path.name.casefold()
    if not (name in (".env", ".envrc") or name.startswith((".env.", ".env-", ".env_"))
            or (name.endswith(".env") and len(name) > 4)):
        return False
    return not _template(name)


# ------------------------------------------------------------- credential names
#
# A file is a credential by name wherever it is (inside the workspace too):
#
# * a folder on the way named like a credential store (``.ssh``, ``.gnupg``…);
# * a well-known credential file name (``.pgpass``, ``.netrc``, ``rclone.conf``…);
# * a shell or REPL history (``.bash_history``, ``.psql_history``, ``fish_history``…);
# * a ``.env`` file (:func:`is_env_file`);
# * a private key, certificate bundle or key store by extension (``.pem``, ``.key``,
#   ``.p12``…) or an SSH key by name (``id_rsa``, ``deploy_ed25519``);
# * a data or config file (not source code or a document) whose name has the word
#   ``token``, ``secret``, ``password``, ``credential``… in it, on word boundaries
#   (``github_token.txt``, ``clientSecret.json``; not ``tokenizer.json`` or
#   ``token_utils.py``).
#
# Templates (``.env.example``, ``secrets.sample.yaml``) are not credentials.

CREDENTIAL_DIRS = frozenset({".ssh", ".gnupg", ".aws", ".azure", ".password-store"})

CREDENTIAL_NAMES = frozenset({
    ".netrc", "_netrc", ".pgpass", "pgpass.conf", ".my.cnf", ".mylogin.cnf", ".vault-token",
    ".s3cfg", ".boto", ".databrickscfg", "rclone.conf", ".git-credentials", ".npmrc",
    ".pypirc", ".yarnrc.yml", ".dockercfg", "kubeconfig", ".kubeconfig", ".htpasswd",
    ".erlang.cookie", ".terraformrc", "terraform.rc", "credentials.tfrc.json", "wallet.dat",
    "key4.db", "key3.db", "logins.json", "cookies.sqlite", "login data", "cookies",
    "web data", ".gitconfig.local", "service-account.json", "keyfile.json",
    "client_secret.json", ".authinfo", ".authinfo.gpg", ".fetchmailrc", ".msmtprc",
    ".muttrc", ".lftp", ".git-credential-cache", ".pg_service.conf", "tnsnames.ora",
    ".cqlshrc", ".rediscli_auth", "shadow", "gshadow", "master.key", "credentials.yml.enc",
    ".vault_pass", ".vault_password", "vault_pass.txt",
})

_HISTORY = re.compile(r"^(\.[\w.-]*history|[\w.-]*_history|\.lesshst|\.zhistory)$")
_SSH_KEY = re.compile(r"^(id_|[\w.-]+_)(rsa|dsa|ecdsa|ed25519)(_sk)?$|^identity$")

KEY_SUFFIXES = frozenset({
    ".pem", ".key", ".p12", ".pfx", ".pkcs12", ".p8", ".jks", ".keystore", ".bks", ".asc",
    ".gpg", ".pgp", ".ppk", ".kdbx", ".kdb", ".keychain", ".keychain-db", ".ovpn",
    ".tfstate", ".agekey", ".sops",
})

_CREDENTIAL_WORDS = frozenset({
    "token", "tokens", "secret", "secrets", "password", "passwords", "passwd",
    "credential", "credentials", "creds", "apikey", "apikeys", "passphrase", "privkey",
    "auth",
})
_CREDENTIAL_PAIRS = frozenset({
    ("api", "key"), ("api", "keys"), ("private", "key"), ("access", "key"),
    ("secret", "key"), ("auth", "token"), ("service", "account"), ("pass", "word"),
})
# ``auth`` on its own is a credential only as the whole stem (``auth.json``).
_WEAK_WORDS = frozenset({"auth"})

# Source code and documents: a word in their name (``token_utils.py``, ``secrets.md``)
# names what the code or text is about, not a credential.
CODE_SUFFIXES = frozenset({
    ".py", ".pyi", ".pyx", ".pyc", ".ipynb", ".js", ".mjs", ".cjs", ".ts", ".mts", ".tsx",
    ".jsx", ".go", ".rs", ".java", ".kt", ".kts", ".scala", ".groovy", ".rb", ".php", ".c",
    ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cs", ".fs", ".swift", ".m", ".mm", ".sh",
    ".bash", ".zsh", ".fish", ".ps1", ".psm1", ".bat", ".cmd", ".lua", ".pl", ".pm", ".r",
    ".jl", ".dart", ".ex", ".exs", ".erl", ".hrl", ".hs", ".ml", ".mli", ".clj", ".cljs",
    ".elm", ".vue", ".svelte", ".astro", ".html", ".htm", ".css", ".scss", ".sass",
    ".less", ".styl", ".md", ".markdown", ".rst", ".adoc", ".tex", ".org", ".pdf", ".doc",
    ".docx", ".odt", ".rtf", ".sql", ".proto", ".graphql", ".gql", ".tf", ".hcl", ".nix",
    ".zig", ".nim", ".v", ".sv", ".vhd", ".asm", ".s", ".d", ".pas", ".f90", ".cob",
    ".snap", ".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".mp4", ".mp3",
    ".wav", ".lock", ".map", ".o", ".so", ".a", ".dll", ".dylib", ".class", ".jar", ".wasm",
    ".tmpl", ".j2", ".jinja", ".mustache", ".hbs", ".ejs", ".erb", ".twig", ".liquid",
})

# Well-known ordinary files whose names hold a credential word.
_ORDINARY_NAMES = frozenset({
    "special_tokens_map.json", "added_tokens.json", "tokenizer_config.json",
    "tokens.css", "design-tokens.json",
})

_TEMPLATE_WORDS = frozenset({"example", "examples", "sample", "samples", "template",
                             "templates", "dist", "tmpl", "default", "defaults"})
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def _template(name: str) -> bool:
    return any(part in _TEMPLATE_WORDS for part in re.split(r"[._\-]", name.casefold()))


def _words(stem: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(stem)]


def credential_name_reason(path: Path) -> str | None:
    """Why ``path``'s name (or a folder on its way) says it holds a credential, or
    ``None`` (see the rules above)."""
    parts = path.parts
    for part in parts[:-1]:
        if part.casefold() in CREDENTIAL_DIRS:
            return f"{path} is inside a {part} folder (credentials)"
    if not parts:
        return None
    name = parts[-1].casefold()
    if name in CREDENTIAL_NAMES:
        return f"{path} is a credential file ({parts[-1]})"
    if _HISTORY.match(name):
        return f"{path} is a command history (it may hold passwords)"
    if is_env_file(path):
        return f"{path} is a .env file (it usually holds keys and passwords)"
    suffix = os.path.splitext(name)[1]
    if suffix in KEY_SUFFIXES:
        return f"{path} is a key or certificate file ({suffix})"
    if _SSH_KEY.match(name):
        return f"{path} is an SSH private key"
    if suffix in CODE_SUFFIXES or name in _ORDINARY_NAMES or _template(name):
        return None
    stem = parts[-1][: len(parts[-1]) - len(suffix)] if suffix else parts[-1]
    words = _words(stem)
    hits = [w for w in words if w in _CREDENTIAL_WORDS]
    if any(w not in _WEAK_WORDS for w in hits) or (hits and len(words) == 1) or any(
        pair in _CREDENTIAL_PAIRS for pair in zip(words, words[1:], strict=False)
    ):
        return f"{path} looks like a credential file by its name"
    return None


# ---------------------------------------------------------------- git metadata

#: Files whose content git obeys (``.gitattributes`` filters and diff drivers, a
#: submodule's URL, git-lfs's transfer programs, a user's global config).
GIT_CONTROL_FILES = frozenset({".gitmodules", ".gitattributes", ".gitconfig", ".lfsconfig"})


def git_metadata_reason(forms: Sequence[Path]) -> str | None:
    """Why writing this path changes what git does (``.git`` — the folder, a file
    of that name, anything inside —, any other folder that is a repository's data,
    ``.gitmodules``, ``.gitattributes``, ``.gitconfig``, ``.lfsconfig``), or ``None``."""
    why = "git metadata, which can make git run programs or read other repositories"
    for f in forms:
        for part in f.parts:
            if part.casefold() == ".git":
                return f"{f} is {why}"
        if f.name.casefold() in GIT_CONTROL_FILES:
            return f"{f} is {why}"
    for f in forms:
        for folder in _ancestors(os.path.normpath(str(f))):
            if is_git_dir(folder):
                return f"{f} is inside {folder}, a repository's data ({why})"
    return None


def app_state_reason(
    forms: Sequence[Path], protected: Iterable[Path | str], anchors: Iterable[Path | str] = ()
) -> str | None:
    """Why writing this path would touch the app's own state, or ``None``: a
    ``.openworker`` folder on the way (as written or resolved), a place a
    ``.openworker`` symlink leads to (one in a folder on the way or in an anchor),
    or the app's own folders."""
    if has_state_dir(forms):
        return f"{forms[-1]} is inside a {STATE_DIR_NAME} folder (OpenWorker's own settings)"
    links = _state_link_targets(forms, anchors)
    if links and within_any([forms[-1]], tuple(links)) is not None:
        return (f"{forms[-1]} is where a {STATE_DIR_NAME} symlink leads "
                "(OpenWorker's own settings)")
    hit = within_any(forms, protected)
    if hit is not None:
        return f"{forms[-1]} is part of OpenWorker's own state or a key store ({hit})"
    return None


def sensitive_reason(
    forms: Sequence[Path], sensitive: Iterable[Path | str], workspace: Path | None
) -> str | None:
    """Why reading this path always needs the user, or ``None``: a sensitive
    location, or a credential by its name (:func:`credential_name_reason`) — inside
    the workspace too."""
    hit = within_any(forms, sensitive)
    if hit is not None:
        return f"{forms[-1]} is in a sensitive location ({hit})"
    for f in reversed(forms):  # the resolved form first
        why = credential_name_reason(f)
        if why is not None:
            return why
    return None
