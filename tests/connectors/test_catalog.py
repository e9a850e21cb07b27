"""The connector catalogue (real widgets offscreen, the real registry and database):
every connector is on it with its state, the search box filters as you type, the
category list narrows, and picking one selects it on the settings page."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.registry import catalogue
from openworker_qt.connectors.summary import does, reads
from openworker_qt.ui.connector_catalog import ConnectorCatalog, initials
from openworker_qt.ui.settings_connectors import ConnectorsPage
from tests.connectors.helpers import Sleeps, runtime
from tests.ui.test_accessibility import assert_accessible


def test_search_filters_as_you_type_and_connected_state_shows(qtbot: Any, qloop: Any) -> None:
    rt = runtime(Sleeps())
    try:
        qloop.run_until_complete(rt.connectors.connect("browser", {}))
        dialog = ConnectorCatalog(rt.connectors)
        qtbot.addWidget(dialog)
        dialog.show()
        assert_accessible(dialog)  # every control named, the same names told apart
        everything = {s.id for s in catalogue()}
        assert set(dialog.visible_ids()) == everything

        card = dialog.cards["browser"]
        assert "Connected" in card.state.text() and card.button.text() == "Manage"
        assert "Chromium" in card.state.toolTip()
        assert "Not connected" in dialog.cards["slack"].state.text()
        assert dialog.cards["slack"].button.text() == "Set up"
        assert "1 connected" in dialog.summary.text()

        qtbot.keyClicks(dialog.search, "gi")  # as you type: GitHub, GitLab, …
        partial = set(dialog.visible_ids())
        assert {"github", "gitlab"} <= partial and "slack" not in partial
        qtbot.keyClicks(dialog.search, "tlab")
        assert dialog.visible_ids() == ["gitlab"]
        assert dialog.headers["Code"].isVisibleTo(dialog.body)
        assert not dialog.headers["Chat"].isVisibleTo(dialog.body)
        assert dialog.summary.text().startswith(f"1 of {len(everything)} connectors")

        dialog.search.setText("incident")  # the words of what it does, not only names
        assert "pagerduty" in dialog.visible_ids()

        dialog.search.setText("no such service")
        assert dialog.visible_ids() == [] and dialog.empty.isVisibleTo(dialog.body)
        assert "No connector matches" in dialog.empty.text()

        dialog.search.clear()
        dialog.category.setCurrentIndex(dialog.category.findData("Mail"))
        assert set(dialog.visible_ids()) == {s.id for s in catalogue() if s.category == "Mail"}
    finally:
        rt.close()


def test_reads_and_does_in_plain_words() -> None:
    browser = next(s for s in catalogue() if s.id == "browser")
    assert "Open a web page in the session's browser" in does(browser)  # asides left out
    assert "The current page's text" in reads(browser)
    assert [initials(n) for n in ("GitHub", "Google Calendar", "Slack", "monday.com",
                                  "Mail (IMAP/SMTP)")] == ["GH", "GC", "S", "M", "M"]


def test_the_settings_page_opens_it_and_a_pick_selects_the_connector(
        qtbot: Any, qloop: Any) -> None:
    rt = runtime(Sleeps())
    try:
        page = ConnectorsPage(rt.connectors)
        qtbot.addWidget(page)
        page.show()
        page.catalog_button.click()
        dialog = page.findChild(ConnectorCatalog)
        assert dialog is not None and dialog.isVisible()
        dialog.search.setText("notion")
        dialog.cards["notion"].button.click()
        assert not dialog.isVisible()
        assert page.selected is not None and page.selected.id == "notion"
    finally:
        rt.close()


def test_a_summary_sentence_does_not_stop_at_an_abbreviation() -> None:
    from openworker_qt.connectors.summary import sentence

    assert sentence("Add an annotation to a chart (e.g. a release). More.") == (
        "Add an annotation to a chart")
    assert sentence("Run a query, e.g. SELECT 1 FROM t. Then more.") == (
        "Run a query, e.g. SELECT 1 FROM t")
    assert sentence("One. Two.") == "One"
