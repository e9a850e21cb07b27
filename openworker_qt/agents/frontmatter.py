"""Markdown files with YAML front matter (personas, SKILL.md).

The file starts with a ``---`` line, the YAML mapping, another ``---`` line, then
the Markdown body. :func:`split` returns the mapping and the body, or raises
:class:`FrontMatterError` saying what is wrong (and where) in plain words.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FrontMatterError", "split"]


class FrontMatterError(ValueError):
    """The front matter is missing or is not a YAML mapping."""


def split(text: str, *, source: str = "the file") -> tuple[dict[str, Any], str]:
    """``(front matter, body)`` of ``text``; :class:`FrontMatterError` if it has none."""
    import yaml  # imported on first use (a worker thread: never on the loop)

    text = text.lstrip("\ufeff")
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        raise FrontMatterError(f"{source} does not start with a '---' front matter block")
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    if end is None:
        raise FrontMatterError(f"{source}: the front matter block is not closed by a '---' line")
    block = "".join(lines[1:end])
    try:
        data = _load(yaml, block)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise FrontMatterError(f"{source}: the front matter is not valid YAML{where}: {problem}") from exc
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FrontMatterError(f"{source}: the front matter must be a set of 'key: value' lines")
    return {str(k): v for k, v in data.items()}, "".join(lines[end + 1:]).strip("\n") + "\n"


def _load(yaml: Any, block: str) -> Any:
    """The YAML ``block`` read by libyaml's safe loader when the wheel has it (the same
    documents, ~6x faster: a first turn reads every built-in persona); a block it
    refuses is read again by the Python one, whose words (and line) the error gives."""
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            return yaml.load(block, Loader=fast)
        except yaml.YAMLError:
            pass
    return yaml.safe_load(block)
