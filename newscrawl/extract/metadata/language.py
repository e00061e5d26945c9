"""Language: the one the page declares, else the one its text is written in.

1. ``page`` -- ``<html lang>``, ``xml:lang`` or the Content-Language meta, as declared;
2. ``detected`` -- py3langid (Lui and Baldwin's langid.py, 97 languages, its model shipped in the wheel,
   no network) on the first ``DETECT_SAMPLE_CHARS`` characters of the main text, else of the title;
   only when the sample has at least ``MIN_DETECT_CHARS`` letters.

The model loads on first use (about 2 s, once per process).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from newscrawl.extract.page import PageMeta
from newscrawl.extract.result import NOT_FOUND, Found

#: characters of text handed to the detector (its accuracy is flat beyond a few hundred)
DETECT_SAMPLE_CHARS = 1000
#: fewer letters than this are too few to tell a language by
MIN_DETECT_CHARS = 20


@lru_cache(maxsize=1)
def _identifier() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE)


def detect_language(text: str) -> str | None:
    """The ISO 639-1 code of the language ``text`` is written in, or None when it is too short.

    >>> detect_language("北京市今天发布了新的交通管理规定，自下月起施行。")
    'zh'
    """
    sample = text[:DETECT_SAMPLE_CHARS]
    if sum(ch.isalpha() for ch in sample) < MIN_DETECT_CHARS:
        return None
    code, _score = _identifier().classify(sample)
    return str(code)


def find_language(meta: PageMeta, text: str, title: str | None) -> Found:
    """The declared language, else the detected one; ``Found()`` when neither."""
    if meta.language:
        return Found(meta.language, "page")
    code = detect_language(text or title or "")
    return Found(code, "detected") if code else NOT_FOUND
