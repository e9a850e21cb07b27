"""The MCP servers settings page: every server with its live status and tool
count, what it printed, its tools (each with on/off and a risk class), and the
buttons the CLI has too: Add, Import, Test server, Restart, Remove, Doctor. It
works through :class:`~openworker_qt.qt.mcp_setup.McpSetup` (the runtime's MCP
manager and the global file).

Changes are written to the global ``mcp.json`` at once (in a worker) and apply
without a restart: a tool turned off leaves every session's tool list, a risk
class applies from the next call. A server's own word that a tool only reads is
shown beside it, never applied by itself.
"""

from __future__ import annotations

import asyncio
import shlex
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.domain.risk import RiskClass
from openworker_qt.qt.mcp_setup import (
    ConfigError,
    Manager,
    McpFailure,
    McpSetup,
    Server,
    ServerConfig,
    State,
    parse_server,
)
from openworker_qt.ui import design
from openworker_qt.ui.window_state import open_fitted

RISKS = [RiskClass.READ, RiskClass.WRITE_LOCAL, RiskClass.EXEC, RiskClass.EXTERNAL]


class AddServerDialog(QDialog):
    """A name and either a command line or an address."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add an MCP server"))
        self.name = QLineEdit()
        self.name.setAccessibleName(self.tr("Server name"))
        self.command = QLineEdit()
        self.command.setPlaceholderText("npx -y @modelcontextprotocol/server-filesystem ~/Documents")
        self.command.setAccessibleName(self.tr("Command that starts the server"))
        self.url = QLineEdit()
        self.url.setPlaceholderText("https://example.com/mcp")
        self.url.setAccessibleName(self.tr("Server address"))
        self.error = QLabel()
        self.error.setWordWrap(True)
        form = QFormLayout()
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("Command"), self.command)
        form.addRow(self.tr("or address"), self.url)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._check)
        buttons.rejected.connect(self.reject)
        design.tint(self.error, "danger")
        lay = QVBoxLayout(self)
        design.arrange(lay, "dialog", "section")
        lay.addLayout(form)
        lay.addWidget(self.error)
        lay.addWidget(buttons)
        self.config: ServerConfig | None = None
        open_fitted(self, (560, 0))  # the command's example fits, the dialog is on screen

    def _check(self) -> None:
        try:
            self.config = self.parse()
        except (ConfigError, ValueError) as exc:
            self.error.setText(str(exc))
            return
        self.accept()

    def parse(self) -> ServerConfig:
        name, command, url = (self.name.text().strip(), self.command.text().strip(),
                              self.url.text().strip())
        if url and command:
            raise ConfigError(self.tr("Give a command or an address, not both."))
        return parse_server(name, url=url, command=shlex.split(command))


class McpPage(QWidget):
    """See the module docstring."""

    def __init__(self, manager: Manager, config_dir: Path,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.mcp = McpSetup(manager, config_dir)
        self.tasks: set[asyncio.Future[Any]] = set()
        self.trusting: asyncio.Future[Any] | None = None
        self.servers = QListWidget()
        self.servers.setAccessibleName(self.tr("MCP servers"))
        self.servers.currentRowChanged.connect(lambda _row: self.show_server())
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.too_many = QLabel()  # a server (or all) offering more tools than the model can use well
        self.too_many.setWordWrap(True)
        self.too_many.setAccessibleName(self.tr("Too many tools"))
        design.tint(self.too_many, "warning")
        self.too_many.setVisible(False)
        self.tools = QTreeWidget()
        self.tools.setHeaderLabels([self.tr("Tool"), self.tr("Risk"), self.tr("The server says")])
        self.tools.setAccessibleName(self.tr("The server's tools"))
        self.tools.itemChanged.connect(self._tool_toggled)
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setAccessibleName(self.tr("What the server printed"))
        self.log.setMaximumBlockCount(400)
        buttons = QHBoxLayout()
        self.add_button = self._button(buttons, self.tr("Add…"), self.add_server)
        self.import_button = self._button(buttons, self.tr("Import…"), self.import_servers)
        self.test_button = self._button(buttons, self.tr("Test server"), self.test_server)
        self.restart_button = self._button(buttons, self.tr("Restart"), self.restart_server)
        self.sign_in_button = self._button(buttons, self.tr("Sign in"), self.sign_in)
        self.remove_button = self._button(buttons, self.tr("Remove"), self.remove_server)
        self.doctor_button = self._button(buttons, self.tr("Doctor"), self.run_doctor)
        buttons.addStretch(1)
        detail = QWidget()
        dlay = QVBoxLayout(detail)
        design.arrange(dlay, "flush", "row")
        dlay.addWidget(self.status)
        dlay.addWidget(self.too_many)
        picks = QHBoxLayout()
        self.all_on_button = self._button(picks, self.tr("All tools on"), self.all_tools_on)
        self.all_off_button = self._button(picks, self.tr("All tools off"), self.all_tools_off)
        picks.addStretch(1)
        dlay.addLayout(picks)
        dlay.addWidget(self.tools, 2)
        dlay.addWidget(QLabel(self.tr("Log and what the server printed:")))
        dlay.addWidget(self.log, 1)
        split = QSplitter()
        split.addWidget(self.servers)
        split.addWidget(detail)
        split.setStretchFactor(1, 3)
        intro = QLabel(self.tr(
            "MCP servers give the assistant tools from other programs. Every tool asks "
            "before it runs unless you lower its risk here."))
        intro.setWordWrap(True)
        lay = QVBoxLayout(self)
        design.arrange(lay, "page", "section")
        buttons.setSpacing(design.GAP["row"])
        lay.addWidget(design.heading(self.tr("MCP servers")))
        lay.addWidget(intro)
        lay.addWidget(split, 1)
        lay.addLayout(buttons)
        self.problems = QLabel("\n".join(self.mcp.problems))
        self.problems.setWordWrap(True)
        design.tint(self.problems, "danger")
        self.problems.setVisible(bool(self.mcp.problems))
        lay.addWidget(self.problems)
        untrusted = self.mcp.untrusted_file()
        self.trust_button = QPushButton(self.tr("Trust this folder's servers…"))
        self.trust_button.setVisible(untrusted is not None)
        self.trust_button.clicked.connect(lambda: self.trust_workspace())
        lay.addWidget(self.trust_button)
        detach = self.mcp.listen(self._on_server_changed)
        self.destroyed.connect(lambda *_: detach())
        self.refresh()

    def _button(self, row: QHBoxLayout, text: str, slot: Any) -> QPushButton:
        button = QPushButton(text)
        button.clicked.connect(lambda: slot())
        row.addWidget(button)
        return button

    def _run(self, coro: Any) -> asyncio.Future[Any]:
        task: asyncio.Future[Any] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    # ----------------------------------------------------------- listing

    def selected(self) -> Server | None:
        item = self.servers.currentItem()
        return self.mcp.servers.get(item.data(Qt.ItemDataRole.UserRole)) if item else None

    def refresh(self) -> None:
        current = self.selected()
        self.servers.blockSignals(True)
        self.servers.clear()
        for name, server in self.mcp.servers.items():
            item = QListWidgetItem(self._line(server))
            item.setData(Qt.ItemDataRole.UserRole, name)
            self.servers.addItem(item)
            if current is not None and current.config.name == name:
                self.servers.setCurrentItem(item)
        if self.servers.currentRow() < 0 and self.servers.count():
            self.servers.setCurrentRow(0)
        self.servers.blockSignals(False)
        self.show_server()

    @staticmethod
    def _line(server: Server) -> str:
        status = server.status
        mark = {State.READY: "●", State.FAILED: "✕", State.STARTING: "…"}.get(status.state, "○")
        count = QCoreApplication.translate("McpPage", " · {n} tools").format(
            n=len(server.tools)) if server.tools else ""
        where = (QCoreApplication.translate("McpPage", " · this folder")
                 if server.config.workspace else "")
        return f"{mark} {server.config.name}{count}{where}"

    def _status_text(self, server: Server) -> str:
        """The server's state (``status.describe()``) in the user's language."""
        status = server.status
        text = {State.STOPPED: self.tr("not started"), State.DISABLED: self.tr("turned off"),
                State.STARTING: self.tr("starting"),
                State.READY: self.tr("ready, {n} tools").format(n=status.tools),
                State.FAILED: self.tr("not working")}.get(status.state, status.describe())
        if status.message:
            text = self.tr("{state}: {message}").format(state=text, message=status.message)
        return text

    def _on_server_changed(self, server: Server) -> None:
        for row in range(self.servers.count()):
            item = self.servers.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == server.config.name:
                item.setText(self._line(server))
        if self.selected() is server:
            self.show_server()

    def show_server(self) -> None:
        server = self.selected()
        for button in (self.test_button, self.restart_button, self.remove_button):
            button.setEnabled(server is not None)
        self.sign_in_button.setVisible(server is not None and server.config.uses_oauth)
        self.tools.blockSignals(True)
        self.tools.clear()
        if server is None:
            self.status.setText(self.tr("No MCP servers yet: Add one, or Import the ones "
                                        "Claude Desktop, Cursor or VS Code use."))
            self.log.setPlainText("")
            self.tools.blockSignals(False)
            return
        config = server.config
        self.status.setText(f"{config.describe()}\n{self._status_text(server)}")
        self._warn_tools()
        for info in server.tools:
            item = QTreeWidgetItem([info.name, "", _hints(info)])
            item.setData(0, Qt.ItemDataRole.UserRole, info.name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(0, Qt.CheckState.Checked if config.offers(info.name)
                               else Qt.CheckState.Unchecked)
            item.setToolTip(0, info.description[:1500])
            self.tools.addTopLevelItem(item)
            combo = QComboBox()
            combo.setAccessibleName(self.tr("Risk of {tool}").format(tool=info.name))
            for risk in RISKS:
                combo.addItem(_risk_label(risk), risk.value)
            chosen = config.tool_risk.get(info.name, RiskClass.EXTERNAL)
            combo.setCurrentIndex(RISKS.index(chosen))
            combo.setEnabled(not config.workspace)  # a folder's server stays EXTERNAL
            combo.currentIndexChanged.connect(
                lambda _i, tool=info.name, box=combo: self.set_risk(tool, RiskClass(box.currentData())))
            self.tools.setItemWidget(item, 1, combo)
        self.tools.blockSignals(False)
        stderr = server.stderr.text(200)
        self.log.setPlainText("\n".join(server.log[-100:])
                              + (f"\n\n{stderr}" if stderr else ""))

    # ------------------------------------------------------------- edits

    def _tool_toggled(self, item: QTreeWidgetItem, _column: int) -> None:
        server = self.selected()
        if server is None:
            return
        tool = item.data(0, Qt.ItemDataRole.UserRole)
        off = set(server.config.disabled_tools)
        allowed = server.config.allowed_tools
        on = item.checkState(0) == Qt.CheckState.Checked
        if on:
            off.discard(tool)
        elif allowed is None:
            off.add(tool)
        if allowed is not None:  # a "tools" list: it is what says which ones are offered
            allowed = allowed | {tool} if on else allowed - {tool}
        self._apply(replace(server.config, disabled_tools=frozenset(off), allowed_tools=allowed))

    def all_tools_on(self) -> asyncio.Future[Any] | None:
        server = self.selected()
        if server is None:
            return None
        return self._apply(replace(server.config, disabled_tools=frozenset(), allowed_tools=None))

    def all_tools_off(self) -> asyncio.Future[Any] | None:
        """None offered (then tick the few to keep): for a server with hundreds."""
        server = self.selected()
        if server is None:
            return None
        return self._apply(replace(server.config, disabled_tools=frozenset(),
                                   allowed_tools=frozenset()))

    def _warn_tools(self) -> None:
        warnings = self.mcp.tool_warnings()
        self.too_many.setText("\n".join(warnings))
        self.too_many.setVisible(bool(warnings))

    def set_risk(self, tool: str, risk: RiskClass) -> None:
        server = self.selected()
        if server is None or server.config.workspace:
            return
        risks = dict(server.config.tool_risk)
        if risk is RiskClass.EXTERNAL:
            risks.pop(tool, None)
        else:
            risks[tool] = risk
        self._apply(replace(server.config, tool_risk=risks))

    def _apply(self, config: ServerConfig) -> asyncio.Future[Any]:
        return self._run(self.mcp.apply(config))

    def add_server(self) -> AddServerDialog:
        dialog = AddServerDialog(self)
        dialog.accepted.connect(lambda: self._added(dialog.config))
        dialog.open()
        return dialog

    def _added(self, config: ServerConfig | None) -> None:
        if config is None:
            return
        if config.name in self.mcp.servers:
            self.status.setText(self.tr("There is already a server named {name}.").format(
                name=config.name))
            return
        task = self._apply(config)
        task.add_done_callback(lambda _t: self.refresh())

    def import_servers(self, path: Path | None = None) -> asyncio.Future[Any]:
        async def go() -> None:
            sources = ([("the file", path)] if path is not None
                       else await self.mcp.found_sources())
            if not sources:
                chosen, _ = QFileDialog.getOpenFileName(
                    self, self.tr("Import MCP servers"), str(Path.home()),
                    self.tr("JSON files (*.json)"))
                if not chosen:
                    return
                sources = [("the file", Path(chosen))]
            notes: list[str] = []
            for app, source in sources:
                try:
                    added, skipped = await self.mcp.import_file(source)
                except ConfigError as exc:
                    notes.append(f"{app}: {exc}")
                    continue
                notes.extend(skipped)
                if added:
                    notes.insert(0, self.tr("From {app}: added {names}.").format(
                        app=app, names=", ".join(added)))
            self.refresh()
            self.problems.setText("\n".join(notes))
            self.problems.setVisible(bool(notes))

        return self._run(go())

    def test_server(self) -> asyncio.Future[Any] | None:
        server = self.selected()
        if server is None:
            return None

        async def go() -> None:
            self.log.setPlainText(self.tr("Testing {name}…").format(name=server.config.name))
            result = await self.mcp.check(server)
            text = result.message
            if result.tools:
                text += "\n" + self.tr("Tools: {names}").format(names=", ".join(result.tools))
            if result.stderr:
                text += "\n\n" + result.stderr
            self.log.setPlainText(text)

        return self._run(go())

    def restart_server(self) -> asyncio.Future[Any] | None:
        server = self.selected()
        return self._run(server.restart()) if server is not None else None

    def sign_in(self, browser: Any = None) -> asyncio.Future[Any] | None:
        """Sign in to the selected HTTP server in the browser (OAuth)."""
        server = self.selected()
        if server is None:
            return None

        async def go() -> None:
            self.log.setPlainText(self.tr("Finish signing in in your browser…"))
            try:
                await server.sign_in(browser=browser)
            except McpFailure as exc:
                self.log.setPlainText(str(exc))
                return
            self.log.setPlainText(self.tr("Signed in."))

        return self._run(go())

    def trust_workspace(self) -> Any:
        """Show what the folder's MCP file would run (a window that does not block);
        its servers start if the user says yes. Returns the question window."""
        from PySide6.QtWidgets import QMessageBox

        path = self.mcp.untrusted_file()
        if path is None:
            return None
        try:
            servers = self.mcp.servers_in_file(path)
        except ConfigError as exc:
            self.problems.setText(str(exc))
            return None
        listing = "\n".join(
            f"• {s.name}: {s.describe()}" + (
                "\n   " + self.tr("gets from your keyring: {names}").format(
                    names=", ".join(names)) if names else "")
            for s, names in servers)
        box = QMessageBox(
            QMessageBox.Icon.Question, self.tr("Trust this folder's MCP servers?"),
            self.tr("{path} asks to run these programs:\n\n{listing}\n\nOnly trust files "
                    "you or your team wrote. If the file changes, you are asked again.").format(
                        path=path, listing=listing),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setDefaultButton(QMessageBox.StandardButton.No)

        def answered(button: Any) -> None:
            if box.standardButton(button) == QMessageBox.StandardButton.Yes:
                self.trusting = self._run(self._trusted())

        box.buttonClicked.connect(answered)
        box.open()
        return box

    async def _trusted(self) -> None:
        await self.mcp.trust_workspace()
        self.trust_button.setVisible(False)
        self.problems.setText("\n".join(self.mcp.problems))
        self.problems.setVisible(bool(self.mcp.problems))
        self.refresh()

    def remove_server(self) -> asyncio.Future[Any] | None:
        server = self.selected()
        if server is None or server.config.workspace:
            return None

        async def go() -> None:
            await self.mcp.remove(server.config.name)
            self.refresh()

        return self._run(go())

    def run_doctor(self) -> asyncio.Future[Any]:
        async def go() -> None:
            self.log.setPlainText(self.tr("Looking for node, npx, uvx and python…"))
            self.log.setPlainText("\n".join(await self.mcp.doctor()))

        return self._run(go())


def _hints(info: Any) -> str:
    words = []
    if info.read_only_hint:
        words.append("only reads")
    if info.destructive_hint:
        words.append("may delete or overwrite")
    return ", ".join(words)


def _risk_label(risk: RiskClass) -> str:
    return {
        RiskClass.READ: "Only reads",
        RiskClass.WRITE_LOCAL: "Changes local files",
        RiskClass.EXEC: "Runs programs",
        RiskClass.EXTERNAL: "Reaches outside (default)",
    }[risk]
