"""The connectors' words in Simplified Chinese: every descriptor string of every
registered connector, and every template of the errors they raise, has a finished
translation that keeps its technical tokens and placeholders,
scripts/connector_strings.py finds a new connector's words (and a message that is
not a template), and the settings page shows them translated — a token Slack
refuses included."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from openworker_qt.connectors.base import ConnectorSpec, Field, Identity, ToolDef, obj, s
from openworker_qt.connectors.registry import catalogue
from openworker_qt.ui.theme import install_translator
from tests.ui.test_chinese_walk import english_left

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "resources" / "translations" / "openworker_qt_zh_CN.ts"
CJK = re.compile(r"[\u3400-\u9fff]")
PLACEHOLDER = re.compile(r"\{\w+\}")
# What stays as it is in a translation: URLs, token prefixes, scopes, hosts,
# {placeholders}, @handles and /commands.
TOKEN = re.compile(r"https?://[\w./-]*\w|\bx[a-z]{3}-|\b\w+:\w+\b|"
                   r"\b(?!e\.g\b)[\w-]+(?:\.[\w-]+)+\b|\{\w+\}|@[A-Z]\w+|(?<!\w)/\w+")


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("connector_strings", ROOT / "scripts" / "connector_strings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["connector_strings"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script()


def translations() -> dict[str, str]:
    found = {}
    for context in ET.parse(TS).getroot().findall("context"):
        if context.findtext("name") == "Connectors":
            for m in context.findall("message"):
                t = m.find("translation")
                if t is not None and not t.get("type"):
                    found[m.findtext("source") or ""] = t.text or ""
    return found


def test_every_connector_string_has_a_chinese_translation(script: ModuleType) -> None:
    strings = script.connector_strings()
    assert set(script.descriptor_strings(catalogue())) < set(strings)
    assert len(strings) > 100
    assert "Bot token" in strings and "Slack" not in strings  # names stay as written
    assert ("{service} refused the credentials (expired or revoked). Reconnect {service} "
            "in Settings → Connectors.") in strings  # the errors' templates too
    done = translations()
    missing = [t for t in strings if not done.get(t, "").strip()]
    assert not missing, "Connector strings without Chinese (run scripts/connector_strings.py " \
        "and translate them):\n" + "\n".join(missing)
    for text in strings:
        translated = done[text]
        if re.search(r"[A-Za-z]{3,} [A-Za-z]{3,}", text):  # a phrase, not a bare token
            assert CJK.search(translated), f"{text!r} is not in Chinese: {translated!r}"
        assert not english_left(PLACEHOLDER.sub(" ", translated)), f"English left in {translated!r}"
        for token in TOKEN.findall(text):
            assert token in translated, f"{token!r} of {text!r} is lost in {translated!r}"
        # The same placeholders: the translation is filled with the template's values.
        assert sorted(PLACEHOLDER.findall(translated)) == sorted(PLACEHOLDER.findall(text)), \
            f"the placeholders of {text!r} differ in {translated!r}"


def test_every_connector_error_is_a_template(script: ModuleType, tmp_path: Path) -> None:
    """A message built with an f-string could not be translated: the script says where."""
    templates, wrong = script.error_templates()
    assert wrong == []
    assert len(templates) > 50
    assert "{service} is rate limiting requests; it asks to wait {seconds} s. " \
        "Try again later." in templates
    assert any(t.startswith("No Chromium found ({where}). Install Chromium") for t in templates)
    source = tmp_path / "acme.py"
    source.write_text(
        "from openworker_qt.connectors.base import ConnectorError\n"
        "HINT = 'Ask the admin.'\n"
        "def a(name):\n"
        "    raise ConnectorError('auth', f'{name} said no.')\n"
        "def b(name):\n"
        "    raise ConnectorError('auth', '{name} said no. ' + HINT, name=name)\n",
        encoding="utf-8")
    templates, wrong = script.error_templates([source])
    assert templates == ["{name} said no. Ask the admin."]
    assert wrong == [f"{source}:4: the message is not a constant template"]


def test_the_check_fails_for_a_new_connector_without_chinese(script: ModuleType) -> None:
    async def run(client: object, arguments: dict[str, object]) -> str:
        return ""

    async def validate(client: object) -> Identity:
        return Identity("x")

    new = ConnectorSpec(
        id="acme", name="Acme", category="Chat", description="Read Acme's shouts.",
        fields=(Field("token", "Shout token", help="From acme.example → Tokens."),),
        client=lambda values, policy: None, validate=validate,
        tools=(ToolDef("acme_read", "Read the shouts.", obj({"room": s("room")}), run),))
    strings = script.descriptor_strings([*catalogue(), new])
    root = ET.parse(TS).getroot()
    new_words = {"Read Acme's shouts.", "Shout token", "From acme.example → Tokens.",
                 "Read the shouts."}
    # (with the catalogue, also the tool's first sentence: "Read the shouts")
    assert new_words <= set(script.untranslated(root, strings)) <= new_words | {"Read the shouts"}
    # The script adds them to be translated, and keeps every translation there is.
    before = translations()
    assert script.update(root, strings) == script.untranslated(root, strings)
    text = script.write_ts(root)
    assert text.count("<source>Shout token</source>") == 1
    assert 'type="unfinished"' in text.split("<source>Shout token</source>")[1].split("</message>")[0]
    reread = ET.fromstring(text)
    assert script.untranslated(reread, list(before)) == []
    assert main_check(script, TS) == 0


def main_check(script: ModuleType, ts: Path) -> int:
    return int(script.main(["--check", str(ts)]))


def test_the_script_brings_back_what_lupdate_marked_vanished(script: ModuleType, tmp_path: Path) -> None:
    ts = tmp_path / "x_zh_CN.ts"
    ts.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="zh_CN">\n'
        "    <context>\n        <name>Connectors</name>\n        <message>\n"
        "            <source>Bot token</source>\n"
        '            <translation type="vanished">机器人令牌</translation>\n'
        "        </message>\n    </context>\n</TS>\n", encoding="utf-8")
    assert main_check(script, ts) == 1  # vanished is not finished
    assert script.main([str(ts)]) == 0
    root = ET.parse(ts).getroot()
    bot = next(m for m in root.iter("message") if m.findtext("source") == "Bot token")
    assert bot.find("translation").attrib == {} and bot.findtext("translation") == "机器人令牌"
    assert len(script.untranslated(root, script.descriptor_strings())) == len(
        script.descriptor_strings()) - 1


def test_the_shipped_file_is_written_back_unchanged(script: ModuleType) -> None:
    """The script rewrites the .ts as lupdate writes it: running it changes only its context."""
    text = TS.read_text(encoding="utf-8")
    assert script.write_ts(ET.fromstring(text)) == text


@pytest.fixture
def chinese(qapp) -> Iterator[str]:
    used = install_translator(qapp, "zh_CN")
    yield used
    install_translator(qapp, "en")


def test_the_slack_page_in_chinese(chinese: str, qapp, qtbot) -> None:
    from openworker_qt.ui.settings_connectors import ConnectorsPage, identity_text
    from tests.connectors.helpers import Sleeps, runtime

    page = ConnectorsPage(runtime(Sleeps()).connectors)
    qtbot.addWidget(page)
    page.select("slack")
    assert page.title.text() == "Slack · 聊天"
    assert page.description.text().startswith("读取并发送频道和话题中的消息")
    assert page.edits["bot_token"].accessibleName() == "机器人令牌"
    assert "xoxb-…" in page.edits["bot_token"].accessibleDescription()
    assert "chat:write" in page.edits["bot_token"].accessibleDescription()
    assert "未连接" in page.list.currentItem().toolTip()
    assert identity_text("Connected as @ana in Acme") == "已连接：Acme 中的 @ana"
    install_translator(qapp, "en")
    assert identity_text("Connected as @ana in Acme") == "Connected as @ana in Acme"


def test_union_keeps_both_sides_messages(script: ModuleType, tmp_path: Path) -> None:
    """Two branches' translation files merged: every message of both, finished first."""
    def ts(*messages: tuple[str, str, str, str]) -> ET.Element:
        root = ET.Element("TS", version="2.1", language="zh_CN")
        for context, source, text, kind in messages:
            c = next((c for c in root if c.findtext("name") == context), None)
            if c is None:
                c = ET.SubElement(root, "context")
                ET.SubElement(c, "name").text = context
            m = ET.SubElement(c, "message")
            ET.SubElement(m, "source").text = source
            t = ET.SubElement(m, "translation", **({"type": kind} if kind else {}))
            t.text = text or None
        return root

    ours = ts(("A", "Yes", "是", ""), ("B", "Later", "", "unfinished"))
    theirs = ts(("B", "Later", "稍后", ""), ("B", "Now", "现在", ""), ("Z", "Go", "前往", ""))
    assert script.union(ours, theirs) == 3
    got = {(c.findtext("name"), m.findtext("source")): m.findtext("translation")
           for c in ET.fromstring(script.write_ts(ours)) for m in c.findall("message")}
    assert got == {("A", "Yes"): "是", ("B", "Later"): "稍后", ("B", "Now"): "现在",
                   ("Z", "Go"): "前往"}
    assert script.union(ours, theirs) == 0  # nothing new the second time


async def test_a_token_slack_refuses_is_said_in_chinese(chinese: str, qtbot) -> None:
    """The local Slack refuses the bot token (revoked since it was connected): testing
    the connection, connecting with a wrong token, and the stored state on a page
    opened later all say so in Chinese, with Slack's own error code kept."""
    from openworker_qt.ui.connector_catalog import ConnectorCatalog
    from openworker_qt.ui.settings_connectors import ConnectorsPage
    from tests.connectors.helpers import Sleeps, runtime
    from tests.connectors.slack_stub import SlackStub
    from tests.connectors.test_settings_page import settle

    refused = "Slack 拒绝了令牌（invalid_auth）。请在“设置 → 连接器”中重新连接 Slack。"
    stub = SlackStub()
    await stub.start()
    rt = runtime(Sleeps())
    try:
        await rt.connectors.connect("slack", {
            "bot_token": "xoxb-test-bot-token", "allowed_users": "U1", "api_url": stub.api_url})
        stub.tokens.clear()  # revoked in Slack
        page = ConnectorsPage(rt.connectors)
        qtbot.addWidget(page)
        page.select("slack")
        page.test_button.click()
        await settle(page)
        assert page.message.text() == f"需要处理：{refused}"
        assert not english_left(page.message.text())
        state = rt.connectors.state("slack")
        assert state.status == "failed"
        assert state.error == ("Slack refused the token (invalid_auth). Reconnect Slack in "
                               "Settings → Connectors.")  # the CLI and the model read English

        page.edits["bot_token"].setText("xoxb-wrong-token")
        page.connect_button.click()
        await settle(page)
        assert page.message.text() == refused

        later = ConnectorsPage(rt.connectors)  # opened again: the stored error, in Chinese
        qtbot.addWidget(later)
        later.select("slack")
        assert later.state_label.text() == f"需要处理：{refused}"
        catalog = ConnectorCatalog(rt.connectors)  # and the catalogue's card says it too
        qtbot.addWidget(catalog)
        assert catalog.cards["slack"].state.toolTip().endswith(f" — {refused}")
    finally:
        rt.close()
        await stub.stop()


def test_an_errors_values_are_filled_after_translation(chinese: str) -> None:
    from openworker_qt.connectors.base import ConnectorError, Words
    from openworker_qt.qt.connector_words import error_text, failure_text

    exc = ConnectorError("config", "{service} needs: {fields}.", service="Slack",
                         fields=Words(("Bot token", "Allowed members")))
    assert exc.message == "Slack needs: Bot token, Allowed members."
    assert failure_text(exc) == "Slack 还需要：机器人令牌, 允许的成员。"
    # Braces in a value are the value's; a template without values is not formatted.
    assert error_text("{service}: {detail}", {"service": "Linear", "detail": "{x}"}) == \
        "Linear：{x}"
    assert error_text('Give the new record\'s fields as an object, e.g. {"Name": "Ana"}.') == \
        '请以对象形式提供新记录的字段，例如 {"Name": "Ana"}。'
    # A template nobody translated yet, or one whose values are missing: still English.
    assert error_text("{who} left.", {"who": "Ana"}) == "Ana left."
    assert error_text("{who} left.", {}) == "{who} left."
