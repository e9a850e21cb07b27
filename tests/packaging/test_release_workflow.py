"""The release workflow: valid YAML, a job per platform using the installer scripts,
and every secret it uses documented in installer/README.md."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / ".github" / "workflows" / "release.yml"
README = REPO / "installer" / "README.md"


def _workflow() -> dict[object, object]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_workflow_is_valid_yaml_with_a_job_per_platform() -> None:
    data = _workflow()
    # YAML 1.1 reads the key "on" as True
    assert "push" in (data.get("on") or data.get(True))  # type: ignore[operator]
    jobs = data["jobs"]
    assert isinstance(jobs, dict)
    runners = " ".join(f'{job["runs-on"]} {job.get("strategy", {}).get("matrix", {})}'
                       for job in jobs.values())
    assert "ubuntu" in runners and "macos" in runners and "windows" in runners
    text = WORKFLOW.read_text(encoding="utf-8")
    for script in ("installer/build-linux.sh", "installer/build-deb.sh",
                   "installer/macos/build.sh", r".\installer\windows\build.ps1",
                   "installer/sign_manifest.py", "bench/bundle.py"):
        assert script in text, script
        assert (REPO / script.replace("\\", "/").removeprefix("./").removeprefix(".")
                .lstrip("/")).exists(), script
    for job in jobs.values():
        for step in job["steps"]:
            assert "uses" in step or "run" in step, step


def test_every_secret_is_documented_in_the_readme() -> None:
    used = set(re.findall(r"secrets\.([A-Z0-9_]+)", WORKFLOW.read_text(encoding="utf-8")))
    assert {"MACOS_SIGN_IDENTITY", "MACOS_CERTIFICATE_P12_BASE64", "MACOS_NOTARY_PASSWORD",
            "WINDOWS_CERT_PFX_BASE64", "WINDOWS_CERT_PASSWORD", "UPDATE_SIGNING_KEY"} <= used
    readme = README.read_text(encoding="utf-8")
    section = readme[readme.index("## Release workflow"):]
    missing = sorted(name for name in used if f"`{name}`" not in section)
    assert missing == []


def test_the_linux_scripts_parse() -> None:
    for script in ("installer/build-linux.sh", "installer/build-deb.sh"):
        subprocess.run(["bash", "-n", str(REPO / script)], check=True, timeout=10)
