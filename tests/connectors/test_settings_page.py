"""Settings → Connectors: generated from the descriptors, connecting through the
real registry against a local GitHub stub (real widgets offscreen; the page's
checks run as tasks on the test's event loop)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
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


async def test_a_yes_no_field_is_a_checkbox_and_turns_stripes_changes_on_and_off(
    qtbot: Any,
) -> None:
    from PySide6.QtWidgets import QCheckBox

    stub = StubServer()
    await stub.start()
    stub.add("GET", "/v1/account", json_reply({"id": "acct_1", "email": "ana@acme.com"}))
    rt = runtime(Sleeps())
    try:
        def stripe_tools() -> set[str]:
            return {t.name for t in rt.connectors.tools() if t.origin == "connector:stripe"}

        page = ConnectorsPage(rt.connectors)
        qtbot.addWidget(page)
        page.select("stripe")
        assert "allow_changes" not in page.edits  # not a box to type "yes" in
        check = page.checks["allow_changes"]
        assert isinstance(check, QCheckBox) and not check.isChecked()
        assert check.accessibleName() == "Allow changes"
        assert "refund" in check.accessibleDescription()

        # Read-only first (connected here: the page has no field for the stub's address).
        await rt.connectors.connect("stripe", {"token": "sk_test_0001", "api_url": stub.url})
        page.select("github")
        page.select("stripe")
        assert not page.checks["allow_changes"].isChecked()
        assert "stripe_refund" not in stripe_tools()

        page.checks["allow_changes"].setChecked(True)
        page.connect_button.click()  # the stored key and address are kept
        await settle(page)
        assert page.message.text() == "Connected as ana@acme.com in Stripe (test mode)"
        assert rt.connectors.state("stripe").settings["allow_changes"] == "yes"
        assert "stripe_refund" in stripe_tools()
        page.select("github")
        page.select("stripe")  # shown again from what is stored
        assert page.checks["allow_changes"].isChecked()

        page.checks["allow_changes"].setChecked(False)
        page.connect_button.click()
        await settle(page)
        assert "allow_changes" not in rt.connectors.state("stripe").settings
        assert "stripe_refund" not in stripe_tools()
    finally:
        rt.close()
        await stub.stop()


async def test_yes_no_values_stay_compatible_and_nonsense_is_refused() -> None:
    from openworker_qt.connectors.base import ConnectorError, is_on

    rt = runtime(Sleeps())
    try:
        spec = rt.connectors.spec("stripe")
        assert spec.field("allow_changes").kind == "bool"
        for typed, stored in (("yes", "yes"), ("On", "yes"), ("true", "yes"), ("no", None),
                              ("off", None), ("", None)):
            clean = rt.connectors.check_values(spec, {"token": "sk", "allow_changes": typed})
            assert clean.get("allow_changes") == stored
        assert is_on("yes") and is_on("Y") and not is_on("no") and not is_on(None)
        with pytest.raises(ConnectorError) as refused:
            rt.connectors.check_values(spec, {"token": "sk", "allow_changes": "maybe"})
        assert refused.value.message == "Stripe: Allow changes is yes or no, not 'maybe'."
    finally:
        rt.close()
