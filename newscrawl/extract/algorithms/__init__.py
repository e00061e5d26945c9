"""Body-extraction algorithms, one module per source document, registered by name."""

from newscrawl.extract.algorithms import auto, blockstats, cetd, linedensity, nodeweight, samedepth, scedd  # noqa: F401  (modules register themselves)
from newscrawl.extract.algorithms.base import REGISTRY, Algorithm

__all__ = ["REGISTRY", "Algorithm"]
