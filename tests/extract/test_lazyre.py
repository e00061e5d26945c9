"""Patterns compiled on first use behave as the ``re.compile`` patterns they stand for."""

import importlib
import pkgutil
import re

import pytest

import newscrawl.extract
from newscrawl.extract.lazyre import _LazyPattern, lazy_compile

HAN = r"(?P<han>[\u3400-\u9fff]+)"
TEXT = "北京 Beijing 上海, Shanghai"


def test_nothing_is_compiled_before_first_use():
    pattern = lazy_compile(HAN, re.IGNORECASE)
    assert pattern.pattern == HAN
    assert "search" not in vars(pattern)  # reading the source text does not compile
    assert pattern.search(TEXT)
    assert "search" in vars(pattern)  # the compiled pattern's method, kept for the next call


def test_every_method_answers_as_the_compiled_pattern():
    lazy, real = lazy_compile(HAN), re.compile(HAN)
    assert lazy.findall(TEXT) == real.findall(TEXT) == ["北京", "上海"]
    assert [m.span() for m in lazy.finditer(TEXT)] == [m.span() for m in real.finditer(TEXT)]
    assert lazy.sub("X", TEXT) == real.sub("X", TEXT) == "X Beijing X, Shanghai"
    assert lazy.split(TEXT) == real.split(TEXT)
    assert lazy.match(TEXT).group("han") == "北京"
    assert lazy.fullmatch(TEXT) is None
    assert lazy.search(TEXT, 2).start() == real.search(TEXT, 2).start() == 11
    assert (lazy.groups, lazy.groupindex, lazy.flags) == (real.groups, real.groupindex, real.flags)


def test_flags_and_bytes_patterns():
    assert lazy_compile(r"beijing", re.I).search(TEXT).group() == "Beijing"
    assert lazy_compile(r"beijing").search(TEXT) is None
    charset = lazy_compile(rb"charset=([\w-]+)", re.IGNORECASE)
    assert charset.search(b'<meta CHARSET=gbk>').group(1) == b"gbk"


def test_a_bad_pattern_raises_when_first_used():
    pattern = lazy_compile(r"(unclosed")
    with pytest.raises(re.error, match="missing \\)"):
        pattern.search("x")


def _library_patterns():
    """Every lazily compiled pattern a module of the extraction library holds, alone or in a tuple."""
    for info in pkgutil.walk_packages(newscrawl.extract.__path__, "newscrawl.extract."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            for item in value if isinstance(value, tuple) else (value,):
                if isinstance(item, _LazyPattern):
                    yield f"{info.name}.{name}", item


def test_every_pattern_of_the_library_compiles():
    # compiled on first use, a broken pattern would otherwise surface only on the page that reaches it
    found = dict(_library_patterns())
    assert len(found) > 100  # the metadata chains alone hold more
    for name, pattern in found.items():
        try:
            pattern.search(pattern.pattern[:0])  # the first use compiles it
        except re.error as e:
            raise AssertionError(f"{name}: {e}") from e
