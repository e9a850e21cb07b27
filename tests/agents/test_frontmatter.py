"""Front matter is read by libyaml when the wheel has it: the same mappings as the
Python loader, and a block it refuses still explained in the Python loader's words."""

from __future__ import annotations

from importlib import resources

import pytest
import yaml

from openworker_qt.agents.frontmatter import FrontMatterError, split


def test_every_built_in_persona_reads_as_the_python_loader_reads_it() -> None:
    folder = resources.files("openworker_qt.agents") / "personas"
    texts = [p.read_text(encoding="utf-8") for p in folder.iterdir() if p.name.endswith(".md")]
    assert len(texts) >= 10
    for text in texts:
        lines = text.splitlines(keepends=True)
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
        assert split(text)[0] == yaml.safe_load("".join(lines[1:end]))


def test_the_fast_loader_is_used_where_the_wheel_has_it(monkeypatch: pytest.MonkeyPatch) -> None:
    assert getattr(yaml, "CSafeLoader", None) is not None  # (PyYAML's wheels bundle libyaml)
    used: list[object] = []
    real = yaml.load
    monkeypatch.setattr(yaml, "load", lambda text, **kw: used.append(kw["Loader"]) or real(text, **kw))
    assert split("---\nname: x\ntools: [a, b]\n---\nBody\n") == ({"name": "x", "tools": ["a", "b"]}, "Body\n")
    assert used == [yaml.CSafeLoader]


def test_a_broken_block_is_explained_in_the_python_loader_s_words() -> None:
    with pytest.raises(FrontMatterError) as caught:
        split("---\nname: x\ntools: [a,\nb: c\n---\nBody\n", source="p.md")
    try:
        yaml.safe_load("name: x\ntools: [a,\nb: c\n")
    except yaml.YAMLError as exc:
        expected = exc
    mark = getattr(expected, "problem_mark", None)
    assert mark is not None
    assert f"(line {mark.line + 2})" in str(caught.value)
    assert str(getattr(expected, "problem", "")) in str(caught.value)
