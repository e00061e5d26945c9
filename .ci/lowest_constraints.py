"""Print a pip constraints file pinning every dependency of pyproject.toml (and the extras named on the
command line) to the lowest version it allows: ``name>=X`` becomes ``name==X``."""

import re
import sys
import tomllib
from pathlib import Path

project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]
requirements = list(project["dependencies"])
for extra in sys.argv[1:]:
    requirements += project["optional-dependencies"][extra]
pins = {}
for requirement in requirements:
    match = re.match(r"^\s*([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*[^;]*?>=\s*([0-9][0-9A-Za-z.]*)", requirement)
    if match is None:
        sys.exit(f"no lower bound in {requirement!r}: give every dependency a floor")
    pins[match.group(1).lower()] = match.group(2)
print("\n".join(f"{name}=={version}" for name, version in sorted(pins.items())))
