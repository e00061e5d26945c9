"""Sinks: where records go. Every sink has the small :class:`~newscrawl.storage.base.Sink` interface."""

from newscrawl.storage.base import RECORD_FIELDS, Sink
from newscrawl.storage.sqlite import SqliteSink

__all__ = ["RECORD_FIELDS", "Sink", "SqliteSink"]
