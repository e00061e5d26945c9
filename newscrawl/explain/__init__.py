"""Why a page was extracted the way it was: the facts as data (``explain``) and as an HTML report.

>>> facts = explain("<html><body><h1>T</h1><p>" + "正文内容。" * 40 + "</p></body></html>")
>>> facts["decisions"]["algorithm_chosen"], facts["blocks"][-1]["mark"]
('auto', 'kept')
"""

from newscrawl.explain.facts import explain
from newscrawl.explain.report import render_html

__all__ = ["explain", "render_html"]
