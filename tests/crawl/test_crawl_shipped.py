"""The site files and the demo portal ship in the wheel, and are found after a plain install."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from newscrawl.crawl import shipped
from newscrawl.crawl.shipped import FOLDERS, shipped_dir

ROOT = Path(__file__).resolve().parents[2]


def test_a_checkout_finds_its_own_top_level_folders() -> None:
    assert shipped_dir("sites") == ROOT / "settings" / "sites"
    assert shipped_dir("demo") == ROOT / "data" / "demo"


def test_an_installed_package_finds_the_copies_inside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    package = tmp_path / "site-packages" / "newscrawl"
    (package / "_shipped" / "sites").mkdir(parents=True)
    (package / "crawl").mkdir()
    monkeypatch.setattr(shipped, "__file__", str(package / "crawl" / "shipped.py"))
    monkeypatch.setattr(shipped.resources, "files", lambda name: package)
    assert shipped_dir("sites") == package / "_shipped" / "sites"


@pytest.mark.skipif(not (ROOT / "setup.py").is_file(), reason="needs the source tree")
def test_the_wheel_carries_every_shipped_folder(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
         "--wheel-dir", str(tmp_path), str(ROOT)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("newscrawl-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name, source in FOLDERS.items():
        files = [p for p in (ROOT / source).rglob("*") if p.is_file()]
        assert files
        for file in files:
            assert f"newscrawl/_shipped/{name}/{file.relative_to(ROOT / source).as_posix()}" in names
