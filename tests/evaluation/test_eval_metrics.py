"""Metrics on tiny hand-written strings; expected values worked out by hand in the comments."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.evaluation import metrics as m

# --- ScrapingHub F1 ---


def test_shingles_are_token_4grams_normalised_by_their_sum():
    # pred shingles (a b c d), (b c d e); truth (a b c d): tp 1, fp 1, fn 0 -> / 2
    assert m.shingle_counts("a b c d e", "a b c d") == m.ShingleCounts(0.5, 0.5, 0.0, False)


def test_fewer_than_four_tokens_make_one_short_shingle():
    assert m.shingle_counts("a b", "a b") == m.ShingleCounts(1.0, 0.0, 0.0, True)
    assert m.shingle_counts("a b", "a c") == m.ShingleCounts(0.0, 0.5, 0.5, False)


def test_repeated_shingles_count_as_a_multiset():
    # "x x x x x" has (x x x x) twice; the truth once: tp 1, fp 1
    assert m.shingle_counts("x x x x x", "x x x x") == m.ShingleCounts(0.5, 0.5, 0.0, False)


def test_tokens_keep_case_and_an_unspaced_chinese_run_is_one_token():
    assert m.shingle_counts("A b c d", "a b c d").tp == 0.0
    assert m.sh_tokens("今天天气很好, ok") == ["今天天气很好", "ok"]


def test_exact_compares_token_sequences_not_punctuation():
    assert m.shingle_counts("Hello, world!", "Hello world").exact
    assert not m.shingle_counts("Hello world", "world Hello").exact


def test_empty_prediction_counts_in_recall_but_not_in_precision():
    pages = [m.shingle_counts("a b c d e", "a b c d"), m.shingle_counts("", "a b c d")]
    assert pages[1] == m.ShingleCounts(0.0, 0.0, 1.0, False)
    prf = m.aggregate_shingles(pages)
    # precision: only page 1, 0.5 / (0.5 + 0.5); recall: mean(1.0, 0.0)
    assert prf.precision == pytest.approx(0.5)
    assert prf.recall == pytest.approx(0.5)
    assert prf.f1 == pytest.approx(0.5)
    assert prf.accuracy == 0.0


def test_f1_is_taken_of_the_macro_means():
    pages = [m.ShingleCounts(1.0, 0.0, 0.0, True), m.ShingleCounts(0.25, 0.0, 0.75, False)]
    prf = m.aggregate_shingles(pages)
    # P = mean(1, 1) = 1; R = mean(1, 0.25) = 0.625; F1 = 2 * 0.625 / 1.625
    assert prf.precision == 1.0
    assert prf.recall == pytest.approx(0.625)
    assert prf.f1 == pytest.approx(1.25 / 1.625)
    assert prf.accuracy == 0.5


# --- CJK token F1 ---


def test_cjk_tokens_split_ideographs_and_lowercase_other_words():
    assert m.cjk_tokens("Ab中文cd 2024年") == ["ab", "中", "文", "cd", "2024", "年"]


def test_cjk_token_prf_is_a_bag_overlap():
    # pred 新 闻 广 告, truth 新 闻: common 2 -> P 2/4, R 2/2
    assert m.cjk_token_prf("新闻 广告", "新闻") == m.TokenPRF(0.5, 1.0, pytest.approx(2 / 3))


def test_cjk_repeated_tokens_count_once_per_occurrence():
    # pred 好 x3, truth 好 x1: common 1 -> P 1/3, R 1, F1 = (2/3) / (4/3)
    got = m.cjk_token_prf("好好好", "好")
    assert (got.precision, got.recall, got.f1) == (pytest.approx(1 / 3), 1.0, pytest.approx(0.5))


def test_cjk_empty_prediction_scores_zero_and_both_empty_one():
    assert m.cjk_token_prf("", "新闻") == m.TokenPRF(0.0, 0.0, 0.0)
    assert m.cjk_token_prf("广告", "") == m.TokenPRF(0.0, 0.0, 0.0)
    assert m.cjk_token_prf(" ", "") == m.TokenPRF(1.0, 1.0, 1.0)


def test_cjk_aggregate_averages_pages():
    prf = m.aggregate_token_prf([m.TokenPRF(1.0, 1.0, 1.0), m.TokenPRF(0.5, 0.0, 0.0)])
    assert (prf.precision, prf.recall, prf.f1, prf.accuracy) == (0.75, 0.5, 0.5, 0.5)


# --- LCS ---


def _lcs_table(a: str, b: str) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def test_lcs_length_of_a_textbook_pair():
    assert m.lcs_length("ABCBDAB", "BDCABA") == 4


def test_lcs_length_with_an_empty_string_is_zero():
    assert m.lcs_length("", "abc") == m.lcs_length("abc", "") == 0


@given(st.text(alphabet="abc新闻", max_size=25), st.text(alphabet="abcd新", max_size=25))
def test_lcs_length_agrees_with_the_dp_table(a, b):
    assert m.lcs_length(a, b) == _lcs_table(a, b)


def test_lcs_length_of_long_strings():
    # "abab..." vs "baba...": drop the first "b" of the second and the rest is a prefix of the first
    assert m.lcs_length("ab" * 6000, "ba" * 6000) == 11999


def test_lcs_error_is_the_share_of_extracted_characters_outside_the_lcs():
    got = m.lcs_error("正文正文广告", "正文正文")  # LCS 4 of 6 extracted
    assert got.error == pytest.approx(1 / 3)
    assert not got.correct


def test_lcs_error_of_exactly_one_fifth_is_correct_and_whitespace_is_ignored():
    got = m.lcs_error("正文 正文\n告", "正 文正文")  # 5 characters, LCS 4
    assert got.error == pytest.approx(0.2)
    assert got.correct


def test_lcs_error_of_an_empty_extraction_is_wrong():
    assert m.lcs_error("  ", "正文") == m.LcsScore(1.0, False)


# --- qualified / excellent ---

TRUTH = "正文" * 50  # 100 characters


def test_two_percent_noise_is_excellent():
    assert m.coverage(TRUTH + "广告", TRUTH) == m.Coverage(1.0, 0.02, True, True)


def test_five_percent_noise_is_qualified_not_excellent():
    got = m.coverage("广告广告广" + TRUTH, TRUTH)
    assert (got.noise, got.qualified, got.excellent) == (0.05, True, False)


def test_six_percent_noise_is_not_qualified():
    assert not m.coverage("广告广告广告" + TRUTH, TRUTH).qualified


def test_missing_two_percent_of_the_truth_does_not_cover_it():
    got = m.coverage(TRUTH[:98], TRUTH)
    assert (got.covered, got.noise, got.qualified) == (0.98, 0.0, False)


def test_missing_one_percent_still_covers_it():
    assert m.coverage(TRUTH[:99], TRUTH).excellent


def test_lcs_scores_gives_both_measures():
    err, cov = m.lcs_scores(TRUTH + "广告", TRUTH)
    assert err.correct and cov.excellent


# --- trafilatura snippets ---


def test_snippets_are_whitespace_normalised_substrings():
    got = m.snippet_counts("Main text here.\nMore", ["Main  text", "absent"], ["More", "menu"])
    assert got == m.SnippetCounts(tp=1, fp=1, fn=1, tn=1)


def test_no_extraction_misses_every_with_and_avoids_every_without():
    assert m.snippet_counts(None, ["a", "b"], ["c"]) == m.SnippetCounts(0, 0, 2, 1)


def test_snippets_aggregate_over_segments():
    prf = m.aggregate_snippets([m.SnippetCounts(2, 0, 1, 3), m.SnippetCounts(0, 1, 2, 1)])
    # tp 2, fp 1, fn 3, tn 4: P 2/3, R 2/5, F1 1/2, accuracy 6/10
    assert prf.precision == pytest.approx(2 / 3)
    assert prf.recall == pytest.approx(0.4)
    assert prf.f1 == pytest.approx(0.5)
    assert prf.accuracy == pytest.approx(0.6)


# --- title and date ---


def test_title_matches_after_whitespace_normalisation_only():
    assert m.title_match(" 标题\n 二 ", "标题 二")
    assert not m.title_match("Title", "title")
    assert not m.title_match(None, "标题")


def test_title_match_ignores_quote_typography_and_invisible_characters():
    assert m.title_match("Mexico’s economy grew", "Mexico's economy grew")
    assert m.title_match("„Wir bleiben“, sagt sie", '"Wir bleiben", sagt sie')
    assert m.title_match("Helikopter\xadlandeplatz geplant", "Helikopterlandeplatz geplant\u200b")
    assert not m.title_match("Mexico’s economy grew", "Mexico's economy shrank")
    assert not m.title_match("« Non » dit-il", '"Non" dit-il')  # guillemets are not respelled


def test_title_match_reads_dashes_and_ellipses_as_one():
    assert m.title_match("Budget passed – schools win", "Budget passed - schools win")
    assert m.title_match("Great things—if it works", "Great things-if it works")
    assert m.title_match("Alles hat seine Zeit…", "Alles hat seine Zeit...")
    assert m.title_match("Who is she and what does she do?", "Who is she and what does she do?...")
    assert not m.title_match("Who is she…", "Who is she and what does she do?")  # a cut title stays cut
    assert not m.title_match("Budget passed – schools win", "Budget passed schools win")


def test_title_case_aside_ignores_letter_case_only():
    assert m.title_match_case_aside("Levelpässe sind bestellbar", "LEVELPÄSSE SIND BESTELLBAR")
    assert m.title_match_case_aside("Mexico’s economy grew", "MEXICO'S ECONOMY GREW")
    assert not m.title_match_case_aside("Mexico’s economy grew", "MEXICO'S ECONOMY SHRANK")
    assert not m.title_match_case_aside(None, "TITLE")


def test_date_compares_the_calendar_day_as_written():
    assert m.date_match("2005-05-07T08:00:00+08:00", "2005-05-07T21:23:57")
    assert not m.date_match("2005-05-08T00:30:00+08:00", "2005-05-07")


def test_date_missing_or_unreadable_prediction_is_wrong():
    assert not m.date_match(None, "2005-05-07")
    assert not m.date_match("May 7, 2005", "2005-05-07")


def test_no_date_is_right_when_none_is_expected():
    assert m.date_match(None, None)
    assert not m.date_match("2020-01-01", None)


def test_author_matches_the_same_names_in_any_order_and_separator():
    assert m.author_match("王建宏、张文攀", "张文攀; 王建宏")
    assert m.author_match("tim  ANDERSON", "Tim Anderson")


def test_author_differs_when_a_name_is_missing_or_none_given():
    assert not m.author_match("王建宏", "王建宏、张文攀")
    assert not m.author_match(None, "王建宏")


def test_author_names_are_compared_softly_as_grobid_does():
    # case and punctuation aside (GROBID's "soft matching"), word boundaries kept
    assert m.author_match("Rodolfo Costa", "Rodolfo Costa.")
    assert m.author_match("JR Stone", "J.R. Stone")
    assert m.author_match("Marwan H Adwan", "Marwan H. Adwan")
    assert m.author_match("MORITZ  PAPPERT", "Moritz Pappert")
    # a login is not the name it stands for
    assert not m.author_match("arianexample", "Arian Example")
    assert not m.author_match("robert.example", "Robert Example")
    # letters count: accents, a missing word, an added outlet or staff code
    assert not m.author_match("Jorg Muller", "Jörg Müller")
    assert not m.author_match("Perry Bacon", "Perry Bacon Jr.")
    assert not m.author_match("Jane Doe, Reuters", "Jane Doe")
    assert not m.author_match("Jane Doe (obe)", "Jane Doe")


def test_author_lists_split_at_the_metric_own_separators():
    assert m.split_author_names("Isabel Caro, Rocío Latorre y José Miguel Wilson") == [
        "Isabel Caro",
        "Rocío Latorre",
        "José Miguel Wilson",
    ]
    assert m.split_author_names("伊琳  李清芬") == ["伊琳", "李清芬"]
    assert m.split_author_names("记者 张三") == ["记者", "张三"]  # a label left in is a wrong name
    assert m.author_match(["Daniel Braun", "Davor Pasoski"], "Daniel Braun, Davor Pasoski")


def test_author_metric_does_not_use_the_extractor_splitting(monkeypatch):
    # a splitting bug of the extractor must not be scored as right: the metric splits on its own
    from newscrawl.extract.metadata import author as author_module

    monkeypatch.setattr(author_module, "split_names", lambda value: (value,) if value else ())
    assert m.author_match("王建宏、张文攀", "张文攀; 王建宏")
    assert m.author_names("Jane Doe and John Roe") == {"jane doe", "john roe"}


# --- broken paragraphs: words cut out of a kept paragraph ---

BROKEN_ZH = "据报道，包括先锋领航、摩根大通等机构均已减持。"


@pytest.mark.parametrize(
    "extracted",
    [
        "据报道，包括先锋领航、等机构均已减持。",  # <b><a>摩根大通</a></b> pruned
        "导语一行\n据报道，包括先锋领航、等机构均已减持。\n下一段",  # other lines around
        "据报道，包括、等机构均已减持。",  # two names cut
        "据报道, 包括先锋领航、等机构均已减持。",  # full-width punctuation folded
    ],
)
def test_a_paragraph_that_lost_words_from_its_middle_is_broken(extracted):
    assert m.is_broken(BROKEN_ZH, extracted.splitlines())


@pytest.mark.parametrize(
    "extracted",
    [
        BROKEN_ZH,  # whole
        "据报道，包括先锋领航、摩根大通等机构\n均已减持。",  # split over two lines, nothing lost
        "据报道，包括先锋领航、摩根大通等机构",  # cut short: recall, not a broken sentence
        "另一篇文章的一段话，与此无关。",  # missing altogether
        "据报道，包括先锋领航、摩根大通（美国）等机构均已减持。",  # more text, none lost
        "据报道包括先锋领航摩根大通等机构均已减持",  # only punctuation differs
    ],
)
def test_a_paragraph_kept_whole_cut_short_or_missing_is_not_broken(extracted):
    assert not m.is_broken(BROKEN_ZH, extracted.splitlines())


def test_an_english_link_cut_from_a_sentence_is_broken_but_citation_markers_are_not_words():
    truth = "Shares of Apple Inc. rose 3% on Monday after the report[2] was published."
    assert m.is_broken(truth, ["Shares of rose 3% on Monday after the report was published."])
    assert not m.is_broken(truth, ["Shares of Apple Inc. rose 3% on Monday after the report was published."])


def test_a_different_text_that_only_aligns_letter_by_letter_is_not_broken():
    truth = "Sudan: " + "the war has stopped in the capital but the universities are still closed. " * 8
    # starts like the paragraph, then another text whose letters happen to appear in order in it
    assert not m.is_broken(truth, ["Sudan and Myanmar have had to relocate."])


def test_broken_paragraphs_counts_each_truth_line_once():
    truth = f"{BROKEN_ZH}\n第二段文字完整保留下来了，没有任何问题。\n{BROKEN_ZH}"
    extracted = "据报道，包括先锋领航、等机构均已减持。\n第二段文字完整保留下来了，没有任何问题。"
    assert m.broken_paragraphs(extracted, truth) == 2
    assert m.broken_paragraphs("", truth) == 0


# --- time of day, author lists ---


@pytest.mark.parametrize(
    ("predicted", "truth", "ok"),
    [
        ("2024-09-03T12:30:00+08:00", "2024-09-03 04:03:19+00:00", True),  # same instant within the hour
        ("2024-09-03T04:03:19+08:00", "2024-09-03 04:03:19+00:00", False),  # an invented zone: 8 h off
        ("2024-09-03T04:03:19", "2024-09-03 04:50:00+02:00", True),  # no offset: wall clocks compared
        ("2024-09-03", "2024-09-03 04:03:19+00:00", False),  # a date alone has no time
        (None, "2024-09-03 04:03:19+00:00", False),
    ],
)
def test_time_within_an_hour(predicted, truth, ok):
    assert m.time_match(predicted, truth) is ok


def test_midnight_in_the_truth_is_a_date_alone():
    assert m.has_time("2024-04-24 22:58:49") and m.has_time("2024-09-03T04:03:19Z")
    assert not m.has_time("2025-11-03 00:00:00+00:00") and not m.has_time("2024-09-03")


def test_author_lists_keep_a_name_with_a_comma_whole():
    assert m.author_match(["AFP, MANILA"], ["AFP, MANILA"])
    assert not m.author_match(["AFP"], ["AFP, MANILA"])
    assert m.author_match("Birgit Baumann, Anna Fink", ["Anna Fink", "Birgit Baumann"])
    assert not m.author_match([], ["Anna Fink"])
