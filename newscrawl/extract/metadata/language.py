"""Language: the one the page declares, else the one its text is written in.

1. ``page`` -- ``<html lang>``, ``xml:lang`` or the Content-Language meta, as declared;
2. ``detected`` -- from the first ``DETECT_SAMPLE_CHARS`` characters of the main text (else the title),
   when they hold at least ``MIN_DETECT_CHARS`` letters. The script decides where it alone can: Han
   characters without kana or hangul are Chinese, kana make Japanese, hangul Korean (a share of
   ``SCRIPT_SHARE`` of the letters). Other text goes to py3langid (Lui and Baldwin's langid.py, 97
   languages, its model shipped in the wheel, no network), whose cost grows with the bytes it reads
   (about 1-4 ms for 1,000 CJK characters, measured), hence the sample.

The model loads on first use, once per process; ``extract`` loads it before the first page that needs
it and leaves that time out of the page's time budget. The wheel ships it LZMA-compressed, and
decompressing it is most of the load (about 0.4 s CPU of 0.55 s), so the first load also writes its
arrays uncompressed to ``MODEL_CACHE`` (about 70 MB, written atomically, keyed by the model file's
size and mtime and checked on reading); later loads map that copy (about 0.1 s, mostly numpy's import).
Without a writable cache directory each load decompresses, as before.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.page import PageMeta
from newscrawl.extract.result import NOT_FOUND, Found

#: characters of text the detector reads (a few sentences; langid.py's accuracy is flat beyond them)
DETECT_SAMPLE_CHARS = 300
#: share of the letters in one East Asian script that settles the language without the model
SCRIPT_SHARE = 0.3
#: fewer letters than this are too few to tell a language by
MIN_DETECT_CHARS = 20
_HAN = lazy_compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_KANA = lazy_compile(r"[\u3040-\u30ff]")
_HANGUL = lazy_compile(r"[\uac00-\ud7af\u1100-\u11ff]")


def load_model() -> float:
    """Load the language model if it is not loaded yet; the CPU seconds of this thread that took (0.0 when
    it was: what the time budget leaves out)."""
    if _identifier.cache_info().currsize:
        return 0.0
    start = time.thread_time()
    _identifier()
    return time.thread_time() - start


#: where the uncompressed copy of the model is kept ($NEWSCRAWL_CACHE_DIR, else the user's cache dir)
MODEL_CACHE = Path(
    os.environ.get("NEWSCRAWL_CACHE_DIR")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "newscrawl"
)
_ARRAYS = ("ptc", "pc", "classes", "nextmove", "nextmove_row", "out_feat")


@lru_cache(maxsize=1)
def _identifier() -> Any:
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    model = MODEL_DIR / MODEL_FILE
    try:
        stat = model.stat()
        cached = MODEL_CACHE / f"langid-{stat.st_size}-{stat.st_mtime_ns}"
        arrays = _read_cached(cached)
        if arrays is None:
            _write_cached(model, cached)
            arrays = _read_cached(cached)
    except OSError:
        arrays = None
    if arrays is None:  # no usable cache: decompress, as py3langid does
        return LanguageIdentifier.from_model_file(MODEL_FILE)
    from py3langid.modelio import _to_array

    ptc, pc, classes, nextmove, row, out_feat = (arrays[name] for name in _ARRAYS)
    # the transition table is read in place (py3langid copies its 39 MB into an array: 20 ms)
    unsigned = memoryview(nextmove).cast("B")
    table = unsigned.cast("H") if nextmove.dtype.itemsize == 2 else unsigned.cast("I")
    return LanguageIdentifier(ptc, pc, classes.tolist(), table, out_feat.tolist(), tk_row=_to_array(row))


def _read_cached(directory: Path) -> dict[str, Any] | None:
    """The model's arrays from ``directory`` (the big ones memory-mapped), None unless all are sound."""
    import numpy as np

    try:
        arrays = {
            name: np.asarray(np.load(directory / f"{name}.npy", mmap_mode="r", allow_pickle=False))
            for name in _ARRAYS
        }
    except (OSError, ValueError):
        return None
    ptc, pc, classes, nextmove, row, out_feat = (arrays[name] for name in _ARRAYS)
    sound = (
        ptc.ndim == 2
        and ptc.shape[1] == pc.shape[0] == classes.shape[0]
        and nextmove.ndim == row.ndim == out_feat.ndim == 1
        and nextmove.dtype.kind == "u"
        and nextmove.dtype.isnative
        and nextmove.dtype.itemsize in (2, 4)
        and nextmove.flags.c_contiguous
        and nextmove.size % 256 == 0
        and row.shape == out_feat.shape
        and (row.size == 0 or int(row.max()) < nextmove.size // 256)
    )
    return arrays if sound else None


def _write_cached(model: Path, directory: Path) -> None:
    """Decompress ``model`` into ``directory``, one ``.npy`` per array; atomic: a whole copy or none."""
    import lzma

    import numpy as np

    directory.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    try:
        with tempfile.TemporaryFile(suffix=".npz") as tmp:
            with lzma.open(model) as src:
                while chunk := src.read(1 << 20):
                    tmp.write(chunk)
            tmp.seek(0)
            with np.load(tmp, allow_pickle=False) as data:
                for name in _ARRAYS:
                    np.save(work / f"{name}.npy", data[name], allow_pickle=False)
        os.replace(work, directory)  # fails when another process got there first: its copy is used
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def detect_language(text: str) -> str | None:
    """The ISO 639-1 code of the language ``text`` is written in, or None when it is too short.

    >>> detect_language("北京市今天发布了新的交通管理规定，自下月起施行。")
    'zh'
    """
    sample = text[:DETECT_SAMPLE_CHARS]
    letters = sum(ch.isalpha() for ch in sample)
    if letters < MIN_DETECT_CHARS:
        return None
    code = _by_script(sample, letters)
    if code is None:
        code, _score = _identifier().classify(sample)
    return str(code)


def needs_model(text: str) -> bool:
    """Whether :func:`detect_language` would ask the model about ``text`` (no script settles it)."""
    sample = text[:DETECT_SAMPLE_CHARS]
    letters = sum(ch.isalpha() for ch in sample)
    return letters >= MIN_DETECT_CHARS and _by_script(sample, letters) is None


def _by_script(sample: str, letters: int) -> str | None:
    if len(_KANA.findall(sample)) >= SCRIPT_SHARE * letters / 3:  # Japanese mixes kana with Han
        return "ja"
    if len(_HANGUL.findall(sample)) >= SCRIPT_SHARE * letters:
        return "ko"
    if len(_HAN.findall(sample)) >= SCRIPT_SHARE * letters:
        return "zh"
    return None


def detection_text(text: str, title: str | None) -> str:
    """What the language is detected from: the main text, else the title."""
    return text or title or ""


def find_language(meta: PageMeta, text: str, title: str | None) -> Found:
    """The declared language, else the detected one; ``Found()`` when neither."""
    if meta.language:
        return Found(meta.language, "page")
    code = detect_language(detection_text(text, title))
    return Found(code, "detected") if code else NOT_FOUND
