"""Folders newscrawl ships beside its code: the site files and the demo portal. (``data/eval/demo``, the
demo's labelled sample for ``newscrawl eval``, is not shipped: it refers to the pages of a checkout's
``data/demo``.)

They live at the top of the repository (``settings/sites``, ``data/demo``, ...), where a user looks for
them. ``setup.py`` copies them into the wheel under ``newscrawl/_shipped/<name>``, so a plain
``pip install .`` has them too; :func:`shipped_dir` finds the checkout's folder first (a clone or an
editable install), else the installed copy through the package's resources. This module imports only
the standard library: ``setup.py`` reads :data:`FOLDERS` from it at build time.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: name of a shipped folder -> where it lives in a checkout, relative to the repository's root
FOLDERS = {
    "sites": "settings/sites",
    "demo": "data/demo",
}
#: the folder of the installed package that holds the copies
PACKAGE_FOLDER = "_shipped"


def shipped_dir(name: str) -> Path:
    """The folder shipped as ``name`` (a key of :data:`FOLDERS`), from the checkout or the installed package.

    >>> shipped_dir("sites").joinpath("sina.toml").is_file()
    True
    """
    checkout = Path(__file__).resolve().parents[2] / FOLDERS[name]
    if checkout.is_dir():
        return checkout
    return Path(str(resources.files("newscrawl").joinpath(PACKAGE_FOLDER, name)))
