"""The release workflow: valid YAML, a job per platform using the installer scripts,
nothing published unless the update-signing secret matches the shipped key, and every
secret it uses named in README.md and documented in installer/README.md."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / ".github" / "workflows" / "release.yml"
README = REPO / "installer" / "README.md"
TOP_README = REPO / "README.md"


def _workflow() -> dict[object, object]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_workflow_is_valid_yaml_with_a_job_per_platform() -> None:
    data = _workflow()
    # YAML 1.1 reads the key "on" as True
    assert "push" in (data.get("on") or data.get(True))
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


def secrets_used(workflow_text: str) -> set[str]:
    return set(re.findall(r"secrets\.([A-Z0-9_]+)", workflow_text))


def unnamed_secrets(workflow_text: str, readme_text: str) -> list[str]:
    """The workflow's secrets the top-level README's release section does not name."""
    start = readme_text.index("## Releases and updates")
    end = readme_text.find("\n## ", start + 1)
    section = readme_text[start:end if end != -1 else None]
    return sorted(name for name in secrets_used(workflow_text) if f"`{name}`" not in section)


def test_the_top_level_readme_names_every_secret_and_points_to_the_details() -> None:
    readme = TOP_README.read_text(encoding="utf-8")
    assert unnamed_secrets(WORKFLOW.read_text(encoding="utf-8"), readme) == []
    section = readme[readme.index("## Releases and updates"):]
    assert "(installer/README.md#release-workflow)" in section
    assert "## Release workflow" in README.read_text(encoding="utf-8")  # the anchor exists


def test_a_secret_missing_from_the_readme_is_caught() -> None:
    workflow = WORKFLOW.read_text(encoding="utf-8") + "\n# ${{ secrets.NEW_SIGNING_THING }}\n"
    readme = TOP_README.read_text(encoding="utf-8")
    assert unnamed_secrets(workflow, readme) == ["NEW_SIGNING_THING"]
    dropped = readme.replace("`WINDOWS_CERT_PASSWORD`", "the password")
    assert unnamed_secrets(WORKFLOW.read_text(encoding="utf-8"), dropped) == [
        "WINDOWS_CERT_PASSWORD"]


def test_nothing_is_published_unless_the_signing_key_matches_the_shipped_one() -> None:
    jobs = _workflow()["jobs"]
    assert isinstance(jobs, dict)
    gate = jobs["update-key"]
    assert "update-key" in jobs["release"]["needs"]
    assert "if" not in gate and not gate.get("continue-on-error")
    assert gate["env"]["UPDATE_SIGNING_KEY"] == "${{ secrets.UPDATE_SIGNING_KEY }}"
    checks = [step for step in gate["steps"]
              if "installer/sign_manifest.py check-key" in step.get("run", "")]
    assert checks and all("if" not in step and not step.get("continue-on-error")
                          for step in checks)
    assert "resources/update-key.pub" in checks[0]["run"]
    # and again just before the manifest is signed, in the job that publishes
    release_runs = [step.get("run", "") for step in jobs["release"]["steps"]]
    signing = next(i for i, run in enumerate(release_runs) if "sign_manifest.py sign" in run)
    assert "sign_manifest.py check-key" in release_runs[signing]
    assert release_runs[signing].index("check-key") < release_runs[signing].index(" sign ")


def test_the_linux_scripts_parse() -> None:
    for script in ("installer/build-linux.sh", "installer/build-deb.sh"):
        subprocess.run(["bash", "-n", str(REPO / script)], check=True, timeout=10)
