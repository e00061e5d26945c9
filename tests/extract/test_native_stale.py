"""A C extension older than its source beside it (a checkout after ``git pull``) is not loaded."""

import os
import subprocess
import sys
from pathlib import Path

from newscrawl.extract import native


def _pair(tmp_path: Path, source_newer: bool) -> Path:
    built = tmp_path / "_cstats.cpython-311-x86_64-linux-gnu.so"
    source = tmp_path / "_cstats.c"
    built.write_bytes(b"\x7fELF")
    source.write_text("/* C */\n")
    older, newer = (built, source) if source_newer else (source, built)
    os.utime(older, (1_000_000, 1_000_000))
    os.utime(newer, (2_000_000, 2_000_000))
    return built


def test_a_build_older_than_its_source_is_stale_and_says_how_to_rebuild(tmp_path: Path) -> None:
    why = native.stale_build(_pair(tmp_path, source_newer=True))
    assert why is not None
    assert "older than _cstats.c" in why and "pip install -e ." in why


def test_a_build_newer_than_its_source_or_without_one_is_not_stale(tmp_path: Path) -> None:
    built = _pair(tmp_path, source_newer=False)
    assert native.stale_build(built) is None
    (tmp_path / "_cstats.c").unlink()  # a wheel ships no source
    assert native.stale_build(built) is None


def _describe_with_stale(tmp_path: Path, name: str) -> subprocess.CompletedProcess[str]:
    """native.describe() in a fresh process, from a copy of the package whose extension ``name`` is older
    than its source."""
    import shutil

    import newscrawl

    package = Path(newscrawl.__file__).parent
    copy = tmp_path / "newscrawl"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__", "_shipped"))
    extract = copy / "extract"
    for built in extract.glob(f"{name}*.so"):
        os.utime(built, (1_000_000, 1_000_000))
    (extract / f"{name}.c").touch()
    script = "from newscrawl.extract import native; print(native.describe())"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("NEWSCRAWL_PURE_PYTHON", None)
    return subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True, check=True
    )


def test_the_library_falls_back_to_python_when_its_build_is_stale(tmp_path: Path) -> None:
    # a copy of the package whose built extension is older than its source: imported in a fresh process, it
    # runs the pure-Python code and says why (the records are the same either way)
    if native.cstats is None:
        import pytest

        pytest.skip(f"the C extension is not in use: {native.describe()}")
    run = _describe_with_stale(tmp_path, "_cstats")
    assert run.stdout.startswith("statistics pass: Python (C extension _cstats")
    assert "older than _cstats.c" in run.stderr


def test_the_simhash_falls_back_to_python_when_its_build_is_stale(tmp_path: Path) -> None:
    if native.csimhash is None:
        import pytest

        pytest.skip(f"the SimHash extension is not in use: {native.describe()}")
    run = _describe_with_stale(tmp_path, "_csimhash")
    assert "SimHash: Python (C extension _csimhash" in run.stdout
    assert run.stdout.startswith("statistics pass: C")  # the others are not older than their sources
    assert "older than _csimhash.c" in run.stderr
