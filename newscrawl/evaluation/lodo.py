"""Leave one dataset out: would a tuned value still be chosen, and still score, without each dataset?

``newscrawl eval --tune auto:decay=0.6,0.7,0.75,0.8`` runs the algorithm once per value (other parameters
at their defaults) beside the normal runs. For each dataset *D*, the value is chosen twice: on every
dataset, and on every dataset but *D* (highest mean of the datasets' main figure, each dataset weighing
the same); the report gives *D*'s figure under both choices and the drop, and the worst drop over the
datasets. A drop of 0 everywhere means no dataset decided the value alone. A rule is checked the same way
when it has a parameter that turns it off (``--tune auto:some_rule=true,false``).

Main figure of a dataset: token F1 of the body (``cjk_f1``: CJK-aware) where the truth has text, else the
F1 of trafilatura's snippets; a dataset with neither is left out.

>>> parse_tune("decay=0.7,0.75")
Tuning(algorithm='auto', param='decay', values=(0.7, 0.75))
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from newscrawl.evaluation.runner import Extractor, Run

#: the figure each dataset is judged by, in order of preference
MAIN_FIGURES = ("cjk_f1", "snippet_f1")


@dataclass(frozen=True, slots=True)
class Tuning:
    """One parameter of one algorithm and the values to try."""

    algorithm: str
    param: str
    values: tuple[Any, ...]

    def name(self, value: Any) -> str:
        """The run name of one value: ``auto[decay=0.7]``."""
        return f"{self.algorithm}[{self.param}={value!r}]"


def _value(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        low = text.lower()
        return {"true": True, "false": False}.get(low, text)


def parse_tune(spec: str, default_algorithm: str = "auto") -> Tuning:
    """``[ALGORITHM:]PARAM=V1,V2,...``; values read as Python literals (``true``/``false`` too)."""
    head, sep, tail = spec.partition("=")
    algorithm, _, param = head.rpartition(":")
    values = tuple(_value(v.strip()) for v in tail.split(",") if v.strip())
    if not sep or not param.strip() or len(values) < 2:
        raise ValueError(f"--tune expects [ALGORITHM:]PARAM=V1,V2,... with two values or more, got {spec!r}")
    return Tuning(algorithm.strip() or default_algorithm, param.strip(), values)


def variant_runners(tuning: Tuning, extract: Extractor) -> dict[str, Extractor]:
    """One extractor per value, each ``extract`` with that parameter set (checked now: a bad parameter
    raises ValueError before any page is read)."""
    from newscrawl.extract.algorithms import REGISTRY

    algo = REGISTRY.get(tuning.algorithm)
    if algo is None:
        raise ValueError(f"--tune: unknown algorithm {tuning.algorithm!r}")
    runners: dict[str, Extractor] = {}
    for value in tuning.values:
        algo.make_params({tuning.param: value})

        def run(page: bytes, url: str | None = None, algorithm: str = "", *, _v: Any = value) -> Any:
            return extract(page, url=url, algorithm=tuning.algorithm, **{tuning.param: _v})

        runners[tuning.name(value)] = run
    return runners


def main_figure(summary: Mapping[str, Any]) -> tuple[str, float] | None:
    """The figure a dataset is judged by (``MAIN_FIGURES``), or None."""
    for key in MAIN_FIGURES:
        if key in summary:
            return key, float(summary[key])
    return None


@dataclass(frozen=True, slots=True)
class HeldOut:
    """One dataset left out: the value chosen with and without it, and its figure under each."""

    dataset: str
    figure: str
    chosen_with: Any
    chosen_without: Any
    score_with: float
    score_without: float

    @property
    def drop(self) -> float:
        return self.score_with - self.score_without


def _choose(values: Sequence[Any], scores: Mapping[Any, Mapping[str, float]], datasets: Sequence[str]) -> Any:
    """The value with the highest mean figure over ``datasets`` (the first listed on a tie)."""
    return max(values, key=lambda v: (fmean(scores[v][d] for d in datasets), -values.index(v)))


def leave_one_out(runs: Sequence[Run], tuning: Tuning) -> list[HeldOut]:
    """Hold each dataset out in turn (datasets whose runs have a main figure for every value)."""
    scores: dict[Any, dict[str, float]] = {v: {} for v in tuning.values}
    figures: dict[str, str] = {}
    for run in runs:
        if run.part_of is not None:
            continue
        found = main_figure(run.summary)
        for v in tuning.values:
            if run.algorithm == tuning.name(v) and found is not None:
                figures[run.dataset] = found[0]
                scores[v][run.dataset] = found[1]
    datasets = [d for d in figures if all(d in scores[v] for v in tuning.values)]
    if len(datasets) < 2:
        return []
    values = list(tuning.values)
    best = _choose(values, scores, datasets)
    out = []
    for d in datasets:
        without = _choose(values, scores, [x for x in datasets if x != d])
        out.append(HeldOut(d, figures[d], best, without, scores[best][d], scores[without][d]))
    return out


def lodo_markdown(tuning: Tuning, rows: Sequence[HeldOut]) -> str:
    """The held-out table of one tuning and its worst drop, as Markdown."""
    title = f"### `{tuning.algorithm}` `{tuning.param}` over {', '.join(map(repr, tuning.values))}\n\n"
    if not rows:
        return title + "Fewer than two datasets with a main figure: nothing to hold out.\n"
    lines = [
        "| held out | figure | chosen on all | chosen without it | figure (all) | figure (without) | drop |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.dataset} | {r.figure} | {r.chosen_with!r} | {r.chosen_without!r} | {r.score_with:.3f} "
            f"| {r.score_without:.3f} | {r.drop:.3f} |"
        )
    worst = max(rows, key=lambda r: r.drop)
    summary = (
        f"Worst drop: {worst.drop:.3f} on {worst.dataset}."
        if worst.drop > 0
        else "Worst drop: 0 (every dataset left out still chooses a value as good on it)."
    )
    return title + "\n".join(lines) + f"\n\n{summary}\n"


LODO_NOTES = """\
Each tuned parameter was run at every listed value. For each dataset in turn, the value is chosen on all
datasets and again without that dataset (highest mean main figure, each dataset weighing the same: token
F1 of the body where the truth has text, else snippet F1); the drop is the held-out dataset's figure under
the first choice minus under the second. `newscrawl eval ... --tune [ALGORITHM:]PARAM=V1,V2,...` makes
these tables.
"""


def lodo_section(tunings: Sequence[Tuning], runs: Sequence[Run]) -> str:
    """The report section of every tuning (empty string when there is none)."""
    if not tunings:
        return ""
    parts = [lodo_markdown(t, leave_one_out(runs, t)) for t in tunings]
    return "## Leave one dataset out\n\n" + LODO_NOTES + "\n" + "\n".join(parts)
