"""Crawl machinery: site files, start-up checks, the demo portal, JOBDIR resume, the Redis frontier."""
