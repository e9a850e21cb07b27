"""Model download against a real local HTTP server: progress, resume with Range after
a dropped connection (and after the app closed mid-download), a wrong checksum
refused with the partial file removed, cancel, delete."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import pytest

from openworker_qt.voice.download import (
    CATALOGUE,
    ChecksumError,
    DownloadCancelled,
    DownloadError,
    delete_model,
    download_model,
    model_url,
    partial_path,
)
from openworker_qt.voice.models import GGML_MAGIC, find_model
from tests.voice.fileserver import serve

BODY = GGML_MAGIC + bytes(range(256)) * 4000  # ~1 MB: several chunks
SHA256 = hashlib.sha256(BODY).hexdigest()


def test_progress_is_reported_and_the_model_lands_in_place(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    with serve() as server:
        server.files["/ggml-tiny.en.bin"] = BODY
        url = model_url(server.url + "/ggml-{name}.bin", "tiny.en")
        path = download_model(url, tmp_path, "tiny.en", SHA256, algorithm="sha256",
                              progress=lambda done, total: seen.append((done, total)))
    assert path == tmp_path / "ggml-tiny.en.bin" and path.read_bytes() == BODY
    assert seen[0] == (0, len(BODY)) and seen[-1] == (len(BODY), len(BODY))
    assert len(seen) > 3 and [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert not partial_path(tmp_path, "tiny.en").exists()
    assert find_model("", tmp_path) == path


def test_a_dropped_connection_resumes_with_a_range_request(tmp_path: Path) -> None:
    seen: list[int] = []
    with serve() as server:
        server.files["/m.bin"] = BODY
        server.drop_after = 300_000
        path = download_model(server.url + "/m.bin", tmp_path, "base", SHA256,
                              algorithm="sha256", progress=lambda d, _t: seen.append(d))
        ranges = list(server.ranges)
    assert path.read_bytes() == BODY
    assert ranges[0] is None and ranges[1] == "bytes=300000-"
    assert len(ranges) == 2  # not downloaded from zero again
    assert 300_000 in seen


def test_a_partial_file_left_by_a_closed_app_is_resumed(tmp_path: Path) -> None:
    partial_path(tmp_path, "base").write_bytes(BODY[:123_456])
    with serve() as server:
        server.files["/m.bin"] = BODY
        path = download_model(server.url + "/m.bin", tmp_path, "base", SHA256, algorithm="sha256")
        assert server.ranges == ["bytes=123456-"]
    assert path.read_bytes() == BODY


def test_a_server_ignoring_range_restarts_from_zero(tmp_path: Path) -> None:
    partial_path(tmp_path, "base").write_bytes(b"stale bytes from another file")
    with serve() as server:
        server.files["/m.bin"] = BODY
        server.honour_range = False
        path = download_model(server.url + "/m.bin", tmp_path, "base", SHA256, algorithm="sha256")
    assert path.read_bytes() == BODY


def test_a_wrong_checksum_is_refused_and_the_partial_file_removed(tmp_path: Path) -> None:
    with serve() as server:
        server.files["/m.bin"] = BODY[:-1] + b"X"  # one byte differs
        with pytest.raises(ChecksumError, match="did not match its checksum") as info:
            download_model(server.url + "/m.bin", tmp_path, "base", SHA256, algorithm="sha256")
    assert "nothing was installed" in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_server_errors_and_cancel_are_clear(tmp_path: Path) -> None:
    cancel = threading.Event()
    cancel.set()
    with serve() as server:
        server.files["/m.bin"] = BODY
        with pytest.raises(DownloadError, match="answered 404"):
            download_model(server.url + "/missing.bin", tmp_path, "base", SHA256)
        with pytest.raises(DownloadCancelled):
            download_model(server.url + "/m.bin", tmp_path, "base", SHA256, cancel=cancel)
    assert not (tmp_path / "ggml-base.bin").exists()


def test_delete_removes_the_model_and_its_partial(tmp_path: Path) -> None:
    model = tmp_path / "ggml-base.bin"
    model.write_bytes(BODY)
    partial_path(tmp_path, "base").write_bytes(b"x")
    delete_model(model)
    assert list(tmp_path.iterdir()) == []


def test_catalogue_and_url_template() -> None:
    assert {s.name for s in CATALOGUE} >= {"tiny.en", "base.en", "small"}
    assert all(len(s.digest) == 40 for s in CATALOGUE)
    assert model_url("https://m.example/ggml-{name}.bin", "base.en") == \
        "https://m.example/ggml-base.en.bin"
    assert model_url("https://m.example/models/", "tiny") == "https://m.example/models/ggml-tiny.bin"
