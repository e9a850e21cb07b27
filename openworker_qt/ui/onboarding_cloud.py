"""The guided set-up's fields for a cloud platform (Azure OpenAI, Google Vertex AI):
one row per setting of :data:`cloud_setup.CLOUD_FIELDS`, a Browse button for a
file, and the check-then-store step (:meth:`CloudFields.check_and_store`)."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from openworker_qt.qt import cloud_setup as sc
from openworker_qt.qt import provider_setup as sp
from openworker_qt.qt.settings_store import SettingsStore


class CloudFields(QWidget):
    """The settings of the chosen cloud platform (hidden for other providers)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.edits: dict[tuple[str, str], QLineEdit] = {}
        self.rows: dict[str, list[QWidget]] = {}
        for provider, fields in sc.CLOUD_FIELDS.items():
            for field in fields:
                edit = QLineEdit()
                edit.setPlaceholderText(field.placeholder)
                edit.setAccessibleName(field.label)
                label = QLabel(field.label + ("" if field.required else self.tr(" (optional)")))
                label.setBuddy(edit)
                holder: QWidget = edit
                if field.path:
                    holder = QWidget()
                    row = QHBoxLayout(holder)
                    row.setContentsMargins(0, 0, 0, 0)
                    browse = QPushButton(self.tr("Browse…"))
                    browse.setAccessibleName(self.tr("Choose the {what}").format(what=field.label.lower()))
                    browse.clicked.connect(lambda _=False, e=edit: self._browse(e))
                    row.addWidget(edit, 1)
                    row.addWidget(browse)
                self.form.addRow(label, holder)
                self.edits[(provider, field.key)] = edit
                self.rows.setdefault(provider, []).extend([label, holder])
        self.show_for(None)

    def _browse(self, edit: QLineEdit) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Service-account key file"), "",
                                              self.tr("JSON files (*.json)"))
        if path:
            edit.setText(path)

    def show_for(self, provider: str | None) -> None:
        for name, widgets in self.rows.items():
            for widget in widgets:
                widget.setVisible(name == provider)
        self.setVisible(provider in self.rows)

    def values(self, provider: str) -> dict[str, str]:
        return {key: edit.text().strip() for (name, key), edit in self.edits.items() if name == provider}

    async def check_and_store(self, settings: SettingsStore, c: sp.ProviderChoice, key: str) -> list[str]:
        """Test the settings with one real call; then store the key (keyring) and the
        settings (config). Returns the models to offer. Raises ProviderError."""
        values = self.values(c.name)
        table = sc.cloud_settings(c.name, values)
        await sc.validate_cloud(c.name, values, key)
        if key and c.key_name:
            await asyncio.to_thread(sp.store_key, c.key_name, key)
        settings.apply({"providers": {c.name: table}})
        return sp.models_for(c.name, settings.config)
