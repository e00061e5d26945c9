"""Measuring newscrawl: accuracy metrics, dataset loading, the ``eval`` runner and the ``bench`` timer.

Used by ``newscrawl eval`` and ``newscrawl bench``; the datasets themselves live outside the repository.
"""
