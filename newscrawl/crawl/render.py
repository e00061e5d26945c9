"""Pages fetched through a headless Chromium: the add-on that switches scrapy-playwright on for a site.

A site file's ``render = true`` (every page) or ``render = ["pattern", ...]`` (pages whose URL matches)
marks the site's requests for those pages with ``meta["playwright"] = True`` and sets
``NEWSCRAWL_RENDER`` in its spider's settings. :class:`RenderAddon` then installs scrapy-playwright's
download handler for http and https: requests so marked are loaded in a headless Chromium (scripts run,
the page's HTML after load is the response); every other request goes through Scrapy's own HTTP handler
as before. The browser is the one on the machine (Debian's ``chromium``; ``NEWSCRAWL_CHROMIUM_PATH`` to
name another); playwright's own browser downloads are never used. Without the package or a browser the
crawl stops at start-up with one line saying what to install.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from scrapy.settings import BaseSettings

from newscrawl.crawl.errors import ConfigError

#: browser executables looked for on the PATH, in order, when NEWSCRAWL_CHROMIUM_PATH is not set
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
HANDLER = "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler"


def find_chromium(configured: str | None = None) -> str:
    """The headless browser's path: ``configured`` if given (checked), else the first on the PATH."""
    if configured:
        if not Path(configured).is_file():
            raise ConfigError(f"NEWSCRAWL_CHROMIUM_PATH: no browser at {configured}")
        return configured
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise ConfigError(
        "render: this site's pages need a headless Chromium and none was found "
        "(Debian/Ubuntu: apt-get install chromium; or set NEWSCRAWL_CHROMIUM_PATH)"
    )


class RenderAddon:
    """Installs scrapy-playwright's handler when the crawl's site renders pages (``NEWSCRAWL_RENDER``)."""

    def update_settings(self, settings: BaseSettings) -> None:
        if not settings.getbool("NEWSCRAWL_RENDER"):
            return
        if importlib.util.find_spec("scrapy_playwright") is None:
            raise ConfigError(
                "render: this site's pages need scrapy-playwright: pip install 'newscrawl[render]'"
            )
        browser = find_chromium(settings.get("NEWSCRAWL_CHROMIUM_PATH"))
        handlers = settings.getdict("DOWNLOAD_HANDLERS")
        handlers.update({"http": HANDLER, "https": HANDLER})
        settings.set("DOWNLOAD_HANDLERS", handlers, priority="addon")
        settings.set("PLAYWRIGHT_BROWSER_TYPE", "chromium", priority="addon")
        options = {"headless": True, "executable_path": browser}
        options.update(settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS"))
        settings.set("PLAYWRIGHT_LAUNCH_OPTIONS", options, priority="addon")
