"""Evaluation datasets on disk: ``<dir>/pages/<id>.html`` (raw bytes) and ``<dir>/truth.jsonl``.

Each line of ``truth.jsonl`` is one page: ``id``, ``page`` (optional: the page's file relative to ``<dir>``,
for a dataset that refers to pages kept elsewhere instead of copying them into ``pages/``, as
``data/eval/demo`` refers to ``data/demo``), ``url``, ``lang``, ``title``, ``date``, ``text``, ``author``
(null when unknown) plus dataset-specific fields: ``authors`` (the names as a list, fundus), ``editor`` and
``news_source`` (the responsible editor and the source organisation; ``source`` is taken: fundus uses it for
where the page file came from), ``with`` / ``without`` snippets, ``date_expected_none``. Pages are read
lazily, one at a time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

TRUTH_FILE = "truth.jsonl"
PAGES_DIR = "pages"


@dataclass(frozen=True, slots=True)
class Truth:
    """The annotation of one page; ``None`` fields are not annotated."""

    id: str
    #: the page's file relative to the dataset folder, when not ``pages/<id>.html``
    page: str | None = None
    url: str | None = None
    title: str | None = None
    date: str | None = None
    text: str | None = None
    author: str | None = None
    #: the author names one by one, when the truth lists them (a name may hold a comma: "AFP, MANILA")
    authors: tuple[str, ...] | None = None
    editor: str | None = None
    news_source: str | None = None
    #: the language of the body text (ISO 639-1), when annotated
    lang: str | None = None
    with_: tuple[str, ...] | None = None
    without: tuple[str, ...] | None = None
    #: the page has no publish date and "no date" is the right answer
    date_expected_none: bool = False
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def has_date(self) -> bool:
        """Whether the date can be scored (a truth date, or "no date" expected)."""
        return bool(self.date) or self.date_expected_none

    @property
    def http_url(self) -> str | None:
        """``url`` when it is a real http(s) URL (some datasets keep placeholders there)."""
        return self.url if self.url and self.url.startswith(("http://", "https://")) else None


_KNOWN = {
    "id", "page", "url", "lang", "title", "date", "text", "author", "authors", "editor", "news_source",
    "with", "without", "date_expected_none",
}


def _names(value: Any) -> tuple[str, ...] | None:
    """A list of names as a tuple of non-empty strings; None when not a non-empty list."""
    if not isinstance(value, list):
        return None
    names = tuple(str(v).strip() for v in value if v is not None and str(v).strip())
    return names or None


def truth_from_json(obj: Mapping[str, Any]) -> Truth:
    """Build a ``Truth`` from one parsed line of ``truth.jsonl``."""
    if "id" not in obj:
        raise ValueError(f"truth entry without an id: {str(obj)[:80]!r}")
    with_, without = obj.get("with"), obj.get("without")
    return Truth(
        id=str(obj["id"]),
        page=str(obj["page"]) if obj.get("page") else None,
        url=obj.get("url") or None,
        title=obj.get("title") or None,
        date=obj.get("date") or None,
        text=obj.get("text") if obj.get("text") is not None else None,
        author=obj.get("author") or None,
        authors=_names(obj.get("authors")),
        editor=obj.get("editor") or None,
        news_source=obj.get("news_source") or None,
        lang=str(obj.get("lang") or "").strip().lower() or None,
        with_=tuple(with_) if with_ is not None else None,
        without=tuple(without) if without is not None else None,
        date_expected_none=bool(obj.get("date_expected_none")),
        extra=MappingProxyType({k: v for k, v in obj.items() if k not in _KNOWN}),
    )


@dataclass(frozen=True, slots=True)
class Dataset:
    """A dataset directory; ``name`` is the directory's name."""

    path: Path

    @property
    def name(self) -> str:
        return self.path.resolve().name

    def truths(self) -> Iterator[Truth]:
        """The annotations, in file order."""
        with (self.path / TRUTH_FILE).open(encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    yield truth_from_json(json.loads(line))
                except (ValueError, TypeError) as e:
                    raise ValueError(f"{self.path / TRUTH_FILE}:{lineno}: {e}") from e

    def page_path(self, page: Truth | str) -> Path:
        """The file of one page (a truth, or its id): the truth's ``page`` when it names one, else
        ``pages/<id>.html``."""
        if isinstance(page, str):
            default = self.path / PAGES_DIR / f"{page}.html"
            found = None if default.is_file() else next((t for t in self.truths() if t.id == page), None)
            if found is None:
                return default
            page = found
        return self.path / page.page if page.page else self.path / PAGES_DIR / f"{page.id}.html"

    def read_page(self, page: Truth | str) -> bytes:
        """The raw bytes of one page."""
        return self.page_path(page).read_bytes()

    def __iter__(self) -> Iterator[tuple[Truth, bytes]]:
        """``(truth, page bytes)`` pairs, reading each page only when reached."""
        for truth in self.truths():
            yield truth, self.read_page(truth)

    def __len__(self) -> int:
        with (self.path / TRUTH_FILE).open(encoding="utf-8") as f:
            return sum(1 for line in f if line.strip())


def open_dataset(path: str | Path) -> Dataset:
    """Check that ``path`` looks like a dataset directory and return it."""
    p = Path(path)
    if not (p / TRUTH_FILE).is_file():
        raise ValueError(f"{p}: not a dataset directory (no {TRUTH_FILE})")
    ds = Dataset(p)
    if not (p / PAGES_DIR).is_dir() and not all(t.page for t in ds.truths()):
        raise ValueError(f"{p}: not a dataset directory (no {PAGES_DIR}/, and not every truth names a page)")
    return ds
