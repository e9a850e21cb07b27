"""A fetched page as text for the model: HTML becomes Markdown (trafilatura), a
PDF becomes text, text stays as it is (blocking: run in a worker)."""

from __future__ import annotations

from openworker_qt.tools.web.fetch import MAX_BYTES, Fetched
from openworker_qt.tools.web.guard import WebError

MAX_CHARS = 60_000


def _decode(body: bytes, charset: str | None) -> str:
    try:
        return body.decode(charset or "utf-8", errors="replace")
    except LookupError:
        return body.decode("utf-8", errors="replace")


def html_to_markdown(html: str, url: str | None = None) -> str:
    """Readable Markdown of an HTML page (blocking; imports trafilatura on first use)."""
    import trafilatura

    text = trafilatura.extract(
        html, url=url, output_format="markdown", include_links=True, include_tables=True,
        include_comments=False, favor_recall=True, with_metadata=False,
    )
    if not text:
        return ""
    meta = trafilatura.extract_metadata(html)
    title = getattr(meta, "title", None) if meta is not None else None
    return f"# {title}\n\n{text}" if title and title not in text[:200] else str(text)


def pdf_to_text(data: bytes) -> str:
    """The text of a PDF (blocking)."""
    from openworker_qt.core.pdf import NotAPdf, extract_text

    try:
        return extract_text(data, max_chars=MAX_CHARS * 2)
    except NotAPdf as exc:
        raise WebError(f"the PDF could not be read ({exc})") from exc


_TEXT_TYPES = ("application/json", "application/xml", "application/javascript",
               "application/x-yaml", "application/yaml")


def to_readable(page: Fetched) -> str:
    """The page as text for the model (blocking: HTML and PDF conversion)."""
    ctype = page.content_type.lower()
    if ctype == "application/pdf" or page.body[:5] == b"%PDF-":
        if page.truncated:
            raise WebError(f"the PDF at {page.url} is larger than {MAX_BYTES // (1024 * 1024)} MB")
        return pdf_to_text(page.body)
    if ctype in ("text/html", "application/xhtml+xml") or (
        not ctype and page.body.lstrip()[:15].lower().startswith((b"<!doctype html", b"<html"))
    ):
        html = _decode(page.body, page.charset)
        md = html_to_markdown(html, page.url)
        return md or "(the page has no readable text)"
    if ctype.startswith("text/") or ctype in _TEXT_TYPES or ctype.endswith(("+json", "+xml")):
        return _decode(page.body, page.charset)
    raise WebError(
        f"{page.url} is not a web page, a PDF or text (its type is {ctype or 'unknown'})"
    )
