"""One home for defaults (crawl/defaults.py), validators in crawl/config.py, frozen extractor options."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.settings import BaseSettings, Settings
from scrapy.utils.test import get_crawler

import newscrawl
from newscrawl.crawl import defaults
from newscrawl.crawl.config import ConfigAddon, ConfigError, ExtractorOptions, with_defaults
from newscrawl.extract import ALGORITHMS, params_of
from newscrawl.pipelines.dedup import DuplicatePipeline
from newscrawl.pipelines.record import RecordPipeline
from newscrawl.pipelines.storage import SqlitePipeline

PACKAGE = Path(newscrawl.__file__).parent


def test_every_newscrawl_setting_the_code_reads_has_its_default_in_the_defaults_module() -> None:
    read, from_environment, elsewhere = set(), set(), set()
    for path in PACKAGE.rglob("*.py"):
        code = path.read_text(encoding="utf-8")
        read |= set(re.findall(r"\"(NEWSCRAWL_[A-Z_]+)\"", code))
        from_environment |= set(re.findall(r"environ\.get\(\"(NEWSCRAWL_[A-Z_]+)\"", code))
        elsewhere |= set(re.findall(r"(?<!environ\.get\()\"(NEWSCRAWL_[A-Z_]+)\"", code))
    read -= from_environment - elsewhere  # environment variables only (NEWSCRAWL_CACHE_DIR): no setting
    algorithm_params = {
        name for name in read if any(name.startswith(f"NEWSCRAWL_{a.upper()}_") for a in ALGORITHMS)
    }
    assert read - algorithm_params - set(defaults.DEFAULTS) == set()


def test_project_settings_do_not_repeat_the_defaults() -> None:
    project = Settings()
    project.setmodule("newscrawl.settings", priority="project")
    assert [name for name in project if str(name).startswith("NEWSCRAWL_")] == []


def test_a_crawl_opens_no_server_that_runs_code_unless_asked() -> None:
    remote_control = pytest.importorskip("scrapy.extensions.remote_control")
    project = BaseSettings()
    project.setmodule("newscrawl.settings", priority="project")
    with pytest.raises(NotConfigured):
        remote_control.RemoteControl.from_crawler(get_crawler(settings_dict=dict(project)))
    project.set("REMOTE_CONTROL_ENABLED", True, priority="cmdline")  # -s REMOTE_CONTROL_ENABLED=True
    assert remote_control.RemoteControl.from_crawler(get_crawler(settings_dict=dict(project)))
    assert project.getbool("TELNETCONSOLE_ENABLED", True) is False


def test_a_crawl_gets_the_defaults_nothing_else_set_at_default_priority(tmp_path: Path) -> None:
    settings = BaseSettings({"NEWSCRAWL_SINK_BATCH_SIZE": 7, "NEWSCRAWL_SQLITE_PATH": str(tmp_path / "s.db")})
    ConfigAddon().update_settings(settings)
    assert settings.getint("NEWSCRAWL_SINK_BATCH_SIZE") == 7
    assert settings.getint("NEWSCRAWL_MIN_TEXT_CHARS") == defaults.NEWSCRAWL_MIN_TEXT_CHARS
    assert settings.getpriority("NEWSCRAWL_MIN_TEXT_CHARS") == 0  # a site file or -s still wins


def test_with_defaults_copies_settings_that_lack_them_and_leaves_the_original_alone() -> None:
    crawler = get_crawler(settings_dict={"NEWSCRAWL_DEDUP": False})
    merged = with_defaults(crawler.settings)
    assert merged is not crawler.settings
    assert merged.getbool("NEWSCRAWL_DEDUP") is False
    assert merged.get("NEWSCRAWL_SQLITE_PATH") == defaults.NEWSCRAWL_SQLITE_PATH
    assert "NEWSCRAWL_SQLITE_PATH" not in crawler.settings
    assert with_defaults(merged) is merged


def test_components_built_without_the_project_settings_read_the_defaults(tmp_path: Path) -> None:
    crawler = get_crawler(settings_dict={"NEWSCRAWL_SQLITE_PATH": str(tmp_path / "store.sqlite3")})
    assert RecordPipeline.from_crawler(crawler).min_text_chars == defaults.NEWSCRAWL_MIN_TEXT_CHARS
    sqlite = SqlitePipeline.from_crawler(crawler)
    assert sqlite.batch_size == defaults.NEWSCRAWL_SINK_BATCH_SIZE
    dedup = DuplicatePipeline.from_crawler(crawler)
    assert dedup.index.max_distance == defaults.NEWSCRAWL_DUPLICATE_MAX_DISTANCE


def test_extractor_options_are_frozen_and_typed_from_settings() -> None:
    key = "NEWSCRAWL_AUTO_SHORT_THRESHOLD"
    default = params_of("auto")["short_threshold"]
    options = ExtractorOptions.from_settings({key: str(default * 2), "NEWSCRAWL_MAX_DEPTH": "0"})
    assert options.algorithm == "auto"
    assert options.params == {"short_threshold": default * 2}
    assert options.limits.max_depth is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.algorithm = "cetd"  # type: ignore[misc]
    with pytest.raises(TypeError):
        options.params["short_threshold"] = 1  # type: ignore[index]


def test_extractor_options_refuse_an_unknown_algorithm_naming_the_setting() -> None:
    with pytest.raises(ConfigError, match="NEWSCRAWL_ALGORITHM: unknown algorithm 'best'"):
        ExtractorOptions.from_settings({"NEWSCRAWL_ALGORITHM": "best"})


def test_config_imports_no_pipeline_module() -> None:
    code = "import sys, newscrawl.crawl.config; print(sorted(m for m in sys.modules if '.pipelines' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
