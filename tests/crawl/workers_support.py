"""Task functions for the worker-pool tests (module level: worker processes import them by name)."""

from __future__ import annotations

import os
import signal
import time


def echo(value: object) -> tuple[int, object]:
    """The worker's pid and the value."""
    return os.getpid(), value


def misbehave(what: str) -> int:
    """Crash the worker, hang it, raise, take 50 ms ("nap-..."), or answer its pid, as ``what`` says."""
    if what == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if what == "exit":
        os._exit(3)
    if what == "hang":
        time.sleep(3600)
    if what == "raise":
        raise ValueError("bad page")
    if what.startswith("nap-"):  # a page that takes a while: a worker busy on it leaves the next to another
        time.sleep(0.05)
    return os.getpid()


def sigint_handler(_: object) -> str:
    return "ignored" if signal.getsignal(signal.SIGINT) == signal.SIG_IGN else "handled"


def loaded(module: str) -> bool:
    """Whether the worker had ``module`` loaded when it took this task."""
    import sys

    return module in sys.modules


def warm_state(_: object) -> tuple[bool, bool]:
    """Whether the worker took this task with a pattern the library compiles on a page's first use
    compiled (the fork server extracted its sample pages), and with objects frozen out of the garbage
    collector's reach (``gc.freeze`` in the fork server)."""
    import gc

    from newscrawl.extract.metadata import author

    compiled = set(vars(author._BY)) - {"pattern", "_flags"}  # what lazyre keeps once compiled
    return bool(compiled), gc.get_freeze_count() > 0


class Ahead:
    """A lookahead (newscrawl.crawl.workers.Lookahead) over ``payloads``, or over those at a position
    ``share`` modulo ``shares`` (:meth:`split`): each answer kept is the worker's answer to its payload,
    marked ``ahead``."""

    def __init__(self, *payloads: str, mark: str | None = None, share: int = 0, shares: int = 1) -> None:
        self.every = payloads
        self.payloads = [p for n, p in enumerate(payloads) if n % shares == share]
        self.share, self.shares = share, shares
        self.kept: dict[str, tuple[bool, object]] = {}
        self.taken = 0
        self.mark = mark  # a file with a line "pid payload" added when the worker takes a payload ahead

    def next(self) -> str | None:
        if not self.payloads:
            return None
        payload = self.payloads.pop(0)
        if self.mark is not None:
            with open(self.mark, "a") as f:
                f.write(f"{os.getpid()} {payload}\n")
        return payload

    def keep(self, payload: str, answer: tuple[bool, object]) -> None:
        self.kept[payload] = (answer[0], ("ahead", answer[1]))

    def take(self, payload: str) -> tuple[bool, object] | None:
        kept = self.kept.pop(payload, None)
        self.taken += kept is not None
        return kept

    def counts(self) -> tuple[int, int]:
        return self.taken, len(self.kept) + self.taken

    def split(self, count: int) -> list[Ahead]:
        return [Ahead(*self.every, mark=self.mark, share=n, shares=count) for n in range(count)]

    def owner(self, payload: str) -> int | None:
        return self.every.index(payload) % self.shares if payload in self.every else None
