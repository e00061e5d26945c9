"""Benchmarks: extraction speed, crawl throughput on a generated loopback portal, peak memory."""
