"""Build hook: the wheel carries the top-level folders newscrawl ships (site files, demo portal), and the
optional C extensions (``newscrawl.extract._cstats``, ``_cscores``, ``_csimhash``).

Everything else is declared in pyproject.toml. The folders stay at the top of the repository, where a
user looks for them; here they are copied into ``newscrawl/_shipped/<name>`` of the built package, where
``newscrawl.crawl.shipped.shipped_dir`` finds them after a plain ``pip install .``.
"""

import importlib.util
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _shipped_module():  # the mapping, read without importing the package (and its dependencies)
    spec = importlib.util.spec_from_file_location("_shipped", ROOT / "newscrawl" / "crawl" / "shipped.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithShipped(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the folders where they are
        shipped = _shipped_module()
        for name, source in shipped.FOLDERS.items():
            target = Path(self.build_lib) / "newscrawl" / shipped.PACKAGE_FOLDER / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(ROOT / source, target, ignore=shutil.ignore_patterns("__pycache__"))


def _extensions() -> list[Extension]:
    # the C pass reads lxml's element struct and libxml2's node fields with the headers lxml ships (lxml is
    # a build requirement); optional: without a C compiler the build goes on and newscrawl uses the
    # pure-Python pass (newscrawl.extract.native says which one runs)
    try:
        import lxml
    except ImportError:
        return []
    return [
        Extension(
            "newscrawl.extract._cstats",
            ["newscrawl/extract/_cstats.c"],
            include_dirs=lxml.get_include(),
            optional=True,
        ),
        Extension(
            "newscrawl.extract._cscores",
            ["newscrawl/extract/_cscores.c"],
            include_dirs=lxml.get_include(),
            optional=True,
        ),
        # the SimHash needs Python's headers only
        Extension("newscrawl.extract._csimhash", ["newscrawl/extract/_csimhash.c"], optional=True),
    ]


setup(cmdclass={"build_py": BuildPyWithShipped}, ext_modules=_extensions())
