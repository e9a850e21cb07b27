"""Redaction of known secrets: complete (overlapping values too), kept in step with
the keys as they are stored and removed, and safe while the keyring loads."""

from __future__ import annotations

import logging
import threading

import keyring

from openworker_qt.storage import secrets

R = secrets.REDACTED


def test_two_secrets_that_overlap_in_the_text_are_both_hidden_whole() -> None:
    short, long = "AAAAAAAAXY", "XYZZZZZZZZZZZZ"  # the end of one is the start of the other
    secrets.set_secret("SHORT_KEY", short)
    secrets.set_secret("LONG_KEY", long)
    text = "key: AAAAAAAAXYZZZZZZZZZZZZ!"
    out = secrets.redact(text)
    assert out == f"key: {R}!"
    for piece in ("AAAA", "ZZZZ"):
        assert piece not in out


def test_every_occurrence_is_hidden_and_the_rest_kept() -> None:
    secrets.set_secret("OPENAI_API_KEY", "sk-abcdefgh12345")
    text = "a sk-abcdefgh12345 b sk-abcdefgh12345sk-abcdefgh12345 c"
    assert secrets.redact(text) == f"a {R} b {R}{R} c"
    assert secrets.redact("nothing secret here") == "nothing secret here"
    assert secrets.redact("") == ""


def test_a_key_stored_or_removed_while_running_counts_at_once() -> None:
    assert secrets.redact("x sk-later-added-999") == "x sk-later-added-999"
    secrets.set_secret("LATER_KEY", "sk-later-added-999")
    assert secrets.redact("x sk-later-added-999") == f"x {R}"
    secrets.delete_secret("LATER_KEY")
    assert secrets.redact("x sk-later-added-999") == "x sk-later-added-999"


def test_short_values_are_not_redacted() -> None:
    secrets.set_secret("PIN", "1234567")  # shorter than MIN_SECRET_LENGTH
    assert secrets.redact("code 1234567") == "code 1234567"


def test_a_log_record_written_while_the_keyring_loads_does_not_hang() -> None:
    """A record formatted on the loading thread itself (a backend that logs) gets
    what is known so far instead of waiting for the load it is part of."""
    backend = keyring.get_keyring()
    backend.set_password(secrets.SERVICE, "OPENAI_API_KEY", "sk-in-the-keyring-0001")
    backend.set_password(secrets.SERVICE, secrets.INDEX, '["OPENAI_API_KEY"]')
    secrets.forget_known()
    chatty = logging.getLogger("test.chatty-keyring")
    handler = logging.StreamHandler()
    handler.setFormatter(secrets.RedactingFormatter("%(message)s"))
    chatty.addHandler(handler)
    real_get = type(backend).get_password

    def get_password(self: object, service: str, name: str) -> str | None:
        chatty.warning("reading %s", name)  # formatted right here, mid-load
        return real_get(self, service, name)

    type(backend).get_password = get_password
    try:
        loader = threading.Thread(target=secrets.load_known)
        loader.start()
        loader.join(10)
        assert not loader.is_alive()
    finally:
        type(backend).get_password = real_get
        chatty.removeHandler(handler)
    assert secrets.is_loaded()
    assert secrets.redact("sk-in-the-keyring-0001") == R
