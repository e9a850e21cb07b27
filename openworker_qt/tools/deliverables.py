"""``create_deliverable``: a finished file (md, html, csv, xlsx, docx, pdf, pptx, png, svg) in the output folder.

Deliverables go in ``<workspace>/outputs/`` (the app's data folder is protected
state; the workspace is where the session may write). ``path`` names the file
relative to the workspace and must lie inside that folder: anything else is
refused before anything is built. The tool is WRITE_LOCAL with ``target=path``,
so the permission engine checks (and asks about) the write like any other; the
bytes go through the same atomic write as ``write_file``, and every version is kept
(deliverables/versions.py: ``outputs/.versions/<name>/v1…``; a revision never loses the
file it replaces, and the result's display names the version and its kept copy; the
model cannot write into ``outputs/.versions/`` itself). Images named in the
content must be PNG or JPEG files inside the workspace (the one read root that
needs no grant): a deliverable never carries a file the model could not read.
Building the file (openpyxl, python-docx, fpdf2, python-pptx, Pillow for charts:
imported there) runs in a worker thread. A deck (pptx) is a list of slides
(deliverables/slide_spec.py, slides.py); a chart on its own (png, svg) is one chart block
(deliverables/charts.py, the same picture documents embed).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openworker_qt.core.fence import has_state_dir, is_within, not_a_path
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.domain import documents as kinds
from openworker_qt.tools.files import resolve_path, size_text, write_bytes

OUTPUT_DIR = "outputs"
VERSIONS_DIR = ".versions"  # deliverables/versions.py keeps each version there
SUFFIXES = {"md": ".md", "html": ".html", "csv": ".csv", "xlsx": ".xlsx", "docx": ".docx",
            "pdf": ".pdf", "pptx": ".pptx", "png": ".png", "svg": ".svg"}
#: ``ctx.state`` key for the name written as a file's author (the user's name, when the
#: app knows it); without it, files name no author.
AUTHOR_STATE = "deliverable_author"


def _error(text: str) -> ToolResult:
    return ToolResult(f"Error: {text}", is_error=True)


def _build(path: Path, fmt: str, title: str, blocks: list[dict[str, Any]],
           options: Any = None) -> ToolResult:
    from openworker_qt.deliverables import documents

    try:
        rendered = documents.render(fmt, title, blocks, options)
    except documents.DocumentError as exc:
        return _error(str(exc))
    return _written(path, fmt, rendered.data, rendered.summary)


def _written(path: Path, fmt: str, data: bytes, summary: str) -> ToolResult:
    """Write the built file (atomically: a temporary file beside it, then renamed), each
    version kept (deliverables/versions.py): what the file held is kept first, unless
    it is kept already, then the new bytes as the next version."""
    from openworker_qt.deliverables import versions

    try:
        before = versions.keep_current(path)
    except OSError as exc:
        return _error(f"the version {path.name} holds now could not be kept, so it was not "
                      f"replaced: {exc.strerror or exc}.")
    result = write_bytes(path, data)
    if result.is_error:
        return result
    size = len(data)
    display: dict[str, Any] = {"path": str(path), "bytes": size, "format": fmt,
                               "summary": summary}
    note = ""
    try:
        version = versions.record(path, data)
    except OSError:
        version = None
    if version is not None:
        display |= {"version": version.number, "version_path": str(version.path)}
        if before is not None:
            note = (f"; version {version.number}, the earlier ones kept in "
                    f"{versions.archive_dir(path)}")
    return ToolResult(
        f"{result.content.split(' (')[0]} ({fmt.upper()}, {size_text(size)}, {summary}{note}).",
        display=display,
    )


def _build_deck(path: Path, slide_list: list[dict[str, Any]], title: str, author: str,
                language: str) -> ToolResult:
    from openworker_qt.deliverables import slides
    from openworker_qt.deliverables.slide_spec import SlideError

    try:
        data, summary = slides.render(slide_list, title=title, author=author,
                                      language=language)
    except SlideError as exc:
        return _error(str(exc))
    return _written(path, "pptx", data, summary)


def _build_chart(path: Path, fmt: str, block: dict[str, Any]) -> ToolResult:
    from openworker_qt.deliverables import charts, documents

    try:
        draw = charts.chart_svg if fmt == "svg" else charts.chart_png
        data = draw(block, documents.unicode_font())
    except charts.ChartError as exc:
        return _error(f"the chart cannot be drawn: {exc}")
    summary = f"{block.get('kind', 'bar')} chart, {len(block['labels'])} labels"
    return _written(path, fmt, data, summary)


def _deck(args: dict[str, Any], ctx: ToolContext, path: Path, title: str, author: str) -> Any:
    """The deck's build job, or an error result (nothing is built for bad slides)."""
    from openworker_qt.deliverables import documents, slide_spec

    language = args.get("language", "")
    if not isinstance(language, str) or len(language) > 35:
        return _error("'language' must be a language tag such as 'en-US' or 'zh-CN'.")
    n = 0
    try:
        slide_list = slide_spec.validate(args.get("content"))
        for slide in slide_list:
            n += 1
            if slide["layout"] == "image":
                found = _with_image({"type": "image", "path": slide["path"]}, ctx)
                slide["path"] = found["path"]
                slide_spec.image_data(slide["path"])  # a file that is no picture: refused now
    except (slide_spec.SlideError, documents.DocumentError) as exc:
        where = "" if str(exc).startswith("Slide ") or not n else f"Slide {n}: "
        return _error(where + str(exc))
    return asyncio.to_thread(_build_deck, path, slide_list, title, author, language)


def _author(ctx: ToolContext, source: Callable[[], str] | None) -> str:
    """The name written as the file's author: the session's (``AUTHOR_STATE``), else the
    user's name from settings (``general.user_name``, through the tool's ``author``), else
    none. Never the computer's login name: a file leaves the machine, a login is not a
    person's name, and the user decides what their documents say about them."""
    author = ctx.state.get(AUTHOR_STATE)
    if not isinstance(author, str):
        author = source() if source is not None else ""
    return author.strip()[:200] if isinstance(author, str) else ""


def _options(args: dict[str, Any], author: str) -> Any:
    """The document's options from the call (a cover page, contents, a subtitle) and the
    author; an error result for a bad value."""
    from openworker_qt.deliverables.base import Options

    for key in ("cover", "contents"):
        if not isinstance(args.get(key, False), bool):
            return _error(f"'{key}' must be true or false.")
    subtitle = args.get("subtitle", "")
    if not isinstance(subtitle, str):
        return _error("'subtitle' must be a string.")
    return Options(author=author, cover=bool(args.get("cover")),
                   contents=bool(args.get("contents")), subtitle=subtitle)


def _chart(args: dict[str, Any], path: Path, fmt: str) -> Any:
    from openworker_qt.deliverables import charts

    content = args.get("content")
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list) or len(content) != 1 or not isinstance(
            content[0], dict) or content[0].get("type", "chart") != "chart":
        return _error(f"a {fmt} deliverable holds exactly one block, of type 'chart'.")
    block = dict(content[0])
    if args.get("title") and not block.get("title"):
        block["title"] = args["title"]
    try:
        charts.check_chart(block)
    except charts.ChartError as exc:
        return _error(f"the chart cannot be drawn: {exc}")
    return asyncio.to_thread(_build_chart, path, fmt, block)


async def create_deliverable(args: dict[str, Any], ctx: ToolContext, *,
                             author_source: Callable[[], str] | None = None) -> ToolResult:
    from openworker_qt.deliverables import documents

    author = _author(ctx, author_source)
    fmt = str(args.get("format", "")).lower().lstrip(".")
    if fmt not in kinds.ALL_FORMATS:
        return _error(f"unknown format {args.get('format')!r}; use one of: "
                      f"{', '.join(kinds.ALL_FORMATS)}.")
    raw = args.get("path")
    if not isinstance(raw, str) or not raw.strip():
        return _error(f"'path' is required, e.g. '{OUTPUT_DIR}/report{SUFFIXES[fmt]}'.")
    if (why := not_a_path(raw)) is not None:
        return _error(f"{why}.")
    # The folder itself, not where a symlink named "outputs" would lead.
    out_dir = ctx.workspace.resolve() / OUTPUT_DIR
    path = resolve_path(ctx, raw)
    if not path.is_relative_to(out_dir) or path == out_dir:
        return _error(f"deliverables are written inside the output folder {out_dir}; "
                      f"{path} is outside it. Use a path like "
                      f"'{OUTPUT_DIR}/{Path(raw).stem or 'report'}{SUFFIXES[fmt]}'.")
    if VERSIONS_DIR in path.relative_to(out_dir).parts:
        return _error(f"{VERSIONS_DIR}/ holds the kept versions of deliverables and is not "
                      "written to; write the deliverable under its own name (the version "
                      "it replaces is kept).")
    if path.suffix.lower() != SUFFIXES[fmt]:
        return _error(f"a {fmt} deliverable's name ends in {SUFFIXES[fmt]}; got {path.name!r}.")
    title = args.get("title", "")
    if not isinstance(title, str):
        return _error("'title' must be a string.")
    if fmt in kinds.SLIDE_FORMATS or fmt in kinds.CHART_FORMATS:
        job = _deck(args, ctx, path, title, author) if fmt == "pptx" else _chart(
            args, path, fmt)
        return job if isinstance(job, ToolResult) else await job
    options = _options(args, author)
    if isinstance(options, ToolResult):
        return options
    try:
        blocks = documents.validate(fmt, args.get("content"))
        blocks = [_with_image(b, ctx) for b in blocks]
    except documents.DocumentError as exc:
        return _error(str(exc))
    return await asyncio.to_thread(_build, path, fmt, title, blocks, options)


def _with_image(block: dict[str, Any], ctx: ToolContext) -> dict[str, Any]:
    from openworker_qt.deliverables import documents

    if block["type"] != "image":
        return block
    raw = str(block["path"])
    if (why := not_a_path(raw)) is not None:
        raise documents.DocumentError(f"Image {raw!r}: {why}.")
    path = resolve_path(ctx, raw)
    workspace = ctx.workspace.resolve()
    if not is_within(path, workspace) or has_state_dir([path]):
        raise documents.DocumentError(
            f"The image {path} is outside the workspace {workspace}; images in a "
            "deliverable must be files inside the workspace (copy it there first).")
    if not path.is_file():
        raise documents.DocumentError(f"The image {path} does not exist.")
    return {**block, "path": str(path)}


_BLOCK_DOC = (
    "content is a list of blocks, each an object with a 'type': "
    "{type:'heading', text, level:1-3}; {type:'paragraph', text}; "
    "{type:'list', items:[str], ordered:bool}; "
    "{type:'table', columns:[str], rows:[[cell]], sheet?:str, widths?:[number]} "
    "(cells are strings, numbers or null; in xlsx a string starting with '=' is a formula, "
    "e.g. '=B2*C2', rows start at 2 because row 1 is the header); "
    "{type:'image', path, width?:0.1-1 (fraction of page width)} (a PNG/JPEG in the "
    "workspace); {type:'chart', kind:'bar'|'line'|'pie', title, labels:[str], "
    "series:[{name, values:[number]}]} (rendered as a PNG picture). "
    "In text, list items and cells, **bold**, *italic*, `code` and [link](url) are drawn "
    "as such; in xlsx, '$1,200' and '12.5%' become formatted numbers."
)

_SLIDE_DOC = (
    " For 'pptx' (a 16:9 slide deck) content is instead a list of slides, each an object "
    "with a 'layout' and optional 'notes' (speaker notes): "
    "{layout:'title', title, subtitle?}; {layout:'section', title, subtitle?}; "
    "{layout:'bullets', title, bullets:[str | {text, bullets:[...]}]} (sub-points nest up "
    "to 4 levels, at most 14 points a slide); {layout:'two_column', title, left:[bullets], "
    "right:[bullets], left_heading?, right_heading?}; {layout:'table', title, columns, "
    "rows} (at most 15 rows and 8 columns: put big tables in an xlsx); "
    "{layout:'chart', title, chart:{kind, labels, series, title?}} (a native chart); "
    "{layout:'image', title?, path, caption?} (a PNG/JPEG/GIF in the workspace); "
    "{layout:'quote', quote, attribution?}. At most 100 slides; 'language' (e.g. 'zh-CN') "
    "is optional. For 'png' or 'svg' (a chart on its own) content is one chart block."
)

CREATE_DELIVERABLE = Tool(
    name="create_deliverable",
    description=(
        "Write a finished file for the user into the output folder 'outputs/' of the "
        "workspace: format 'md' (Markdown), 'html' (one self-contained page), 'csv' "
        "(exactly one table block), 'xlsx' (table blocks, one sheet each; real "
        "formulas, styled header, column widths; formula errors such as division by zero "
        "are refused; a chart block becomes a chart sheet), 'docx' or 'pdf' (headings, "
        "paragraphs, lists, tables, images, charts; cover:true adds a cover page, "
        "contents:true a table of contents, for longer reports), 'pptx' (slides), 'png' or 'svg' (one chart as a picture). path: e.g. "
        "'outputs/q3-report.pdf' (must be inside outputs/, ending in the format's "
        "extension). " + _BLOCK_DOC + _SLIDE_DOC
    ),
    parameters={
        "type": "object",
        "properties": {
            "path": {"type": "string",
                     "description": "File path inside outputs/, e.g. outputs/report.docx."},
            "format": {"type": "string", "enum": list(kinds.ALL_FORMATS)},
            "title": {"type": "string", "description": "Document title (optional)."},
            "language": {"type": "string",
                         "description": "pptx only: the deck's language, e.g. en-US."},
            "cover": {"type": "boolean",
                      "description": "docx/pdf: a cover page (title, subtitle, author, date)."},
            "contents": {"type": "boolean",
                         "description": "docx/pdf: a table of contents from the headings "
                                        "(for longer reports)."},
            "subtitle": {"type": "string", "description": "docx/pdf: the cover's subtitle."},
            "content": {
                "type": "array",
                "description": "The blocks (or, for pptx, the slides), in order.",
                "items": {
                    "type": "object",
                    "properties": {
                        "type": {"type": "string", "enum": list(kinds.BLOCK_TYPES)},
                        "text": {"type": "string"},
                        "level": {"type": "integer", "minimum": 1, "maximum": 3},
                        "items": {"type": "array", "items": {"type": "string"}},
                        "ordered": {"type": "boolean"},
                        "columns": {"type": "array", "items": {"type": "string"}},
                        "rows": {"type": "array", "items": {"type": "array"}},
                        "sheet": {"type": "string"},
                        "widths": {"type": "array", "items": {"type": "number"}},
                        "path": {"type": "string"},
                        "width": {"type": "number"},
                        "kind": {"type": "string", "enum": list(kinds.CHART_KINDS)},
                        "title": {"type": "string"},
                        "labels": {"type": "array", "items": {"type": "string"}},
                        "series": {"type": "array", "items": {"type": "object"}},
                        "layout": {"type": "string", "enum": list(kinds.SLIDE_LAYOUTS)},
                        "subtitle": {"type": "string"},
                        "bullets": {"type": "array"},
                        "left": {"type": "array"},
                        "right": {"type": "array"},
                        "left_heading": {"type": "string"},
                        "right_heading": {"type": "string"},
                        "chart": {"type": "object"},
                        "caption": {"type": "string"},
                        "quote": {"type": "string"},
                        "attribution": {"type": "string"},
                        "notes": {"type": "string"},
                    },
                },
            },
        },
        "required": ["path", "format", "content"],
    },
    handler=create_deliverable,
    risk=RiskClass.WRITE_LOCAL,
    target_arg="path",
)


def deliverable_tools(author: Callable[[], str] | None = None) -> list[Tool]:
    """The deliverables tool; ``author`` gives the user's name from settings (read at
    each call, so a name changed in Settings is used from the next file on)."""
    if author is None:
        return [CREATE_DELIVERABLE]

    async def with_author(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return await create_deliverable(args, ctx, author_source=author)

    return [dataclasses.replace(CREATE_DELIVERABLE, handler=with_author)]
