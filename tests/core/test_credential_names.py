"""The credential set by name (issue 23 item 11): a corpus of credential files of
common tools that must ask, and ordinary project files that must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from openworker_qt.core import fence
from openworker_qt.core.approvals import ToolCallInfo
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass

# Relative to the home folder, which is also the workspace (the case the issue found).
SENSITIVE = [
    ".pgpass", ".my.cnf", ".mylogin.cnf", ".cargo/credentials", ".cargo/credentials.toml",
    ".config/rclone/rclone.conf", "rclone.conf", "backup/rclone.conf", ".vault-token", ".s3cfg",
    ".databrickscfg", ".cache/huggingface/token", ".huggingface/token",
    ".docker/config.json", ".kube/config", ".npmrc", ".pypirc", ".git-credentials",
    ".config/gh/hosts.yml", ".terraform.d/credentials.tfrc.json", ".azure/msal_token_cache.json",
    ".config/gcloud/application_default_credentials.json", ".aws/credentials", ".aws/config",
    ".ssh/id_rsa", ".ssh/config", ".gnupg/pubring.kbx", ".password-store/bank.gpg",
    ".local/share/keyrings/login.keyring", ".mozilla/firefox/x.default/logins.json",
    ".config/google-chrome/Default/Cookies", ".netrc", "_netrc", ".boto",
    ".gem/credentials", ".m2/settings.xml", ".gradle/gradle.properties",
    # shell and REPL histories
    ".bash_history", ".zsh_history", ".python_history", ".psql_history", ".mysql_history",
    ".node_repl_history", ".sqlite_history", ".lesshst", ".history",
    ".local/share/fish/fish_history", "project/.zsh_history",
    # .env files, in the workspace too
    ".env", ".envrc", "secrets.env", ".env-prod", ".env.local", ".env.production",
    "project/.env", "project/prod.env", "project/.env_staging",
    # keys and key stores
    "server.pem", "tls/server.key", "cert.p12", "cert.pfx", "release.jks", "app.keystore",
    "private.asc", "putty.ppk", "vault.kdbx", "AuthKey_ABC123.p8", "id_rsa", "id_ed25519",
    "id_ecdsa_sk", "deploy_rsa", "github_ed25519", "project/keys/id_dsa", "terraform.tfstate",
    # names with a credential word, on word boundaries, in data files
    "credentials.json", "gcp-credentials.json", "aws_credentials", "token", "token.txt",
    "github_token", "hf_token.txt", "access-token.json", "authToken.json", "API_TOKEN",
    "secrets.yaml", "secrets.yml", "client_secret.json", "clientSecret.json",
    "passwords.txt", "password", "db_password.txt", "api_key.txt", "apiKey.json",
    "openai-api-key", "private_key.json", "service-account.json", "auth.json", "creds.json",
    "project/config/secrets.toml", "MySecrets.ini", "tokens.json",
]

ORDINARY = [
    "tokenizer.py", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
    "added_tokens.json", "token_utils.py", "tokens.py", "src/lexer/token.rs", "secret_sauce.md",
    "docs/secrets-management.md", "password_reset.py", "PasswordField.tsx",
    "credentials_form.html", "auth.py", "oauth_client.py", "authors.txt", "author.json",
    "README.md", "notes.txt", "pyproject.toml", "package.json", "config.yaml", "settings.py",
    ".env.example", ".env.sample", ".env.template", "secrets.example.yaml", "example.env.dist",
    ".gitignore", "history.md", "HISTORY.rst", "chat_history.json", "environment.yml",
    ".environment", "envoy.yaml", "keys.py", "keyboard.json", "monkey.txt", "turkey.csv",
    "public.pub", "id_rsa.pub", "ssh_config.md", "docs/ssh.md", "report.pdf", "Makefile",
    "main.go", "src/app.ts", "tokenize.txt", "secretary.txt", "passwordless.md",
    "detokenized.json", "stoken.txt", "data/tokens.css", "keynote_notes.txt",
]


def _engine(home: Path) -> PermissionEngine:
    return PermissionEngine(workspace=home, mode="auto")


def _read(engine: PermissionEngine, path: str) -> str:
    d = engine.evaluate(ToolCallInfo(session_id="s", call_id="c", name="read_file",
                                     arguments={"path": path}, risk=RiskClass.READ,
                                     target=path))
    return "allow" if d.allowed else "ask" if d.needs_user else "deny"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    fence.forget_resolved()
    return h


@pytest.mark.parametrize("rel", SENSITIVE)
def test_credential_files_ask_with_the_workspace_at_home(home: Path, rel: str) -> None:
    assert _read(_engine(home), rel) == "ask", rel
    # and wherever the file really is: through a symlink with an ordinary name
    target = home / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("x")
    (home / "innocent.txt").symlink_to(target)
    assert _read(_engine(home), "innocent.txt") == "ask", rel


@pytest.mark.parametrize("rel", ORDINARY)
def test_ordinary_project_files_do_not_ask(home: Path, rel: str) -> None:
    assert _read(_engine(home), f"project/{rel}") == "allow", rel


def test_the_corpus_has_no_overlap() -> None:
    assert not set(SENSITIVE) & set(ORDINARY)
    assert len(SENSITIVE) > 100 and len(ORDINARY) > 50


@pytest.mark.parametrize("rel", ["/etc/shadow", "/etc/ssh/ssh_host_ed25519_key"])
def test_system_secrets_ask_even_when_readable(home: Path, rel: str) -> None:
    engine = PermissionEngine(workspace=home, mode="auto", read_roots=["/etc"])
    assert _read(engine, rel) == "ask"
