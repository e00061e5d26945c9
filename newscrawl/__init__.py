"""newscrawl: a news crawler with content extraction, Chinese news portals first."""

__version__ = "0.1.0"
