"""Tag lists the extractors share. Data, not code: each list names the source it comes from."""

from __future__ import annotations

#: Seed 003, step 2: "type I" tags, removed together with their content (comments are removed at parse).
TYPE_I_TAGS: frozenset[str] = frozenset(
    """a script noscript style meta param button select optgroup option label textarea fieldset legend
    input image map area form iframe embed object""".split()
)

#: Seed 003, step 3: "type II" tags, replaced by a block separator. The seed lost a few names; ul, li, br
#: and the headings are the natural members.
TYPE_II_TAGS: frozenset[str] = frozenset(
    "div p table tr td th dl dt dd hr head body tbody thead tfoot ul ol li br h1 h2 h3 h4 h5 h6".split()
)

#: The design card's noise stripping (seed 000 step 2 with seed 003's type I list). Two members are kept:
#: ``a``, because CETD and SCEDD weigh link characters and link tags themselves (stripping anchors first
#: would zero those terms and delete in-text links), and ``form``, because many ASP.NET pages wrap the
#: whole body in one <form>. Both are in TYPE_I_TAGS for the block-statistics extractor, which removes them.
DESIGN_CARD_NOISE_TAGS: frozenset[str] = TYPE_I_TAGS - {"a", "form"}

#: Tags whose content is never visible text (removed by every path).
NEVER_TEXT_TAGS: frozenset[str] = frozenset("script style noscript template svg math head title".split())

#: Tags that start a new line when a page is rendered; used for paragraphs and SCEDD's line numbers.
BLOCK_TAGS: frozenset[str] = frozenset(
    """address article aside blockquote body br center dd details dialog dir div dl dt fieldset figcaption
    figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html li main menu nav noframes ol p pre
    section summary table tbody td tfoot th thead tr ul caption""".split()
)

HEADING_TAGS: tuple[str, ...] = ("h1", "h2", "h3", "h4", "h5", "h6")
