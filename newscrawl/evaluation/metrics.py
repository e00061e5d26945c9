"""Accuracy metrics for extracted text, titles and dates: pure functions over strings.

Per-page functions return small frozen values; the ``aggregate_*`` functions turn a list of them into the
dataset figures. The definitions follow /work/shared/DATASETS.md:

- ScrapingHub F1 (``shingle_counts`` / ``aggregate_shingles``): the scoring of ScrapingHub's
  article-extraction-benchmark ``evaluate.py``, token 4-gram shingles, macro precision and recall.
- CJK token F1 (``cjk_token_prf``): bag of tokens, one token per CJK ideograph, lowercased.
- LCS error rate (``lcs_error``): seed 000, ``P = 1 - LCS(extracted, truth) / len(extracted)``.
- Qualified / excellent (``coverage``): seed 003, the extraction covers the truth with little noise.
- Snippets (``snippet_counts``): trafilatura's ``with`` / ``without`` substring test.
- Title, author and date matching; time within an hour (``time_match``). Author names are compared the
  way GROBID's end-to-end evaluation compares them in "soft matching" (case and punctuation aside, word
  boundaries kept: ``name_key``), with the metric's own list splitting, never the extractor's.
- Broken paragraphs (``broken_paragraphs``): truth paragraphs whose start and end were kept but whose middle
  lost words, which token F1 barely sees.

>>> round(aggregate_shingles([shingle_counts("a b c d e", "a b c d")]).f1, 3)
0.667
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from statistics import fmean

# --- ScrapingHub F1 --------------------------------------------------------------------------------------

#: tokens of the ScrapingHub benchmark: runs of word characters (an unspaced Chinese run is one token)
SH_TOKEN_RE = re.compile(r"\w+", re.UNICODE)
#: shingle length of the ScrapingHub benchmark
SH_NGRAM = 4


def sh_tokens(text: str) -> list[str]:
    """``\\w+`` runs of ``text``, case kept (as the benchmark's evaluate.py)."""
    return SH_TOKEN_RE.findall(text or "")


def shingles(tokens: Sequence[str], n: int = SH_NGRAM) -> Counter[tuple[str, ...]]:
    """Multiset of token n-grams; fewer than ``n`` tokens give one shorter shingle (none if no tokens)."""
    grams: Counter[tuple[str, ...]] = Counter()
    for i in range(max(1, len(tokens) - n + 1)):
        gram = tuple(tokens[i : i + n])
        if gram:
            grams[gram] += 1
    return grams


@dataclass(frozen=True, slots=True)
class ShingleCounts:
    """One page's true/false positive and false negative shingles, normalised to sum to 1 (or all 0)."""

    tp: float
    fp: float
    fn: float
    #: the token sequences of prediction and truth are identical
    exact: bool


def shingle_counts(predicted: str, truth: str, n: int = SH_NGRAM) -> ShingleCounts:
    """Multiset overlap of the shingles of ``predicted`` and ``truth``.

    >>> shingle_counts("a b c d e", "a b c d")
    ShingleCounts(tp=0.5, fp=0.5, fn=0.0, exact=False)
    """
    pred_tokens, true_tokens = sh_tokens(predicted), sh_tokens(truth)
    pred, true = shingles(pred_tokens, n), shingles(true_tokens, n)
    tp = float(sum((pred & true).values()))
    fp = float(sum((pred - true).values()))
    fn = float(sum((true - pred).values()))
    total = tp + fp + fn
    if total:
        tp, fp, fn = tp / total, fp / total, fn / total
    return ShingleCounts(tp, fp, fn, pred_tokens == true_tokens)


def _sh_precision(c: ShingleCounts) -> float:
    if c.fp == c.fn == 0:
        return 1.0
    return c.tp / (c.tp + c.fp) if c.tp + c.fp else 0.0


def _sh_recall(c: ShingleCounts) -> float:
    if c.fp == c.fn == 0:
        return 1.0
    return c.tp / (c.tp + c.fn) if c.tp + c.fn else 0.0


@dataclass(frozen=True, slots=True)
class PRF:
    """Precision, recall, F1 and accuracy of a set of pages (accuracy: see the producing function)."""

    precision: float
    recall: float
    f1: float
    accuracy: float


def f1_score(precision: float, recall: float) -> float:
    """Harmonic mean of ``precision`` and ``recall``; 0 when both are 0."""
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def aggregate_shingles(pages: Sequence[ShingleCounts]) -> PRF:
    """Macro precision over pages with ``tp + fp > 0`` (an empty prediction is left out of precision),
    macro recall over pages with ``tp + fn > 0``, F1 of the two means; accuracy is the share of pages whose
    token sequence equals the truth's."""
    precisions = [_sh_precision(c) for c in pages if c.tp + c.fp > 0]
    recalls = [_sh_recall(c) for c in pages if c.tp + c.fn > 0]
    p = fmean(precisions) if precisions else 0.0
    r = fmean(recalls) if recalls else 0.0
    accuracy = fmean(c.exact for c in pages) if pages else 0.0
    return PRF(p, r, f1_score(p, r), accuracy)


# --- CJK token F1 ----------------------------------------------------------------------------------------

#: CJK unified ideographs: basic block, extensions A-F and compatibility ideographs
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
#: one ideograph, or a run of word characters that are not ideographs
CJK_TOKEN_RE = re.compile(f"[{_CJK}]|[^\\W{_CJK}]+", re.UNICODE)


def cjk_tokens(text: str) -> list[str]:
    """Lowercased tokens: each CJK ideograph alone, other text as ``\\w+`` runs.

    >>> cjk_tokens("新闻News 2024年")
    ['新', '闻', 'news', '2024', '年']
    """
    return CJK_TOKEN_RE.findall((text or "").lower())


@dataclass(frozen=True, slots=True)
class TokenPRF:
    """Bag-of-tokens precision, recall and F1 of one page."""

    precision: float
    recall: float
    f1: float


def cjk_token_prf(predicted: str, truth: str) -> TokenPRF:
    """Bag-of-tokens overlap of ``predicted`` and ``truth`` (multiset: a token counts as often as it occurs).

    Both empty gives 1/1/1 (nothing to find, nothing extracted); exactly one empty gives 0/0/0.

    >>> cjk_token_prf("新闻 广告", "新闻")
    TokenPRF(precision=0.5, recall=1.0, f1=0.6666666666666666)
    """
    pred, true = Counter(cjk_tokens(predicted)), Counter(cjk_tokens(truth))
    n_pred, n_true = sum(pred.values()), sum(true.values())
    if not n_pred and not n_true:
        return TokenPRF(1.0, 1.0, 1.0)
    if not n_pred or not n_true:
        return TokenPRF(0.0, 0.0, 0.0)
    common = sum((pred & true).values())
    p, r = common / n_pred, common / n_true
    return TokenPRF(p, r, f1_score(p, r))


def aggregate_token_prf(pages: Sequence[TokenPRF]) -> PRF:
    """Means over pages of the per-page precision, recall and F1 (accuracy: share of pages with F1 = 1)."""
    if not pages:
        return PRF(0.0, 0.0, 0.0, 0.0)
    return PRF(
        fmean(x.precision for x in pages),
        fmean(x.recall for x in pages),
        fmean(x.f1 for x in pages),
        fmean(x.f1 == 1.0 for x in pages),
    )


# --- LCS based measures (seeds 000 and 003) --------------------------------------------------------------

_WHITESPACE_RE = re.compile(r"\s+", re.UNICODE)


def squeeze(text: str) -> str:
    """``text`` with all whitespace removed (the character strings the LCS measures compare)."""
    return _WHITESPACE_RE.sub("", text or "")


def lcs_length(a: str, b: str) -> int:
    """Length of the longest common subsequence of ``a`` and ``b``, bit-parallel.

    Hyyrö's formulation of the Allison-Dix algorithm: the DP column is a bit vector over the longer string
    held in one Python int, so each character of the shorter string costs a few big-int operations:
    O(len(a) * len(b) / word size) instead of the O(len(a) * len(b)) table.

    >>> lcs_length("ABCBDAB", "BDCABA")
    4
    """
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return 0
    masks: dict[str, int] = {}
    for i, ch in enumerate(a):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for ch in b:
        u = v & masks.get(ch, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


#: seed 000: a page is correct when its LCS error rate is at most this
LCS_ERROR_MAX = 0.2


@dataclass(frozen=True, slots=True)
class LcsScore:
    """One page's seed-000 error rate (1.0 for an empty extraction) and whether it counts as correct."""

    error: float
    correct: bool


def lcs_error(predicted: str, truth: str, lcs: int | None = None) -> LcsScore:
    """``P = 1 - LCS(extracted, truth) / len(extracted)`` on whitespace-free characters (seed 000).

    A page is correct when ``P <= 0.2`` and the extraction is not empty. ``lcs`` may pass a length already
    computed on the squeezed strings.

    >>> lcs_error("正文正文广告", "正文正文")
    LcsScore(error=0.33333333333333337, correct=False)
    """
    pred, true = squeeze(predicted), squeeze(truth)
    if not pred:
        return LcsScore(1.0, False)
    common = lcs_length(pred, true) if lcs is None else lcs
    error = 1 - common / len(pred)
    return LcsScore(error, error <= LCS_ERROR_MAX)


#: seed 003 says the extraction must "completely cover" the truth. Human truth and page text differ in
#: small ways (a dropped caption, a normalised quote mark), so "covers" is taken as: the LCS holds at least
#: 99% of the truth's characters.
COVER_MIN = 0.99
#: seed 003: noise (extracted characters outside the LCS) over truth length, qualified / excellent
QUALIFIED_NOISE_MAX = 0.05
EXCELLENT_NOISE_MAX = 0.02


@dataclass(frozen=True, slots=True)
class Coverage:
    """Seed-003 figures of one page: share of truth characters covered, noise over truth length."""

    covered: float
    noise: float
    qualified: bool
    excellent: bool


def coverage(predicted: str, truth: str, lcs: int | None = None) -> Coverage:
    """Seed 003: qualified when the extraction covers the truth and noise is at most 5%; excellent at 2%.

    ``covered = LCS / len(truth)``, ``noise = (len(extracted) - LCS) / len(truth)``, on whitespace-free
    characters; "covers" means ``covered >= 0.99`` (``COVER_MIN``). An empty truth is covered by anything,
    and then any extracted character is infinite noise.

    >>> coverage("正文" * 50 + "广告", "正文" * 50)
    Coverage(covered=1.0, noise=0.02, qualified=True, excellent=True)
    """
    pred, true = squeeze(predicted), squeeze(truth)
    common = lcs_length(pred, true) if lcs is None else lcs
    if not true:
        noise = 0.0 if not pred else float("inf")
        covered = 1.0
    else:
        covered = common / len(true)
        noise = (len(pred) - common) / len(true)
    covers = covered >= COVER_MIN
    qualified = covers and noise <= QUALIFIED_NOISE_MAX
    return Coverage(covered, noise, qualified, covers and noise <= EXCELLENT_NOISE_MAX)


def lcs_scores(predicted: str, truth: str) -> tuple[LcsScore, Coverage]:
    """Both LCS based measures of one page, computing the LCS once."""
    pred, true = squeeze(predicted), squeeze(truth)
    common = lcs_length(pred, true)
    return lcs_error(pred, true, common), coverage(pred, true, common)


# --- trafilatura snippets --------------------------------------------------------------------------------


def normalize_space(text: str) -> str:
    """Whitespace runs collapsed to one space, ends stripped."""
    return _WHITESPACE_RE.sub(" ", text or "").strip()


@dataclass(frozen=True, slots=True)
class SnippetCounts:
    """Per page: ``with`` snippets found (tp) / missed (fn), ``without`` snippets found (fp) / absent (tn)."""

    tp: int
    fp: int
    fn: int
    tn: int


def snippet_counts(predicted: str | None, with_: Iterable[str], without: Iterable[str]) -> SnippetCounts:
    """trafilatura's per-page scoring: a whitespace-normalised substring test of every snippet.

    >>> snippet_counts("main text here", ["main  text"], ["menu"])
    SnippetCounts(tp=1, fp=0, fn=0, tn=1)
    """
    with_, without = list(with_), list(without)
    text = normalize_space(predicted or "")
    tp = sum(1 for s in with_ if normalize_space(s) in text) if predicted else 0
    fp = sum(1 for s in without if normalize_space(s) in text) if predicted else 0
    return SnippetCounts(tp, fp, len(with_) - tp, len(without) - fp)


def aggregate_snippets(pages: Iterable[SnippetCounts]) -> PRF:
    """Precision, recall, accuracy and F1 over all segments of all pages (micro, as trafilatura)."""
    tp = fp = fn = tn = 0
    for c in pages:
        tp, fp, fn, tn = tp + c.tp, fp + c.fp, fn + c.fn, tn + c.tn
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    total = tp + fp + fn + tn
    return PRF(p, r, f1_score(p, r), (tp + tn) / total if total else 0.0)


# --- title and date --------------------------------------------------------------------------------------


#: typographic variants of the apostrophe, the double quote and the dash, the ellipsis character, and
#: invisible characters (soft hyphen, zero-width space and joiners, word joiner, BOM): a title is the same
#: headline whichever of these its page or its annotator used (fundus's truths take og:title's straight
#: quotes where the <h1> prints curly ones; a <title> writes " - " where the <h1> prints " – "; some
#: truths keep a soft hyphen or a trailing zero-width space)
_TITLE_TYPOGRAPHY = str.maketrans(
    {**dict.fromkeys("‘’‚‛′`", "'"), **dict.fromkeys("“”„‟″", '"'),
     **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"), "…": "...",
     **dict.fromkeys("\xad\u200b\u200c\u200d\u200e\u200f\u2060\ufeff", "")}
)  # fmt: skip
#: an ellipsis closing a title: a headline with "..." after it is the same headline
_TRAILING_ELLIPSIS = re.compile(r"\s*\.\.\.$")


def title_key(text: str) -> str:
    """``text`` as titles are compared: white space collapsed, quote marks, apostrophes and dashes in
    their plain form, "…" as "...", an ellipsis at the end and invisible characters dropped. Letter case
    is kept.

    >>> title_key("Biden’s  “new” re\\xadcord\\u200b") == 'Biden\\'s "new" record'
    True
    >>> title_key("Vote delayed – again…"), title_key("Who is she?...")
    ('Vote delayed - again', 'Who is she?')
    """
    return _TRAILING_ELLIPSIS.sub("", normalize_space(text.translate(_TITLE_TYPOGRAPHY)))


def title_match(predicted: str | None, truth: str) -> bool:
    """Exact match up to white space, quote-mark typography and invisible characters (:func:`title_key`);
    no title never matches.

    >>> title_match(" A  title\\n", "A title"), title_match("Biden’s plan", "Biden's plan")
    (True, True)
    """
    return predicted is not None and title_key(predicted) == title_key(truth)


def title_match_case_aside(predicted: str | None, truth: str) -> bool:
    """:func:`title_match` with letter case aside: a truth copied from a CSS-uppercased headline
    ("COUNCIL PASSES BUDGET") matches the headline as the HTML writes it. A separate figure: "title exact"
    still counts case.

    >>> title_match_case_aside("Council passes budget", "COUNCIL PASSES BUDGET")
    True
    """
    return predicted is not None and title_key(predicted).casefold() == title_key(truth).casefold()


#: separators between the names of an author list, for scoring (the metric's own: it never uses the
#: extractor's splitting, so a splitting bug of the extractor cannot be scored as right): list punctuation
#: (";", ",", "、", "/", "|", "&" and their full-width forms) and "and" in the languages of the datasets
NAME_LIST_SEP_RE = re.compile(
    r"\s*[;；,，、/／|｜&＆]\s*|\s+(?:and|und|et|y|e|i|og|och|en)\s+", re.IGNORECASE
)
#: a Chinese name: Han characters (and the interpunct of transcribed names), written with spaces between
#: names ("张三 李四", chinese-wce's truth), never inside one
_HAN_NAME_RE = re.compile(r"^[\u3400-\u9fff\uf900-\ufaff·•]{2,}$")


def name_key(name: str) -> str:
    """A name as the author metric compares it: GROBID's "soft matching" (NFKC, case folded, punctuation
    removed) with one difference: word boundaries count (whitespace runs are one space, not dropped), so a
    login ("janedoe", "jane.doe") is not the name it stands for ("Jane Doe"). "Rodolfo Costa." and
    "Rodolfo  Costa", "Marwan H. Adwan" and "Marwan H Adwan" are the same name; letters and accents count.

    >>> name_key(" Marwan H.  Adwan "), name_key("Jean-Luc Müller."), name_key("jane.doe")
    ('marwan h adwan', 'jeanluc müller', 'janedoe')
    """
    text = unicodedata.normalize("NFKC", name).casefold()
    kept = "".join(ch for ch in text if ch.isspace() or unicodedata.category(ch)[0] in "LNM")
    return " ".join(kept.split())


def split_author_names(value: str) -> list[str]:
    """The names of an author string as the metric reads it: split at list separators
    (:data:`NAME_LIST_SEP_RE`), and at spaces when every word is a Chinese name.

    >>> split_author_names("Jane Doe; John Roe and Ann Poe"), split_author_names("王建宏 张文攀")
    (['Jane Doe', 'John Roe', 'Ann Poe'], ['王建宏', '张文攀'])
    >>> split_author_names("周思博 (Joel Spolsky)")
    ['周思博 (Joel Spolsky)']
    """
    names: list[str] = []
    for part in NAME_LIST_SEP_RE.split(value or ""):
        words = part.split()
        if len(words) > 1 and all(_HAN_NAME_RE.match(w) for w in words):
            names.extend(words)
        elif part.strip():
            names.append(part.strip())
    return names


def author_names(value: str | Sequence[str]) -> frozenset[str]:
    """The names in an author string or list (each item split the same way, :func:`split_author_names`),
    as :func:`name_key` compares them."""
    parts = [value] if isinstance(value, str) else list(value)
    return frozenset(k for part in parts for k in map(name_key, split_author_names(part)) if k)


def _whole_names(names: Sequence[str]) -> frozenset[str]:
    return frozenset(k for k in map(name_key, names) if k)


def author_match(predicted: str | Sequence[str] | None, truth: str | Sequence[str]) -> bool:
    """Same set of names: GROBID's soft matching of each name (case and punctuation aside, word boundaries
    kept: :func:`name_key`), the order and separators of a list aside. The comparison is the metric's own,
    independent of the extractor's name splitting.

    When both sides are lists, names are compared whole (a list keeps "AFP, MANILA" one name); when either
    is a string, both are split at list separators (:func:`split_author_names`), so a joined string can
    match a list.

    >>> author_match("Tim Anderson, Jo Lee", "jo lee; Tim  Anderson"), author_match("新华社", "张三")
    (True, False)
    >>> author_match(["AFP, MANILA"], ["AFP, MANILA"]), author_match("AFP, MANILA", ["AFP, MANILA"])
    (True, True)
    >>> author_match("Samya Kullab and Vasilisa Stepanenko", ["Samya Kullab", "Vasilisa Stepanenko"])
    True
    >>> author_match("牛镛、岳弘彬", "牛镛 岳弘彬"), author_match("Rodolfo Costa", "Rodolfo Costa.")
    (True, True)
    >>> author_match("arianexample", "Arian Example"), author_match("Jane Doe", "Jane Doe Jr.")
    (False, False)
    >>> author_match("Jane Doe (obe)", "Jane Doe"), author_match("Jane Doe, Reuters", "Jane Doe")
    (False, False)
    """
    if predicted is None or (not isinstance(predicted, str) and not predicted):
        return False
    if not isinstance(predicted, str) and not isinstance(truth, str):
        return _whole_names(predicted) == _whole_names(truth)
    return author_names(predicted) == author_names(truth)


_DAY_RE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})")


def calendar_day(value: str | None) -> str | None:
    """The ``YYYY-MM-DD`` an ISO 8601 date or datetime string starts with, else None."""
    m = _DAY_RE.match(value or "")
    return "-".join(m.groups()) if m else None


def date_match(predicted: str | None, truth: str | None) -> bool:
    """Same calendar day as written in the two ISO strings; ``truth`` None means "no date" is correct.

    The day of ``predicted`` is taken as written (in the page's own offset), not converted to UTC.

    >>> date_match("2021-03-04T23:30:00+08:00", "2021-03-04"), date_match(None, None)
    (True, True)
    """
    if truth is None:
        return predicted is None
    day = calendar_day(predicted)
    return day is not None and day == calendar_day(truth)


#: the largest gap between a predicted and a true time that counts as right (issue 12: within one hour)
TIME_TOLERANCE_SECONDS = 3600.0


def _datetime(value: str | None) -> datetime | None:
    """An ISO 8601 date-time string as a ``datetime``; None for a date alone or an unreadable value."""
    text = (value or "").strip()
    if len(text) < 13 or text[10] not in "T ":
        return None
    try:
        return datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        return None


def gives_time(value: str | None) -> bool:
    """Whether an ISO value has a time part at all (a date alone has none)."""
    return _datetime(value) is not None


def has_time(value: str | None) -> bool:
    """Whether an ISO value carries a time of day. Midnight exactly counts as a date alone: that is how
    the truth of a date-only value is written (fundus: ``2025-11-03 00:00:00+00:00`` for a date)."""
    dt = _datetime(value)
    return dt is not None and (dt.hour, dt.minute, dt.second, dt.microsecond) != (0, 0, 0, 0)


def time_match(predicted: str | None, truth: str) -> bool:
    """Whether ``predicted`` is within an hour of ``truth`` (which should carry a time, see ``has_time``).

    Both with offsets: the instants are compared. Otherwise the wall-clock times as written: a time without
    an offset makes no claim about its zone, and the page's own clock is what a reader saw. A date alone
    never matches.

    >>> time_match("2024-09-03T12:03:19+08:00", "2024-09-03T04:30:00Z")
    True
    >>> time_match("2024-09-03", "2024-09-03 04:00")
    False
    """
    pred, true = _datetime(predicted), _datetime(truth)
    if pred is None or true is None or len((predicted or "").strip()) < 16:
        return False
    if (pred.tzinfo is None) != (true.tzinfo is None):
        pred, true = pred.replace(tzinfo=None), true.replace(tzinfo=None)
    return abs((pred - true).total_seconds()) <= TIME_TOLERANCE_SECONDS


# --- broken paragraphs -----------------------------------------------------------------------------------

#: truth paragraphs shorter than this (characters, whitespace removed) are not checked: too little to anchor
BROKEN_MIN_PARAGRAPH = 8
#: the kept start of a broken paragraph must be at least this long, so that a chance match is not taken
#: for the paragraph's start
BROKEN_MIN_START = 3
#: a broken paragraph lost at most this many separate pieces and at most this share of its characters:
#: more is a different text that happens to align character by character (a scatter), not words cut out
BROKEN_MAX_CUTS = 8
BROKEN_MAX_CUT_SHARE = 0.5
#: citation markers ("[6]", "[12]") a reader-facing extraction may drop: not words
_CITATION_RE = re.compile(r"\[\d{1,3}\]")


def _fold(text: str) -> str:
    """The form paragraphs are compared in: NFKC (full-width forms folded), citation markers and
    whitespace removed."""
    return squeeze(_CITATION_RE.sub("", unicodedata.normalize("NFKC", text)))


def _longest_prefix_in(p: str, haystack: str) -> int:
    """Length of the longest prefix of ``p`` that occurs in ``haystack`` (binary search: a prefix of an
    occurring string occurs)."""
    lo, hi = 0, len(p)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if p[:mid] in haystack:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _cut_from(rest: str, kept: str) -> list[str] | None:
    """If ``kept`` is ``rest`` with characters cut out and the same last character, the pieces cut (greedy
    alignment); else None."""
    if not kept or len(kept) >= len(rest) or kept[-1] != rest[-1]:
        return None
    pieces: list[str] = []
    i, open_piece = 0, False
    for ch in rest:
        if i < len(kept) and ch == kept[i]:
            i, open_piece = i + 1, False
        elif open_piece:
            pieces[-1] += ch
        else:
            pieces.append(ch)
            open_piece = True
    return pieces if i == len(kept) else None


def is_broken(paragraph: str, extracted_lines: Sequence[str]) -> bool:
    """Whether a truth paragraph lost words from its middle in the extraction.

    Compared on folded text (``_fold``). A paragraph is *broken* when it does not occur whole in the
    extraction, but one extracted line holds its start (the longest prefix that occurs, at least
    ``BROKEN_MIN_START`` characters) followed, up to the end of that line, by a remainder that is the rest
    of the paragraph with characters cut out, ends as the paragraph ends, and lost at least one letter or
    digit (not only punctuation a normaliser may drop), in at most ``BROKEN_MAX_CUTS`` pieces and at most
    ``BROKEN_MAX_CUT_SHARE`` of the paragraph. A paragraph cut short, split over lines, or missing
    altogether is not broken: those are recall, which token F1 already sees.

    >>> truth = "据报道，包括先锋领航、摩根大通等机构均已减持。"
    >>> is_broken(truth, ["据报道，包括先锋领航、等机构均已减持。"])
    True
    >>> is_broken(truth, ["据报道，包括先锋领航、"])
    False
    """
    p = _fold(paragraph)
    if len(p) < BROKEN_MIN_PARAGRAPH:
        return False
    lines = [_fold(x) for x in extracted_lines]
    joined = "".join(lines)
    if p in joined:
        return False
    text = "\n".join(lines)  # the separator keeps matches inside one line
    start = _longest_prefix_in(p, text)
    if start < BROKEN_MIN_START:
        return False
    head = p[:start]
    pos = text.find(head)
    while pos >= 0:
        end = text.find("\n", pos)
        kept = text[pos + start : end if end >= 0 else len(text)]
        cut = _cut_from(p[start:], kept)
        if (
            cut is not None
            and len(cut) <= BROKEN_MAX_CUTS
            and sum(map(len, cut)) <= BROKEN_MAX_CUT_SHARE * len(p)
            and any(ch.isalnum() for piece in cut for ch in piece)
        ):
            return True
        pos = text.find(head, pos + 1)
    return False


def broken_paragraphs(predicted: str, truth: str) -> int:
    """How many paragraphs (lines) of ``truth`` are broken in ``predicted`` (see ``is_broken``).

    >>> broken_paragraphs("Shares of rose 3% on Monday.\\nMore.", "Shares of Apple Inc. rose 3% on Monday.")
    1
    """
    lines = [x for x in (predicted or "").splitlines() if x.strip()]
    if not lines:
        return 0
    return sum(1 for para in (truth or "").splitlines() if is_broken(para, lines))
