"""The ``newscrawl`` command's shutdown: garbage collected once (finalizers run), the rest frozen."""

import gc
import subprocess
import sys
import weakref

import pytest

import newscrawl.cli as cli


@pytest.fixture
def collector():
    """Leave the collector as the test found it (entry_point freezes every object it finds)."""
    yield
    gc.unfreeze()


class _Finalized:
    def __init__(self, done: list[str]) -> None:
        self.done = done
        self.me = self  # a reference cycle: only the collector frees it

    def __del__(self) -> None:
        self.done.append("finalized")


def test_entry_point_collects_cycles_before_freezing(monkeypatch, collector):
    done: list[str] = []
    refs: list[weakref.ref[_Finalized]] = []

    def fake_main() -> int:
        refs.append(weakref.ref(_Finalized(done)))  # garbage in a cycle when main returns
        return 3

    monkeypatch.setattr(cli, "main", fake_main)
    gc.disable()  # no automatic collection between main and before_shutdown
    try:
        assert cli.entry_point() == 3
    finally:
        gc.enable()
    assert done == ["finalized"] and refs[0]() is None  # the cycle's finalizer ran
    assert gc.get_freeze_count() > 0  # what was left is out of the collector's reach


def test_entry_point_runs_before_shutdown_when_main_raises(monkeypatch, collector):
    def failing_main() -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "main", failing_main)
    with pytest.raises(RuntimeError, match="boom"):
        cli.entry_point()
    assert gc.get_freeze_count() > 0


def test_main_leaves_the_collector_alone(collector):
    gc.unfreeze()
    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert gc.get_freeze_count() == 0


def test_a_finalizer_in_a_cycle_still_runs_at_exit(tmp_path):
    """An object left in a reference cycle when the command returns is finalized before the process
    ends, as the interpreter's shutdown would finalize it: the collection before the freeze does it."""
    out = tmp_path / "finalized.txt"
    code = f"""
import sys
import newscrawl.cli as cli
class Holder:
    def __del__(self):
        with open({str(out)!r}, "w") as f:
            f.write("finalized")
def main():
    h = Holder(); h.me = h
    return 0
cli.main = main
sys.exit(cli.entry_point())
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == "finalized"


def test_python_m_newscrawl_cli_goes_through_the_entry_point():
    code = """
import gc, runpy, sys
sys.argv = ["newscrawl", "--version"]
try:
    runpy.run_module("newscrawl.cli", run_name="__main__")
except SystemExit as e:
    print(e.code, gc.get_freeze_count() > 0)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines()[0].startswith("newscrawl ")
    assert done.stdout.splitlines()[-1] == "0 True"
