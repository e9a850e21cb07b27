"""File tools: windowed read, list, write.

Paths are taken relative to the session's workspace (absolute paths are
allowed; whether a read or a write may reach them is the permission engine's
call, which resolves symlinks and ``..`` first: each tool's ``target`` is its
``path``). URL-shaped paths (``file:///…``, ``http://…``, any ``scheme://``)
and paths holding a NUL character are refused as not a path. A write replaces
the file atomically (through a temporary file in the file's own folder) and
keeps its permission bits; a target that is a folder (an existing one, the
workspace, or a path ending in ``/``, ``.`` or ``..``) is refused. File I/O
runs in a worker thread so a slow disk never stalls the UI.
"""

from __future__ import annotations

import asyncio
import base64
import os
import stat
from pathlib import Path
from typing import Any

from openworker_qt.core.fence import names_a_folder, not_a_path
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult

DEFAULT_READ_LINES = 400
MAX_READ_LINES = 2_000
MAX_LIST_ENTRIES = 500
MAX_READ_BYTES = 10 * 1024 * 1024
MAX_LINE_CHARS = 2_000
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"%PDF", "a PDF document"),
)
PDF_KIND = "a PDF document"
MAX_PDF_BYTES = 25 * 1024 * 1024
WEBP_KIND = "a WebP image"
#: The pictures ``read_file`` attaches for the model to see, and their MIME types.
IMAGE_KINDS = {"a PNG image": "image/png", "a JPEG image": "image/jpeg",
               "a GIF image": "image/gif", WEBP_KIND: "image/webp"}
MAX_IMAGE_BYTES = 5 * 1024 * 1024  # the smallest per-image limit of the vendors' APIs
SKIP_DIRS = frozenset({".git", "node_modules", "__pycache__", ".venv", ".mypy_cache", ".ruff_cache"})


def resolve_path(ctx: ToolContext, raw: str) -> Path:
    """The absolute path ``raw`` names, relative to the workspace."""
    p = Path(os.path.expanduser(raw))
    return (p if p.is_absolute() else ctx.workspace / p).resolve()


def size_text(n: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def binary_kind(head: bytes) -> str | None:
    """What a file whose first bytes are ``head`` is, if it is not text."""
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return WEBP_KIND
    if b"\x00" in head:
        return "a binary file"
    return None


def _read(path: Path, offset: int, limit: int) -> ToolResult:
    if not path.exists():
        return ToolResult(f"Error: {path} does not exist.", is_error=True)
    if path.is_dir():
        return ToolResult(f"Error: {path} is a folder; use list_files.", is_error=True)
    data = b""
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            return ToolResult(f"Error: {path} is not a regular file.", is_error=True)
        with path.open("rb") as f:
            head = f.read(8192)
            kind = binary_kind(head)
            if kind is None and st.st_size <= MAX_READ_BYTES:
                data = head + f.read(MAX_READ_BYTES + 1 - len(head))
    except OSError as exc:
        return ToolResult(f"Error: {path} cannot be read: {exc.strerror or exc}.", is_error=True)
    if kind == PDF_KIND and st.st_size <= MAX_PDF_BYTES:
        try:
            from openworker_qt.core.pdf import extract_text  # (pypdf: when a PDF is read)

            text = extract_text(path.read_bytes())
        except OSError as exc:
            return ToolResult(f"Error: {path} cannot be read: {exc.strerror or exc}.",
                              is_error=True)
        return _window(path, text.splitlines(), offset, limit, " of the PDF's extracted text")
    if kind in IMAGE_KINDS:
        return _image(path, kind, st.st_size)
    if kind is not None:
        return ToolResult(
            f"Error: {path} is {kind} ({size_text(st.st_size)}), not text; read_file reads "
            "text files" + (f" and PDFs up to {size_text(MAX_PDF_BYTES)}" if kind == PDF_KIND
                            else " only") + "." +
            (" Ask the user to attach it to a message if you need to see it."
             if kind != "a binary file" else ""),
            is_error=True,
        )
    if st.st_size > MAX_READ_BYTES or len(data) > MAX_READ_BYTES:
        return ToolResult(
            f"Error: {path} is {size_text(max(st.st_size, len(data)))}, more than read_file's "
            f"{size_text(MAX_READ_BYTES)} limit. Use grep to find the lines you need.",
            is_error=True,
        )
    return _window(path, data.decode("utf-8", errors="replace").splitlines(), offset, limit, "")


def _image(path: Path, kind: str, size: int) -> ToolResult:
    """An image, attached to the result for the model to see (a note instead where the
    model has no vision: see :func:`openworker_qt.core.messages.outbound_message`)."""
    if size > MAX_IMAGE_BYTES:
        return ToolResult(
            f"Error: {path} is {kind} of {size_text(size)}; read_file attaches images up to "
            f"{size_text(MAX_IMAGE_BYTES)}. Ask the user for a smaller copy.", is_error=True)
    try:
        data = path.read_bytes()
    except OSError as exc:
        return ToolResult(f"Error: {path} cannot be read: {exc.strerror or exc}.", is_error=True)
    if len(data) > MAX_IMAGE_BYTES:  # it grew since
        return _image(path, kind, len(data))
    mime = IMAGE_KINDS[kind]
    url = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    return ToolResult(
        f"[{path} is {kind} ({size_text(len(data))}); it is attached below for you to see.]",
        display={"path": str(path), "image": mime, "bytes": len(data)},
        attachments=({"type": "image_url", "image_url": {"url": url}, "name": path.name},),
    )


def _window(path: Path, lines: list[str], offset: int, limit: int, what: str) -> ToolResult:
    total = len(lines)
    start = max(offset, 1)
    window = lines[start - 1 : start - 1 + limit]
    body = "\n".join(f"{n:>6}\t{_clip(line)}" for n, line in enumerate(window, start))
    end = start + len(window) - 1
    if total == 0:
        return ToolResult(f"[{path} is empty]", display={"path": str(path), "lines": 0})
    if start > total:
        return ToolResult(f"Error: offset={start} is past the end of {path} ({total} lines).",
                          is_error=True)
    footer = f"\n[lines {start}–{end} of {total}{what}]"
    if end < total:
        footer += f" — call read_file with offset={end + 1} for more."
    return ToolResult(body + footer, display={"path": str(path), "lines": total})


def _clip(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return line
    return line[:MAX_LINE_CHARS] + f"… [{len(line) - MAX_LINE_CHARS} more characters]"


def _not_a_path(raw: str) -> ToolResult | None:
    why = not_a_path(raw)
    return ToolResult(f"Error: {why}.", is_error=True) if why else None


async def read_file(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    raw = str(args.get("path", ""))
    if (refused := _not_a_path(raw)) is not None:
        return refused
    path = resolve_path(ctx, raw)
    offset, limit = _whole(args.get("offset"), 1), _whole(args.get("limit"), DEFAULT_READ_LINES)
    if offset is None or limit is None or offset < 1 or limit < 1:
        return ToolResult(
            "Error: offset (the first line to read; lines count from 1) and limit (how many "
            f"lines, 1 to {MAX_READ_LINES}) must be whole numbers of 1 or more; got "
            f"offset={args.get('offset')!r}, limit={args.get('limit')!r}.", is_error=True)
    return await asyncio.to_thread(_read, path, offset, min(limit, MAX_READ_LINES))


def _whole(value: Any, default: int) -> int | None:
    """A whole-number argument (``None``: not given, the default), or None if it is not one."""
    if value is None:
        return default
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    if isinstance(value, int | float) and not isinstance(value, bool) and value == int(value):
        return int(value)
    return None


def _list(root: Path, recursive: bool) -> ToolResult:
    if not root.is_dir():
        return ToolResult(f"Error: {root} is not a folder.", is_error=True)
    entries: list[str] = []
    truncated = False
    if recursive:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            rel = Path(dirpath).relative_to(root)
            for name in sorted(dirnames):
                entries.append(f"{rel / name}/")
            for name in sorted(filenames):
                entries.append(str(rel / name))
            if len(entries) > MAX_LIST_ENTRIES:
                truncated = True
                break
    else:
        for child in sorted(root.iterdir(), key=lambda c: c.name):
            entries.append(child.name + ("/" if child.is_dir() else ""))
    if len(entries) > MAX_LIST_ENTRIES:
        entries = entries[:MAX_LIST_ENTRIES]
        truncated = True
    cleaned = [e[2:] if e.startswith("./") else e for e in entries]
    text = "\n".join(cleaned) if cleaned else "(empty folder)"
    if truncated:
        text += f"\n[… more entries; showing the first {MAX_LIST_ENTRIES}]"
    return ToolResult(text, display={"path": str(root), "entries": len(cleaned)})


async def list_files(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    raw = str(args.get("path") or ".")
    if (refused := _not_a_path(raw)) is not None:
        return refused
    root = resolve_path(ctx, raw)
    return await asyncio.to_thread(_list, root, bool(args.get("recursive", False)))


def write_bytes(path: Path, data: bytes) -> ToolResult:
    """Write ``data`` to ``path`` atomically, as :func:`write_file` does (for built files)."""
    return _write(path, data)


def _write(path: Path, content: str | bytes) -> ToolResult:
    if path.is_dir():
        return _is_a_folder(path)
    try:
        mode: int | None = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = None
    existed = mode is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    # Next to the file, in its own folder (never above it: the target is not a folder).
    tmp = path.parent / f".{path.name}.openworker-tmp"
    tmp.unlink(missing_ok=True)
    # Private while being written; then the replaced file's bits (0o600 stays
    # private, 0o755 stays runnable). A new file gets the usual umask bits.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if existed else 0o666)
    try:
        if isinstance(content, bytes):
            with os.fdopen(fd, "wb") as raw_out:
                raw_out.write(content)
        else:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(content)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    verb = "Overwrote" if existed else "Created"
    size = len(content if isinstance(content, bytes) else content.encode("utf-8"))
    return ToolResult(f"{verb} {path} ({size} bytes).", display={"path": str(path), "bytes": size})


async def write_file(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    raw = args.get("path")
    if not raw:
        return ToolResult("Error: 'path' is required.", is_error=True)
    content = args.get("content")
    if not isinstance(content, str):
        return ToolResult("Error: 'content' must be a string.", is_error=True)
    if (refused := _not_a_path(str(raw))) is not None:
        return refused
    path = resolve_path(ctx, str(raw))
    if names_a_folder(str(raw)) or path == ctx.workspace.resolve():
        return _is_a_folder(path)
    return await asyncio.to_thread(_write, path, content)


def _is_a_folder(path: Path) -> ToolResult:
    return ToolResult(
        f"Error: {path} is a folder, not a file. Give the path of a file inside it.",
        is_error=True,
    )


READ_FILE = Tool(
    name="read_file",
    description=(
        "Read a text file (or the text of a PDF) with line numbers. Large files are read "
        "in windows: pass offset (1-based line) and limit (lines, default 400). An image "
        "(PNG, JPEG, GIF, WebP up to 5 MB) is attached for you to see. Other binary "
        "files and files over 10 MB are refused (use grep on big files)."
    ),
    parameters={
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "File path, relative to the workspace."},
            "offset": {"type": "integer", "minimum": 1},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_READ_LINES},
        },
        "required": ["path"],
    },
    handler=read_file,
    risk=RiskClass.READ,
    target_arg="path",
    concurrency_safe=True,
)

LIST_FILES = Tool(
    name="list_files",
    description="List a folder (relative to the workspace). recursive=true walks subfolders.",
    parameters={
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Folder path; default the workspace."},
            "recursive": {"type": "boolean"},
        },
    },
    handler=list_files,
    risk=RiskClass.READ,
    target_arg="path",
    concurrency_safe=True,
)

WRITE_FILE = Tool(
    name="write_file",
    description="Create or overwrite a text file with the given content.",
    parameters={
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "File path, relative to the workspace."},
            "content": {"type": "string"},
        },
        "required": ["path", "content"],
    },
    handler=write_file,
    risk=RiskClass.WRITE_LOCAL,
    target_arg="path",
)


def file_tools() -> list[Tool]:
    return [READ_FILE, LIST_FILES, WRITE_FILE]
