"""Settings → Connectors: a page generated from the connectors' descriptors.

On the left every connector and its state; on the right the selected one's
description, its fields (each with its help text; secret fields are hidden
and go to the keyring, and are never shown again) and Connect, Test and
Disconnect. Connecting checks the values with the service first; the answer
("Connected as @ana in Acme") or the service's refusal is shown under the
buttons, and a refusal changes nothing stored.

The checks run on the event loop (network) and in workers (keyring); the page
stays responsive and its buttons are disabled while one runs. It works through
:class:`~openworker_qt.qt.connector_setup.ConnectorSetup` (the runtime's registry).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.qt.connector_setup import (
    ConnectorError,
    ConnectorSetup,
    Registry,
    Spec,
    State,
    is_on,
    oauth_service,
)
from openworker_qt.qt.connector_words import failure_text, identity_text, shown, state_error

STATUS_MARK = {"connected": "●", "failed": "▲", "not connected": "○"}


class ConnectorsPage(QWidget):
    """See module docstring. ``changed(id)``: a connector was connected or removed."""

    changed = Signal(str)

    def __init__(self, registry: Registry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.connectors = ConnectorSetup(registry)
        self.task: asyncio.Future[Any] | None = None
        self.edits: dict[str, QLineEdit] = {}
        #: The yes/no fields' checkboxes (Stripe's "Allow changes").
        self.checks: dict[str, QCheckBox] = {}
        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 12, 16, 12)
        heading = QLabel(self.tr("Connectors"))
        font = heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        heading.setFont(font)
        intro = QLabel(self.tr(
            "Connect the services you work in. OpenWorker reads from them freely and asks "
            "you before it posts, sends or changes anything. Tokens are kept in your system "
            "keyring."))
        intro.setWordWrap(True)
        self.catalog_button = QPushButton(self.tr("Browse the &catalogue…"))
        self.catalog_button.setAccessibleName(self.tr("Browse the connector catalogue"))
        self.catalog_button.setAccessibleDescription(
            self.tr("Every connector with what it reads and does, searchable"))
        self.catalog_button.clicked.connect(self.open_catalog)
        top = QHBoxLayout()
        top.addWidget(heading, 1)
        top.addWidget(self.catalog_button)
        outer.addLayout(top)
        outer.addWidget(intro)
        body = QHBoxLayout()
        self.list = QListWidget()
        self.list.setAccessibleName(self.tr("Connectors"))
        self.list.setAccessibleDescription(self.tr("Each connector and whether it is connected"))
        # The list stays narrow (names elide) so the connector's fields get the room.
        self.list.setMinimumWidth(190)
        self.list.setMaximumWidth(260)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        body.addWidget(self.list)
        self.detail = QWidget()
        self.detail_layout = QVBoxLayout(self.detail)
        self.detail_layout.setContentsMargins(8, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        # Fields and their help wrap to the width instead of running off to the side.
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.detail)
        body.addWidget(scroll, 1)
        outer.addLayout(body, 1)
        self.title = QLabel()
        tfont = self.title.font()
        tfont.setBold(True)
        tfont.setPointSizeF(tfont.pointSizeF() * 1.1)
        self.title.setFont(tfont)
        self.description = QLabel()
        self.description.setWordWrap(True)
        self.state_label = QLabel()
        self.state_label.setWordWrap(True)
        self.state_label.setAccessibleName(self.tr("Connection state"))
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        # Each label above its field: long labels and help texts keep the whole width.
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        buttons = QHBoxLayout()
        self.connect_button = QPushButton(self.tr("&Connect"))
        self.test_button = QPushButton(self.tr("&Test"))
        self.test_button.setAccessibleName(self.tr("Test connection"))
        self.test_button.setAccessibleDescription(self.tr("Check the stored credentials again"))
        self.disconnect_button = QPushButton(self.tr("&Disconnect"))
        self.disconnect_button.setAccessibleName(self.tr("Disconnect"))
        self.disconnect_button.setAccessibleDescription(
            self.tr("Forget this connector's credentials"))
        self.sign_in_button = QPushButton(self.tr("Sign in"))
        self.sign_in_button.setAccessibleName(self.tr("Sign in"))
        self.sign_in_button.setAccessibleDescription(
            self.tr("Opens your browser to sign in; needs your OAuth client id"))
        #: Opens the sign-in page (the desktop's browser).
        self.open_url: Callable[[str], object] = lambda url: QDesktopServices.openUrl(QUrl(url))
        for b in (self.sign_in_button, self.connect_button, self.test_button,
                  self.disconnect_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAccessibleName(self.tr("Result"))
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        for w in (self.title, self.description, self.state_label):
            self.detail_layout.addWidget(w)
        self.detail_layout.addLayout(self.form)
        self.detail_layout.addLayout(buttons)
        self.detail_layout.addWidget(self.message)
        self.detail_layout.addStretch(1)
        self.connect_button.clicked.connect(lambda: self._run(self._connect()))
        self.sign_in_button.clicked.connect(lambda: self._run(self._sign_in()))
        self.test_button.clicked.connect(lambda: self._run(self._test()))
        self.disconnect_button.clicked.connect(lambda: self._run(self._disconnect()))
        self.list.currentRowChanged.connect(lambda _row: self._show_selected())
        self.refresh()
        if self.list.count():
            self.list.setCurrentRow(0)

    def open_catalog(self) -> Any:
        """The searchable catalogue; a connector picked there is selected here."""
        from openworker_qt.ui.connector_catalog import ConnectorCatalog

        dialog = ConnectorCatalog(self.connectors.registry, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.chosen.connect(self.select)
        dialog.open()
        return dialog

    # ----------------------------------------------------------------- state

    @property
    def selected(self) -> Spec | None:
        item = self.list.currentItem()
        if item is None:
            return None
        return self.connectors.specs.get(str(item.data(Qt.ItemDataRole.UserRole)))

    def select(self, connector: str) -> None:
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == connector:
                self.list.setCurrentRow(row)
                return

    def refresh(self) -> None:
        """Every connector's state again; what is typed in the form stays."""
        states = self.connectors.states()
        if self.list.count() != len(states):
            self.list.blockSignals(True)
            self.list.clear()
            for state in states:
                item = QListWidgetItem()
                item.setData(Qt.ItemDataRole.UserRole, state.spec.id)
                self.list.addItem(item)
            self.list.blockSignals(False)
        for row, state in enumerate(states):
            item = self.list.item(row)
            if item is not None:
                item.setText(self._row_text(state))
                item.setToolTip(self._state_text(state))
        self._update_state()

    def _update_state(self) -> None:
        spec = self.selected
        if spec is None:
            return
        state = self.connectors.state(spec.id)
        self.state_label.setText(self._state_text(state))
        connected = state.status != "not connected"
        self.connect_button.setText(self.tr("Re&connect") if connected else self.tr("&Connect"))
        self.test_button.setEnabled(connected and self.task is None)
        self.disconnect_button.setEnabled(connected and self.task is None)
        self.connect_button.setEnabled(self.task is None)
        self.sign_in_button.setEnabled(self.task is None)

    def _row_text(self, state: State) -> str:
        status = {"connected": self.tr("connected"), "failed": self.tr("needs attention"),
                  "not connected": self.tr("not connected")}[state.status]
        return f"{STATUS_MARK[state.status]}  {state.spec.name} — {status}"

    def _show_selected(self) -> None:
        spec = self.selected
        while self.form.rowCount():
            self.form.removeRow(0)
        self.edits.clear()
        self.checks.clear()
        if spec is None:
            return
        state = self.connectors.state(spec.id)
        self.title.setText(f"{spec.name} · {shown(spec.category)}")
        self.description.setText(shown(spec.description))
        self.state_label.setText(self._state_text(state))
        settings = dict(state.settings or {})
        for f in spec.fields:
            if f.kind == "bool":
                self._add_check(f.key, f.label, f.help, is_on(settings.get(f.key)))
                continue
            edit = QLineEdit()
            label, help_text = shown(f.label), shown(f.help)
            edit.setAccessibleName(label)
            edit.setAccessibleDescription(help_text)
            if f.secret:
                edit.setEchoMode(QLineEdit.EchoMode.Password)
                edit.setPlaceholderText(
                    self.tr("Stored in the keyring — leave empty to keep")
                    if state.stored(f.key) else shown(f.placeholder))
            else:
                edit.setText(settings.get(f.key, ""))
                edit.setPlaceholderText(shown(f.placeholder))
            help_label = QLabel(help_text)
            help_label.setWordWrap(True)
            help_label.setObjectName("connectorFieldHelp")
            help_label.setEnabled(False)  # the secondary text colour
            box = QWidget()
            col = QVBoxLayout(box)
            col.setContentsMargins(0, 0, 0, 4)
            col.setSpacing(2)
            col.addWidget(edit)
            col.addWidget(help_label)
            if not f.required:
                label = self.tr("{label} (optional)").format(label=label)
            self.form.addRow(label, box)
            self.edits[f.key] = edit
        self.connect_button.setAccessibleName(
            self.tr("Connect {name}").format(name=spec.name))
        service = oauth_service(spec)
        self.sign_in_button.setVisible(service is not None)
        if service is not None:
            label = self.tr("Sign in with {service}").format(service=service)
            self.sign_in_button.setText(label)
            self.sign_in_button.setAccessibleName(label)
        self._update_state()
        self.message.clear()

    def _add_check(self, key: str, label: str, help_text: str, on: bool) -> None:
        check = QCheckBox(label)
        check.setChecked(on)
        check.setAccessibleName(label)
        check.setAccessibleDescription(help_text)
        help_label = QLabel(help_text)
        help_label.setWordWrap(True)
        help_label.setObjectName("connectorFieldHelp")
        help_label.setEnabled(False)
        box = QWidget()
        col = QVBoxLayout(box)
        col.setContentsMargins(0, 0, 0, 4)
        col.setSpacing(2)
        col.addWidget(check)
        col.addWidget(help_label)
        self.form.addRow("", box)
        self.checks[key] = check

    def _typed(self) -> dict[str, str]:
        """What the form holds: the typed values, and "yes" or "no" for each checkbox."""
        values = {key: edit.text().strip() for key, edit in self.edits.items()}
        values.update({key: "yes" if check.isChecked() else "no"
                       for key, check in self.checks.items()})
        return values

    def _state_text(self, state: State) -> str:
        if state.status == "connected":
            if state.identity:
                return f"✓ {identity_text(state.identity)}"
            return self.tr("✓ Connected")
        if state.status == "failed":
            return self.tr("Needs attention: {error}").format(error=state_error(state))
        return self.tr("Not connected")

    # ---------------------------------------------------------------- actions

    def _run(self, coro: Any) -> None:
        if self.task is not None:
            coro.close()
            return
        for b in (self.sign_in_button, self.connect_button, self.test_button,
                  self.disconnect_button):
            b.setEnabled(False)
        self.task = asyncio.ensure_future(coro)
        self.task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[Any]) -> None:
        self.task = None
        message = self.message.text()
        if not task.cancelled() and task.exception() is not None:
            message = self.tr("Something went wrong: {error}").format(error=task.exception())
        self.refresh()
        self.message.setText(message)

    async def _connect(self) -> None:
        spec = self.selected
        if spec is None:
            return
        self.message.setText(self.tr("Checking with {name}…").format(name=spec.name))
        try:  # (empty secret fields keep the stored secrets)
            identity = await self.connectors.connect(spec, self._typed())
        except ConnectorError as exc:
            self.message.setText(failure_text(exc))
            return
        said = identity_text(identity)
        self.message.setText(said)
        if spec.extra.get("after_connect"):
            self.message.setText(self.tr("{identity}. {then}").format(
                identity=said, then=shown(spec.extra["after_connect"])))
        for key in spec.secret_keys:  # stored: never shown again
            if self.edits[key].text():
                self.edits[key].clear()
                self.edits[key].setPlaceholderText(
                    self.tr("Stored in the keyring — leave empty to keep"))
        self.changed.emit(spec.id)

    async def _sign_in(self) -> None:
        """Sign in through the browser (OAuth with PKCE), then connect with the result."""
        spec = self.selected
        service = oauth_service(spec) if spec else None
        if spec is None or service is None:
            return
        typed = {key: edit.text().strip() for key, edit in self.edits.items()}
        self.message.setText(self.tr("Finish signing in with {service} in your browser…")
                             .format(service=service))
        try:
            token = await self.connectors.sign_in(spec, typed, self.open_url)
        except ConnectorError as exc:
            self.message.setText(failure_text(exc))
            return
        self.edits["refresh_token"].setText(token)
        await self._connect()

    async def _test(self) -> None:
        spec = self.selected
        if spec is None:
            return
        try:
            state = await self.connectors.test(spec.id)
        except ConnectorError as exc:
            self.message.setText(failure_text(exc))
            return
        self.message.setText(self._state_text(state))

    async def _disconnect(self) -> None:
        spec = self.selected
        if spec is None:
            return
        await self.connectors.disconnect(spec.id)
        for key in spec.secret_keys:
            self.edits[key].setPlaceholderText("")
        self.message.setText(self.tr("{name} disconnected.").format(name=spec.name))
        self.changed.emit(spec.id)
