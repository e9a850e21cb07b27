"""Settings → Providers: AWS Bedrock's row (region in the address field, the
optional Bedrock API key in the keyring, "your AWS sign-in" without one)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from openworker_qt.storage import secrets
from openworker_qt.storage.config import load_config
from tests.ui.conftest import run, until
from tests.ui.test_settings import open_settings


def test_bedrock_region_is_checked_saved_and_used(qtbot, qloop, make_desktop) -> None:
    desktop, window = open_settings(make_desktop, qloop)
    page = window.providers
    page.select("bedrock")
    row = page.tree.currentItem()
    assert row.text(1) == "Your AWS sign-in (no key)"
    assert page.address.isEnabled() and page.key_edit.isEnabled()
    page.address.setText("Frankfurt")
    qtbot.keyClick(page.address, Qt.Key.Key_Return)
    assert "not an AWS region" in page.status.text()
    assert load_config().get("providers.bedrock.region") is None
    page.address.setText(" EU-Central-1 ")
    qtbot.keyClick(page.address, Qt.Key.Key_Return)
    run(qloop, lambda: until(lambda: not page.busy()))
    assert load_config().get("providers.bedrock.region") == "eu-central-1"
    assert page.tree.currentItem().text(2) == "eu-central-1"
    provider, model_id = desktop.runtime.router.resolve("bedrock:us.amazon.nova-pro-v1:0")
    assert provider.region == "eu-central-1" and model_id == "us.amazon.nova-pro-v1:0"
    page.key_edit.setText("ABSKsettings-key")
    qtbot.keyClick(page.key_edit, Qt.Key.Key_Return)
    run(qloop, lambda: until(lambda: not page.busy()))
    assert secrets.get_secret("AWS_BEARER_TOKEN_BEDROCK") == "ABSKsettings-key"
    assert page.tree.currentItem().text(1) == "Stored"
    assert "ABSK" not in desktop.runtime.paths.config_file.read_text(encoding="utf-8")
