"""AWS Bedrock's part of onboarding (issue 30): the profile row, the region in the
dialog's address field, the one-token check and what is stored (region and
profile in config, a Bedrock API key only in the keyring)."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtWidgets import QFormLayout, QLabel, QLineEdit

from openworker_qt.qt import provider_setup as sp


class BedrockFields:
    def __init__(self, dialog: Any, form: QFormLayout) -> None:
        self.dialog = dialog
        self.profile_edit = QLineEdit()
        self.profile_edit.setPlaceholderText(dialog.tr("default"))
        self.profile_edit.setAccessibleName(dialog.tr("AWS profile"))
        self.profile_label = QLabel(dialog.tr("AWS &profile (optional)"))
        self.profile_label.setBuddy(self.profile_edit)
        form.addRow(self.profile_label, self.profile_edit)
        self.notice = self.region = ""

    def show(self, on: bool) -> bool:
        """Show the profile row for Bedrock only (``on``); then the dialog's address
        field takes the region, its key field a Bedrock API key. Returns ``on``."""
        self.profile_label.setVisible(on)
        self.profile_edit.setVisible(on)
        if not on:
            return False
        d = self.dialog
        d.url_label.setText(d.tr("AWS &region"))
        d.url_edit.setPlaceholderText("us-east-1")
        d.url_edit.setAccessibleDescription(d.tr("Where your account uses Bedrock; empty: the profile's region"))
        d.key_edit.setPlaceholderText(d.tr("Bedrock API key, or empty to use your AWS sign-in"))
        return True

    async def check(self, key: str, region: str) -> list[str]:
        """The one-token call (raises ProviderError or ValueError); the models to offer."""
        self.notice, self.region = await sp.check_bedrock(
            region=region, profile=self.profile_edit.text(), key=key)
        return sp.models_for(sp.BEDROCK, self.dialog.settings.config)

    async def store(self, key: str, region: str) -> None:
        if key:
            await asyncio.to_thread(sp.store_key, sp.BEDROCK_KEY, key)
        settings = self.dialog.settings
        settings.apply({"providers": {sp.BEDROCK: sp.bedrock_settings(
            region=self.region or region, profile=self.profile_edit.text())}})
        settings.key_changed(sp.BEDROCK)

    def intro(self) -> str:
        """What the model page says after the check ("" for the usual words)."""
        if not self.notice:
            return ""
        more = str(self.dialog.tr("New sessions start with this model; you can switch per session."))
        return f"{self.notice} {more}"
