"""Which languages dateparser is given (newscrawl.extract.metadata.date_languages): never all of them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import datetime

import pytest

from newscrawl.extract.metadata.date_languages import MAX_LANGUAGES, dateparser_languages, vocabulary
from newscrawl.extract.metadata.dates import parse_value


def test_a_page_declaring_a_language_gives_it_with_english() -> None:
    assert dateparser_languages("7. Oktober 2020", ("de",)) == ["de", "en"]
    assert dateparser_languages("7 octobre 2020", ("en",)) == ["en"]


def test_an_unknown_declared_language_counts_as_none() -> None:
    assert dateparser_languages("xqzt 12 vvv 2020", ("xx",)) == ["en"]


def test_the_languages_holding_the_values_words_are_given() -> None:
    assert "es" in dateparser_languages("miércoles 7 de octubre de 2020", None)
    assert "ar" in dateparser_languages("الأربعاء، 07 أكتوبر 2020 - 12:09 م", None)
    assert "ru" in dateparser_languages("среда, 7 октября 2020", None)


def test_words_no_language_holds_give_english_alone() -> None:
    assert dateparser_languages("xqzt 12 vvv 2020", None) == ["en"]


def test_an_unsegmented_script_gives_the_languages_written_in_it() -> None:
    languages = dateparser_languages("2020年10月7日星期三下午", None)
    assert "zh" in languages and "ru" not in languages


def test_a_value_without_letters_gives_one_language_per_date_order() -> None:
    languages = dateparser_languages("12 03 2020", None)
    orders = {vocabulary_order(lang) for lang in languages}
    assert languages[0] == "en" and len(orders) == len(languages) >= 3


def vocabulary_order(language: str) -> str:
    from importlib import import_module

    return str(import_module(f"dateparser.data.date_translation_data.{language}").info["date_order"])


def test_words_many_languages_share_give_at_most_the_cap() -> None:
    # one-letter words are in dozens of vocabularies: all of them would load dozens of locales
    shared = [w for w, langs in vocabulary().words.items() if len(langs) > 3 * MAX_LANGUAGES]
    assert shared
    assert len(dateparser_languages(" ".join(shared[:5]) + " 12 1 2020", None)) <= MAX_LANGUAGES + 1


def test_the_vocabulary_leaves_no_data_module_loaded() -> None:
    code = textwrap.dedent(
        """
        import sys
        from newscrawl.extract.metadata.date_languages import vocabulary
        vocabulary()
        print(sum(m.startswith("dateparser.data.date_translation_data.") for m in sys.modules))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout) <= 1  # the package itself


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("الأربعاء، 07 أكتوبر 2020 - 12:09 م", datetime(2020, 10, 7, 12, 9)),
        ("miércoles 7 de octubre de 2020", datetime(2020, 10, 7)),
    ],
)
def test_dates_in_other_languages_parse_without_a_declared_language(value: str, expected: datetime) -> None:
    assert parse_value(value) == expected


def test_a_date_no_locale_reads_builds_few_locales_in_a_fresh_process() -> None:
    # without languages dateparser built all 205 locales on such a value (1.5-2.1 s of CPU, issue 14)
    code = textwrap.dedent(
        """
        from dateparser.languages.loader import LocaleDataLoader
        from newscrawl.extract.metadata.dates import parse_value
        assert parse_value("xqzt 12 vvv 2020 okt qq") is None
        assert parse_value("a b c d e f 12 1 2020") is None
        print(len(LocaleDataLoader._loaded_locales))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout) <= 2 * MAX_LANGUAGES + 1
