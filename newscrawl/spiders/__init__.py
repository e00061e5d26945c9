"""Spiders: one generic news spider; every site file under ``settings/sites`` becomes one (see loader)."""
