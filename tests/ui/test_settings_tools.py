"""Settings › Installed tools: what a coworker installed on request, with Remove
(the real pip, from a local folder: no network)."""

from __future__ import annotations

from pathlib import Path

import pytest

from openworker_qt.tools.installs import ManagedTools, request_from
from tests.tools.test_installs import wheel
from tests.ui.conftest import act, run, until


@pytest.fixture
def local_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "index"
    folder.mkdir()
    wheel(folder)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(folder))
    return folder


def test_the_page_lists_what_was_installed_and_removes_it(
    qloop, make_desktop, local_index: Path
) -> None:
    desktop = make_desktop()
    managed = ManagedTools(desktop.runtime.paths.data / "tools")
    run(qloop, lambda: managed.install(request_from({"package": "ow-hello"}), "greet the team"))
    settings = act(qloop, desktop.show_settings)
    page = settings.tools
    run(qloop, lambda: until(lambda: not page.busy() and page.items, what="the list"))
    row = page.tree.topLevelItem(0)
    assert [row.text(i) for i in range(6)] == ["ow-hello", "0.1.0", "PyPI (pip)", "greet the team",
                                               "1 KB", "MIT"]
    assert "sha256" in row.toolTip(0) and not page.empty.isVisibleTo(page)
    act(qloop, page.remove.click)
    run(qloop, lambda: until(lambda: not page.busy(), what="the removal"))
    assert page.status.text() == "ow-hello was removed."
    assert page.items == [] and page.empty.isVisibleTo(page)
    assert managed.installed() == []
