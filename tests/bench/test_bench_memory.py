"""``python -m newscrawl.bench.memory`` on a small portal: it crawls, stores every article and reports a peak.

The 5,000-page figure is measured by hand (docs/RELIABILITY.md): too slow for every test run.
"""

from __future__ import annotations

import subprocess
import sys

from newscrawl.bench.memory import PEAK_RSS_LIMIT_MB

ARTICLES = 30


def test_benchmem_reports_pages_records_and_peak_memory(tmp_path):
    args = [sys.executable, "-m", "newscrawl.bench.memory", "--pages", str(ARTICLES)]
    done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    line = done.stdout.strip()
    assert line.startswith(f"{ARTICLES} articles: ") and f"{ARTICLES} records stored" in line
    peak = float(line.split("peak RSS ")[1].split(" MB")[0])
    tree = float(line.split("extraction workers ")[1].split(" MB")[0])
    assert 10 < peak <= tree < PEAK_RSS_LIMIT_MB
