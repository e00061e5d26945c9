"""Markdown tables of evaluation runs, and the floors check of the evaluation gate.

A floors file pins minimum figures per dataset and algorithm, TOML (or JSON of the same shape)::

    [scrapinghub.auto]
    sh_f1 = 0.85          # fail when the figure drops below this
    max_exceptions = 0    # "max_" prefix: fail when the figure rises above this

Floors for a dataset or algorithm that was not run are ignored, so a gate can run a subset.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from newscrawl.evaluation.runner import Run

Floors = Mapping[str, Mapping[str, Mapping[str, float]]]

#: (column header, summary key, format) of each table; a run shows in a table when it has the first key
TEXT_COLUMNS = (
    ("pages", "text_pages", "d"),
    ("SH P", "sh_precision", ".3f"),
    ("SH R", "sh_recall", ".3f"),
    ("SH F1", "sh_f1", ".3f"),
    ("exact", "sh_accuracy", ".3f"),
    ("CJK P", "cjk_precision", ".3f"),
    ("CJK R", "cjk_recall", ".3f"),
    ("CJK F1", "cjk_f1", ".3f"),
    ("LCS ok", "lcs_correct", ".3f"),
    ("qualified", "qualified", ".3f"),
    ("excellent", "excellent", ".3f"),
)
SNIPPET_COLUMNS = (
    ("pages", "snippet_pages", "d"),
    ("precision", "snippet_precision", ".3f"),
    ("recall", "snippet_recall", ".3f"),
    ("F1", "snippet_f1", ".3f"),
    ("accuracy", "snippet_accuracy", ".3f"),
)
TITLE_COLUMNS = (
    ("pages", "title_pages", "d"),
    ("title exact", "title_accuracy", ".3f"),
    ("case aside", "title_case_accuracy", ".3f"),
)
AUTHOR_COLUMNS = (
    ("pages", "author_pages", "d"),
    ("same names", "author_accuracy", ".3f"),
    ("right when given", "author_precision", ".3f"),
    ("writer only", "writer_accuracy", ".3f"),
)
DATE_COLUMNS = (
    ("pages", "date_pages", "d"),
    ("same day", "date_accuracy", ".3f"),
    ("right when given", "date_precision", ".3f"),
)
TIME_COLUMNS = (
    ("pages", "time_pages", "d"),
    ("within 1 h", "time_accuracy", ".3f"),
    ("right when given", "time_precision", ".3f"),
)
EDITOR_COLUMNS = (("pages", "editor_pages", "d"), ("same names", "editor_accuracy", ".3f"))
SOURCE_COLUMNS = (("pages", "source_pages", "d"), ("same names", "source_accuracy", ".3f"))
MISSED_COLUMNS = (
    ("pages", "pages", "d"),
    ("broken pages", "broken_pages", "d"),
    ("broken paragraphs", "broken_paragraphs", "d"),
    ("empty articles", "empty_articles", "d"),
    ("invented offsets", "invented_offsets", "d"),
    ("error pages", "error_pages", "d"),
)
AUDIT_COLUMNS = (
    ("pages", "pages", "d"),
    ("site-name title", "audit_title_site_name", "d"),
    ("title as first line", "audit_title_first_line", "d"),
    ("author not a person", "audit_author_not_person", "d"),
    ("future date", "audit_date_future", "d"),
    ("date before 1995", "audit_date_ancient", "d"),
    ("paragraph twice", "audit_dup_paragraph", "d"),
    ("starts with chrome", "audit_lead_chrome", "d"),
    ("starts with info line", "audit_lead_info_line", "d"),
    ("mojibake", "audit_mojibake", "d"),
    ("markup in text", "audit_markup_left", "d"),
)
ROBUSTNESS_COLUMNS = (
    ("pages", "pages", "d"),
    ("errors", "errors", "d"),
    ("exceptions", "exceptions", "d"),
    ("empty text", "empty", "d"),
    ("median ms", "ms_median", ".1f"),
)

SECTIONS = (
    ("Body text", TEXT_COLUMNS),
    ("Text snippets (trafilatura `with` / `without`)", SNIPPET_COLUMNS),
    ("Title", TITLE_COLUMNS),
    ("Author", AUTHOR_COLUMNS),
    ("Editor", EDITOR_COLUMNS),
    ("Source", SOURCE_COLUMNS),
    ("Publish date", DATE_COLUMNS),
    ("Publish time of day", TIME_COLUMNS),
    ("What token F1 misses", MISSED_COLUMNS),
    ("What a reader would reject (record audit, pages)", AUDIT_COLUMNS),
    ("Errors and time", ROBUSTNESS_COLUMNS),
)

METRIC_NOTES = """\
Metrics (per page, then over the dataset):

- **SH P/R/F1**: ScrapingHub article-extraction-benchmark scoring: `\\w+` tokens, multiset of token 4-gram
  shingles, per-page tp/fp/fn normalised by their sum; precision is the mean over pages with a non-empty
  prediction, recall the mean over pages with a non-empty truth, F1 of the two means. **exact**: share of
  pages whose token sequence equals the truth's.
- **CJK P/R/F1**: bag of lowercased tokens (each CJK ideograph one token, other text `\\w+` runs), per page,
  averaged over pages; an empty extraction scores 0.
- **LCS ok** (seed 000): share of pages with `1 - LCS(extracted, truth) / len(extracted) <= 0.2` on
  whitespace-free characters and a non-empty extraction.
- **qualified / excellent** (seed 003): the LCS covers at least 99% of the truth's characters and the
  extracted characters outside it are at most 5% / 2% of the truth's length.
- **snippets**: trafilatura's test: whitespace-normalised substring search of each `with` (must appear) and
  `without` (must not appear) segment; precision, recall, F1, accuracy over all segments.
- **title exact**: equal after whitespace normalisation, with curly quotes and apostrophes read as straight
  ones and invisible characters (soft hyphen, zero-width space) dropped; letter case counts. **case aside**:
  the same with letter case ignored, to show how much of the gap is truths copied from CSS-uppercased
  headlines (`text-transform`); the gate's floors read "title exact".
- **same names** (author): the person the page credits (our `author`, else our `editor`: the truths credit
  the editor, 责任编辑, where no writer is named) has the same set of names as the truth, in any order.
  Names are compared as GROBID's end-to-end evaluation does in "soft matching", case and punctuation aside
  ("J.R. Stone" = "JR Stone", "Rodolfo Costa." = "Rodolfo Costa"; accents and every letter count), but with
  word boundaries kept, so a login ("janedoe") is not the name ("Jane Doe"). A string is split into names
  by the metric's own rule, never the extractor's: at ";", ",", "、",
  "/", "|", "&", "and"/"und"/"y"/"et"..., and at spaces between Chinese names; a truth that lists its
  authors (fundus) is compared name by name. **writer only**: the same with `author` alone.
- **same day**: the `YYYY-MM-DD` of our ISO time equals the truth's (pages annotated "no date" are right
  when we give none).
- **right when given** (author, date, time): the same share, among the pages where we gave a value.
- **editor / source**: the same names as the truth's `editor` / `news_source`, compared as authors.
- **within 1 h**: on pages whose truth has a time of day (midnight exactly counts as a date alone), our time
  is within an hour of it: instants compared when both carry an offset, else the wall-clock times as
  written; a date alone is wrong.
- **broken pages / paragraphs**: truth paragraphs that lost words from their middle: the paragraph is not
  whole in the extraction, but one extracted line holds its start and, up to the line's end, the rest of
  it with letters cut out (`metrics.is_broken`; "包括先锋领航、摩根大通等" kept as "包括先锋领航、等").
  Paragraphs cut short or missing are not counted here (recall sees them).
- **empty articles**: article pages (the truth has body text or `with` snippets; without such truth, our
  page kind says article and the page's body has text: a bot-check page or an empty JavaScript app shell
  has no article to miss) with an empty text.
- **invented offsets**: pages whose publish time carries a UTC offset the page does not support: no
  date-time on the page is written with that offset, and no declared language, host or national charset
  names a region with it (zh-CN/.cn, zh-TW, zh-HK, ja, ko, GBK, Big5, Shift_JIS, EUC-KR, declared or what
  an undeclared page's bytes decode as: `evaluation/zones.py`). A Unix time the page writes (WeChat's
  `var ct = "1581517074"`) given in UTC invents no zone.
- **error pages**: pages whose page kind is `error` (a page not found, a removed article, a login wall or a
  bot check served as a page: `extract/errorpage.py`); the crawl drops them, so on datasets of articles
  each is a real article lost.
- **record audit** (`evaluation/audit.py`, no truth needed; pages showing each defect): a title that is only
  a site or section name; the title again as the text's first line (daniel-zh's truth keeps the headline
  there); an author that is an organisation, a site or a sentence; a publish time more than a day after
  the run (the fetch time) or before 1995; the same paragraph of 20+ characters twice in a row; a text
  opening with a breadcrumb trail or share buttons; mojibake (U+FFFD,
  锟斤拷, UTF-8 or GBK read as Latin-1); HTML references or tags left in the text.
- Rows named `<dataset>/<group>` split a multilingual dataset by the language of its pages: `en`,
  `ja+ko+zh`, `other`.
- **errors**: results with `.error` set; **exceptions**: `extract()` raised (it must not).
"""


def _cell(value: Any, fmt: str) -> str:
    if value is None:
        return "–"
    return format(value, fmt)


def table(runs: Sequence[Run], columns: Sequence[tuple[str, str, str]]) -> str:
    """A Markdown table of the runs that have the first column's figure; empty string when none has."""
    rows = [r for r in runs if columns[0][1] in r.summary]
    if not rows:
        return ""
    head = ["dataset", "algorithm", *(c[0] for c in columns)]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * 2 + ["---:"] * len(columns)) + "|"]
    for run in rows:
        cells = [run.dataset, run.algorithm, *(_cell(run.summary.get(key), fmt) for _, key, fmt in columns)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def tables(runs: Sequence[Run]) -> str:
    """Every section that has at least one run, as Markdown."""
    parts = []
    for heading, columns in SECTIONS:
        body = table(runs, columns)
        if body:
            parts.append(f"## {heading}\n\n{body}\n")
    return "\n".join(parts)


def markdown_report(
    runs: Sequence[Run],
    command: str,
    when: str,
    version: str,
    revision: str | None = None,
    extra: str = "",
) -> str:
    """The full report: how it was made, the tables, ``extra`` sections, what the metrics mean."""
    extra = f"{extra.rstrip()}\n\n" if extra.strip() else ""
    at = f" at {revision}" if revision else ""
    return (
        "# Evaluation\n\n"
        f"Generated by newscrawl {version}{at} on {when} with:\n\n"
        f"```\n{command}\n```\n\n"
        "Datasets: see `../shared/DATASETS.md` (they are not part of the repository).\n\n"
        f"{tables(runs)}\n{extra}{METRIC_NOTES}"
    )


def load_floors(path: str | Path) -> dict[str, dict[str, dict[str, float]]]:
    """Read a floors file (TOML, or JSON if named ``*.json``): dataset -> algorithm -> metric -> value."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
        raw: Any = json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read floors file {p}: {e}") from e
    floors: dict[str, dict[str, dict[str, float]]] = {}
    for dataset, algos in raw.items():
        if not isinstance(algos, dict):
            raise ValueError(f"{p}: [{dataset}] must be a table of algorithms")
        for algo, metrics in algos.items():
            if not isinstance(metrics, dict):
                raise ValueError(f"{p}: [{dataset}.{algo}] must be a table of metric = value")
            for name, value in metrics.items():
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise ValueError(f"{p}: {dataset}.{algo}.{name} must be a number, got {value!r}")
            floors.setdefault(dataset, {})[algo] = {k: float(v) for k, v in metrics.items()}
    return floors


def check_floors(runs: Sequence[Run], floors: Floors) -> list[str]:
    """One message per figure below its floor (or above its ``max_`` ceiling, or missing)."""
    failures = []
    for run in runs:
        for name, bound in floors.get(run.dataset, {}).get(run.algorithm, {}).items():
            where = f"{run.dataset}/{run.algorithm}"
            ceiling = name.startswith("max_")
            metric = name[4:] if ceiling else name
            value = run.summary.get(metric)
            if value is None:
                failures.append(f"{where}: no figure {metric!r} to check against its floor")
            elif ceiling and value > bound:
                failures.append(f"{where}: {metric} = {value:g} is above its ceiling {bound:g}")
            elif not ceiling and value < bound:
                failures.append(f"{where}: {metric} = {value:.4f} is below its floor {bound:.4f}")
    return failures
