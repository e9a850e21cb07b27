"""Canonical history and its outbound copy."""

from __future__ import annotations

import base64
import copy
import io
import random

from openworker_qt.core.messages import (
    IMAGE_PLACEHOLDER,
    Capabilities,
    notice,
    order_tool_results,
    outbound,
    pending_tool_calls,
    settled_length,
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
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)})}
        )
        stream = DecodedStreamObject()
        stream.set_data(f"BT /F1 12 Tf 20 100 Td ({text}) Tj ET".encode())
        page[NameObject("/Contents")] = writer._add_object(stream)
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


def _random_history(rng: random.Random, length: int) -> list[dict[str, object]]:
    """Steps with results in any order, late, missing, reused ids and orphans."""
    msgs: list[dict[str, object]] = []
    open_ids: list[str] = []
    for _ in range(length):
        roll = rng.random()
        if roll < 0.25:
            ids = [f"c{rng.randrange(12)}" for _ in range(rng.randrange(1, 4))]
            msgs.append({"role": "assistant", "content": "",
                         "tool_calls": [{"id": i, "type": "function",
                                         "function": {"name": "t", "arguments": "{}"}}
                                        for i in ids]})
            open_ids.extend(ids)
        elif roll < 0.7 and open_ids:
            call = open_ids.pop(rng.randrange(len(open_ids)))
            msgs.append({"role": "tool", "tool_call_id": call, "content": call})
        elif roll < 0.75:
            msgs.append({"role": "tool", "tool_call_id": f"c{rng.randrange(12)}", "content": "?"})
        else:
            msgs.append({"role": rng.choice(["user", "assistant"]), "content": "x"})
    return msgs


def test_ordering_a_settled_prefix_once_equals_ordering_everything() -> None:
    # The engine orders only what follows the settled prefix on each model call.
    rng = random.Random(8)
    checked = 0
    for _ in range(400):
        msgs = _random_history(rng, rng.randrange(1, 30))
        settled: list[dict[str, object]] = []
        count = 0
        for end in range(1, len(msgs) + 1):
            tail = msgs[count:end]
            ordered_tail = order_tool_results(tail)
            cut = settled_length(tail)
            if cut:
                settled.extend(ordered_tail[:cut])
                count += cut
                ordered_tail = ordered_tail[cut:]
                checked += 1
            assert settled + ordered_tail == order_tool_results(msgs[:end])
    assert checked > 100


def test_an_incomplete_step_or_a_trailing_result_is_not_settled() -> None:
    call = {"role": "assistant", "content": "",
            "tool_calls": [{"id": "a", "type": "function",
                            "function": {"name": "t", "arguments": "{}"}}]}
    answer = {"role": "tool", "tool_call_id": "a", "content": "ok"}
    user = {"role": "user", "content": "x"}
    assert settled_length([user, call, answer]) == 1  # a later result may still join the block
    assert settled_length([user, call, user]) == 1  # the result may still come, further down
    assert settled_length([user, call, answer, user]) == 3
