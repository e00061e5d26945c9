"""The body's paragraphs as a reader gets them: two repeats the record audit found, taken out.

Every body algorithm hands over paragraphs; two defects a reader sees come from the page's markup rather
than from the choice of content, so they are handled once here, after the metadata stage has read the
paragraphs as found:

- the headline again as the first paragraph (the page's ``h1`` inside the content node): the record has
  the title in its own field. It is dropped when the first paragraph equals the extracted title (white
  space and case aside) and more text follows;
- the same paragraph twice in a row (an image's alt text and its caption, a teaser and the lead, a
  widget rendered twice): the second copy is dropped when it holds at least ``REPEAT_MIN_CHARS``
  characters (shorter repeats are table cells and list items: "Yes", "—", "获奖").

``newscrawl eval`` counts both (``audit_title_first_line``, ``audit_dup_paragraph``: ``evaluation/audit.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

#: a paragraph this long (white space aside) repeated right after itself is a copy, not a cell of a table
REPEAT_MIN_CHARS = 20


def _key(text: str) -> str:
    return "".join(text.split()).casefold()


def finish_paragraphs(paragraphs: Sequence[str], title: str | None) -> tuple[str, ...]:
    """``paragraphs`` without a leading copy of ``title`` and without a paragraph repeated right after
    itself.

    >>> finish_paragraphs(["Harbour reopens", "The harbour reopened on Monday."], "Harbour Reopens")
    ('The harbour reopened on Monday.',)
    >>> cap = "湘江长沙段水位降至历史最低值。本报记者摄"
    >>> finish_paragraphs([cap, cap, "正文。"], None)
    ('湘江长沙段水位降至历史最低值。本报记者摄', '正文。')
    >>> finish_paragraphs(["获奖", "获奖"], None)
    ('获奖', '获奖')
    """
    out: list[str] = []
    previous = None
    for paragraph in paragraphs:
        key = _key(paragraph)
        if key and key == previous and len(key) >= REPEAT_MIN_CHARS:
            continue
        out.append(paragraph)
        previous = key
    if title and len(out) > 1 and _key(out[0]) == _key(title):
        del out[0]
    return tuple(out)
