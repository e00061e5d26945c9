"""newscrawl's Scrapy commands (``COMMANDS_MODULE``): ``crawl`` with one-line configuration errors."""
