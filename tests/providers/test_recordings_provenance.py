"""The provider recordings live in the repository, each with its source and licence.

A clone must run the suite with nothing beside it, and every vendored exchange must
say where it came from: ``recordings/PROVENANCE.md`` lists each file with its source
repository, path, commit and licence, and those agree with the file's own fields.
"""

from __future__ import annotations

import json
import re

from tests.providers.stubs import RECORDINGS_DIR, REPO_ROOT, recording_files

PROVENANCE = RECORDINGS_DIR / "PROVENANCE.md"
ROW = re.compile(r"^\| `([^`]+\.json)` \| ([^|]+) \| `([^`]+)` \| `([0-9a-f]{40})` \| (\d+) \| ([^|]+) \|")
LICENCE_TEXT = re.compile(r"^\| https://github\.com/([^ |]+) \| ([^|]+) \| `(LICENSES/[^`]+)` \|$", re.M)


def test_recordings_are_read_from_inside_the_repository() -> None:
    assert RECORDINGS_DIR == REPO_ROOT / "tests" / "providers" / "recordings"
    assert all(p.is_relative_to(REPO_ROOT) for p in recording_files())


def test_no_test_reads_anything_beside_the_repository() -> None:
    outside = re.compile(r"""["']\.\.["']\s*/\s*["']shared["']|\.\./shared""")
    offenders = [str(p.relative_to(REPO_ROOT)) for p in (REPO_ROOT / "tests").rglob("*.py")
                 if outside.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_provenance_lists_every_recording_with_its_source_and_licence() -> None:
    rows = {}
    for line in PROVENANCE.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            name, repo, path, commit, index, licence = (g.strip() for g in m.groups())
            rows[name] = {"source_repo": repo, "source_path": path, "source_commit": commit,
                          "interaction_index": int(index), "license": licence}
    files = {str(p.relative_to(RECORDINGS_DIR)): p for p in recording_files()}
    assert set(rows) == set(files)
    for name, path in files.items():
        data = json.loads(path.read_text(encoding="utf-8"))
        assert {k: data[k] for k in rows[name]} == rows[name], name


def test_every_source_repository_has_its_licence_text_beside_the_recordings() -> None:
    texts = {m.group(1): (m.group(2), RECORDINGS_DIR / m.group(3))
             for m in LICENCE_TEXT.finditer(PROVENANCE.read_text(encoding="utf-8"))}
    for path in recording_files():
        data = json.loads(path.read_text(encoding="utf-8"))
        licence, text = texts[data["source_repo"]]
        assert licence.startswith(data["license"]), path.name
        assert text.is_file(), text
        first_lines = text.read_text(encoding="utf-8").lstrip()[:200]
        expected = "Apache License" if data["license"] == "Apache-2.0" else "MIT License"
        assert expected in first_lines, text
