import pytest

from newscrawl.bench.extract import FLOOR, Timing, bench, bench_table


def test_bench_times_the_floor_and_each_algorithm_on_every_page():
    calls = []
    timings = bench([b"<p>a</p>", b"<p>b</p>"], ["cetd", "auto"], repeat=2,
                    extract=lambda page, algorithm: calls.append((page, algorithm)))
    assert [t.name for t in timings] == [FLOOR, "cetd", "auto"]
    assert all(len(t.ms) == 2 for t in timings)
    # interleaved page by page, each repeated
    assert calls[:4] == [(b"<p>a</p>", "cetd")] * 2 + [(b"<p>a</p>", "auto")] * 2


def test_the_given_clock_times_every_call():
    ticks = iter(range(0, 1000, 2))  # each reading of the clock 2 "seconds" after the last

    def clock() -> float:
        return float(next(ticks))

    timings = bench([b"<p>a</p>"], ["auto"], extract=lambda page, algorithm: None, clock=clock)
    assert [t.ms for t in timings] == [(2000.0,), (2000.0,)]


def test_throughput_figures_follow_from_the_times():
    t = Timing("x", (2.0, 4.0, 10.0))
    assert (t.median_ms, t.pages_per_s, t.total_pages_per_s) == (4.0, 250.0, 187.5)


def test_table_gives_the_ratio_to_the_floor():
    md = bench_table([Timing(FLOOR, (1.0,)), Timing("auto", (4.0,))])
    assert "| auto | 1 | 4.00 | 250 | 250 | 4.00 |" in md


def test_repeat_below_one_is_refused():
    with pytest.raises(ValueError, match="repeat"):
        bench([], ["auto"], repeat=0)
