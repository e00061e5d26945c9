"""Item pipelines: thin adapters from Scrapy items to the extraction library and the sinks.

Stage 1 (:class:`~newscrawl.pipelines.extraction.ExtractionPipeline`) runs the extractor once per page;
stage 2 (:class:`~newscrawl.pipelines.record.RecordPipeline`) maps and normalises the fields and drops
pages without text; :class:`~newscrawl.pipelines.storage.SqlitePipeline` writes to the default database.
"""
