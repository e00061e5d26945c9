"""The layout tells the truth about the architecture (issue 16, item 3): only Scrapy's conventional
modules sit at the top of ``newscrawl/``, everything else is in a package named for what it holds, and no
two modules import each other, even through others, at import time."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "newscrawl"
#: what a Scrapy user looks for at the top of a project's package
SCRAPY_CONVENTIONS = {"__init__.py", "settings.py", "items.py", "middlewares.py"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_time_imports(path: Path, known: set[str]) -> set[str]:
    """The newscrawl modules ``path`` imports when it is imported: top-level statements only (not inside
    functions, not under ``if TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        else:
            continue
        out |= {n for n in names if n in known}
    return out


def test_only_scrapy_conventions_sit_at_the_top_of_the_package():
    loose = {p.name for p in PACKAGE.glob("*.py")} - SCRAPY_CONVENTIONS
    assert loose == set()
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert {"extract", "spiders", "pipelines", "cli", "crawl", "storage"} <= packages


def test_no_import_cycle():
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {name: import_time_imports(path, set(modules)) - {name} for name, path in modules.items()}
    # a package's __init__ importing its own submodules is how a package exports; not a cycle
    cycles = []
    state: dict[str, int] = {}

    def visit(name: str, stack: list[str]) -> None:
        state[name] = 1
        for dep in sorted(graph[name]):
            if state.get(dep) == 1:
                cycle = stack[stack.index(dep):] + [dep]
                pairs = zip(cycle, cycle[1:], strict=False)
                if not all(a.startswith(b + ".") or b.startswith(a + ".") for a, b in pairs):
                    cycles.append(" -> ".join(cycle))
            elif dep not in state:
                visit(dep, [*stack, dep])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []
