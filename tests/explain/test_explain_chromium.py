"""The explain report opens in headless Chromium and its screenshot shows the charts.

Needs Debian's ``chromium`` package; skipped where it is absent (CI does not install it).
"""

import os
import shutil
import signal
import struct
import subprocess
import zlib
from collections import Counter
from pathlib import Path

import pytest

from newscrawl.explain import explain, render_html
from newscrawl.explain.report import BLUE, GREEN, GREY, ORANGE, RED

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium not installed (Debian: apt-get install chromium)"
)

SENTENCE = "新建的城市公园今天正式开放，园内有步道、湖泊和儿童游乐区，市民可以免费入园。"
PAGE = f"""<html><head><meta charset="utf-8"><title>城市公园正式开放</title></head>
<body><div class="nav"><a href="/">首页</a> <a href="/city">城市</a> <a href="/life">生活</a></div>
<h1>城市公园正式开放</h1><div class="content">{"".join(f"<p>{SENTENCE * 2}</p>" for _ in range(6))}</div>
<ul class="related">{"".join(f'<li><a href="/n/{i}">相关新闻标题第{i}条</a></li>' for i in range(8))}</ul>
<div class="footer">版权所有 联系我们</div></body></html>"""


def screenshot(html_file: Path, png: Path, profile: Path) -> None:
    """Screenshot ``html_file`` with headless Chromium; its whole process group is ended on a hang."""
    cmd = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
        f"--screenshot={png}", "--window-size=1200,2000", html_file.as_uri(),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        proc.wait(timeout=90)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        pytest.fail("chromium did not finish the screenshot in 90 s")


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of an 8-bit RGB or RGBA PNG (alpha dropped)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, []
    width = height = ctype = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        chunk = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
        elif kind == b"IDAT":
            idat.append(chunk)
        pos += 12 + length
    raw = zlib.decompress(b"".join(idat))
    bpp = 3 if ctype == 2 else 4
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        f, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride) if f else ():
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            else:
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(v for k, v in enumerate(line) if k % 4 != 3))
        prev = line
    return width, height, rows


def test_report_screenshot_shows_the_charts(tmp_path):
    report = tmp_path / "report.html"
    report.write_text(render_html(explain(PAGE, url="https://news.example.cn/park.html")), encoding="utf-8")
    png = tmp_path / "shot.png"
    screenshot(report, png, tmp_path / "profile")
    assert png.is_file(), "chromium wrote no screenshot"
    width, height, rows = read_png(png)
    assert (width, height) == (1200, 2000)
    colours: Counter[bytes] = Counter()
    for row in rows[::2]:
        for x in range(0, len(row), 6):
            colours[row[x : x + 3]] += 1
    assert len(colours) > 50, "the screenshot is (nearly) blank"
    # the charts' colours, drawn solid in the legends, threshold lines and series
    palette = {"grey": GREY, "blue": BLUE, "orange": ORANGE, "red": RED, "green": GREEN}
    for name, hex_colour in palette.items():
        assert colours[bytes.fromhex(hex_colour[1:])] > 0, f"no {name} ({hex_colour}) in the screenshot"
    # the summary comes first: the content node's row of the candidates table (green) is on the first screen
    first_screen = {row[x : x + 3] for row in rows[:1000] for x in range(0, len(row), 3)}
    assert bytes.fromhex("e6f4ea") in first_screen, "no chosen candidate in the first 1000 px"
