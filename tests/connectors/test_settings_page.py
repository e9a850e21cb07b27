"""Settings → Connectors: generated from the descriptors, connecting through the
real registry against a local GitHub stub (real widgets offscreen; the page's
checks run as tasks on the test's event loop)."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtWidgets import QLineEdit

from openworker_qt.connectors.registry import secret_name
from openworker_qt.storage import secrets
from openworker_qt.ui.settings_connectors import ConnectorsPage
from tests.connectors.helpers import Sleeps, json_reply, runtime
from tests.providers.stubs import StubServer


async def settle(page: ConnectorsPage) -> None:
    task = page.task
    assert task is not None
    await asyncio.wait_for(asyncio.shield(task), 20)
    await asyncio.sleep(0)  # the done callback


async def test_the_page_lists_every_connector_and_connects_one(qtbot: Any) -> None:
    stub = StubServer()
    await stub.start()
    rt = runtime(Sleeps())
    try:
        page = ConnectorsPage(rt.connectors)
        qtbot.addWidget(page)
        page.resize(900, 600)
        page.show()
        names = [page.list.item(i).text() for i in range(page.list.count())]
        assert len(names) == len(rt.connectors.specs)
        assert any("Slack" in n and "not connected" in n for n in names)

        page.select("jira")  # fields and their help come from the descriptor
        assert set(page.edits) == {"site", "email", "token"}
        assert page.edits["token"].echoMode() == QLineEdit.EchoMode.Password
        assert "id.atlassian.com" in page.edits["token"].accessibleDescription()

        page.select("github")
        page.edits["api_url"].setText(stub.url)
        page.edits["token"].setText("ghp_wrong_token_0001")
        stub.add("GET", "/user", json_reply({"message": "Bad credentials"}, 401))
        page.connect_button.click()
        await settle(page)
        assert "refused the credentials" in page.message.text()
        assert rt.connectors.state("github").status == "not connected"
        assert page.edits["api_url"].text() == stub.url  # what was typed stays

        stub.routes.clear()
        stub.add("GET", "/user", json_reply({"login": "ana"}))
        page.edits["token"].setText("ghp_right_token_0002")
        page.connect_button.click()
        await settle(page)
        assert page.message.text() == "Connected as @ana in GitHub"
        assert page.state_label.text() == "✓ Connected as @ana in GitHub"
        assert "connected" in page.list.currentItem().text()
        assert secrets.get_secret(secret_name("github", "token")) == "ghp_right_token_0002"
        # The token is never shown again; reconnecting with it left empty keeps it.
        assert page.edits["token"].text() == ""
        page.connect_button.click()
        await settle(page)
        assert stub.seen[-1].headers["authorization"] == "Bearer ghp_right_token_0002"

        page.disconnect_button.click()
        await settle(page)
        assert rt.connectors.state("github").status == "not connected"
        assert secrets.get_secret(secret_name("github", "token")) is None
    finally:
        rt.close()
        await stub.stop()


def test_the_page_in_chinese(qtbot: Any, qapp: Any) -> None:
    from openworker_qt.ui.theme import install_translator

    assert install_translator(qapp, "zh_CN") == "zh_CN"
    rt = runtime(Sleeps())
    try:
        page = ConnectorsPage(rt.connectors)
        qtbot.addWidget(page)
        page.select("slack")
        assert page.list.currentItem().text().endswith("Slack — 未连接")
        assert page.state_label.text() == "未连接"
        assert page.connect_button.text() == "连接(&C)"
        assert page.test_button.accessibleName() == "测试连接"
    finally:
        install_translator(qapp, "en")
        qapp.processEvents()  # the language change reaches the page while it lives
        rt.close()
