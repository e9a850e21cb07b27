"""Canonical history and its outbound copy."""

from __future__ import annotations

import base64
import copy
import io

from openworker_qt.core.messages import (
    IMAGE_PLACEHOLDER,
    Capabilities,
    notice,
    outbound,
    pending_tool_calls,
    tool_result,
    user_message,
)


def _pdf(text: str | None) -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    if text is not None:
        from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

        page = writer.pages[0]
        font = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
            }
        )
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)})}  # noqa: SLF001
        )
        stream = DecodedStreamObject()
        stream.set_data(f"BT /F1 12 Tf 20 100 Td ({text}) Tj ET".encode())
        page[NameObject("/Contents")] = writer._add_object(stream)  # noqa: SLF001
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def _history() -> list[dict]:
    pdf_url = "data:application/pdf;base64," + base64.b64encode(_pdf("Quarterly revenue 42")).decode()
    return [
        user_message(
            [
                {"type": "text", "text": "look at these"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                {"type": "file", "file": {"filename": "q3.pdf", "file_data": pdf_url}},
            ]
        ),
        {
            "role": "assistant",
            "content": "Reading.",
            "reasoning": "secret chain of thought",
            "provider_state": {"gemini": {"thought_signature": "sig=="}},
            "ts": 1.0,
            "model": "x",
            "tool_calls": [
                {"id": "b", "type": "function", "function": {"name": "t", "arguments": "{}"}},
                {"id": "a", "type": "function", "function": {"name": "t", "arguments": "{}"}},
            ],
        },
        tool_result("a", "t", "A", display={"hidden": 3}),
        tool_result("b", "t", "B"),
        notice("model_switch", "Switched model"),
    ]


def test_outbound_strips_display_fields_and_notices() -> None:
    out = outbound(_history(), Capabilities(vision=True, pdf=True))
    assert [m["role"] for m in out] == ["user", "assistant", "tool", "tool"]
    assert set(out[0]) == {"role", "content"}
    assert set(out[1]) == {"role", "content", "tool_calls", "provider_state"}
    assert out[1]["provider_state"] == {"gemini": {"thought_signature": "sig=="}}
    for msg in out[2:]:
        assert set(msg) == {"role", "content", "tool_call_id", "name"}


def test_tool_results_follow_call_order() -> None:
    out = outbound(_history(), Capabilities(vision=True, pdf=True))
    assert [m["tool_call_id"] for m in out[2:]] == ["b", "a"]


def test_capability_fallbacks_change_only_the_copy() -> None:
    history = _history()
    before = copy.deepcopy(history)
    out = outbound(history, Capabilities(vision=False, pdf=False))
    parts = out[0]["content"]
    assert parts[1] == {"type": "text", "text": IMAGE_PLACEHOLDER}
    assert parts[2]["type"] == "text"
    assert "q3.pdf" in parts[2]["text"] and "Quarterly revenue 42" in parts[2]["text"]
    assert history == before  # stored history untouched


def test_native_parts_pass_through_for_capable_models() -> None:
    out = outbound(_history(), Capabilities(vision=True, pdf=True))
    assert out[0]["content"][1]["type"] == "image_url"
    assert out[0]["content"][2]["type"] == "file"


def test_scanned_pdf_says_there_is_no_text() -> None:
    url = "data:application/pdf;base64," + base64.b64encode(_pdf(None)).decode()
    msg = user_message([{"type": "file", "file": {"filename": "scan.pdf", "file_data": url}}])
    text = outbound([msg], Capabilities(pdf=False))[0]["content"][0]["text"]
    assert "no extractable text" in text


def test_corrupt_pdf_gives_a_note_not_a_crash() -> None:
    url = "data:application/pdf;base64," + base64.b64encode(b"%PDF-1.4 garbage").decode()
    msg = user_message([{"type": "file", "file": {"filename": "bad.pdf", "file_data": url}}])
    text = outbound([msg], Capabilities(pdf=False))[0]["content"][0]["text"]
    assert "bad.pdf" in text
    assert "PDF" in text


def test_pending_tool_calls_only_trailing_unanswered() -> None:
    history = _history()[:3]  # assistant with calls a, b; only a answered
    assert [c["id"] for c in pending_tool_calls(history)] == ["b"]
    assert pending_tool_calls(_history()) == []
    assert pending_tool_calls([user_message("hi")]) == []


def test_display_keys_on_content_parts_never_reach_a_provider() -> None:
    msg = user_message(
        [
            {"type": "text", "text": "[Attached file: notes.md]\nship it", "name": "notes.md"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA"}, "name": "c.png"},
        ]
    )
    parts = outbound([msg], Capabilities(vision=True))[0]["content"]
    assert parts == [
        {"type": "text", "text": "[Attached file: notes.md]\nship it"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA"}},
    ]
    assert msg["content"][0]["name"] == "notes.md"  # stored history keeps it
