import pytest

from newscrawl.cli import main
from newscrawl.evaluation import peers
from newscrawl.evaluation.peers import PEERS, Peer, decoded_text, load_peers, parse_peer_names


@pytest.fixture
def trafilatura_missing(monkeypatch):
    """trafilatura's entry pointing at a module that is not installed."""
    missing = Peer("trafilatura", "newscrawl_no_such_module", PEERS["trafilatura"].run)
    monkeypatch.setitem(PEERS, "trafilatura", missing)


def test_a_peer_that_is_not_installed_is_named_and_skipped(trafilatura_missing):
    runnable, missing = load_peers(["trafilatura", "readability-lxml"])
    assert missing == ["trafilatura"]
    assert "trafilatura" not in runnable


def test_eval_names_the_skipped_peer_and_still_reports_newscrawl(tiny_dataset, trafilatura_missing, capsys):
    assert main(["eval", str(tiny_dataset), "--compare", "trafilatura", "-q"]) == 0
    out, err = capsys.readouterr()
    assert "skipping trafilatura: not installed" in err
    assert "| tiny | auto |" in out and "| tiny | trafilatura |" not in out


def test_an_unknown_peer_is_a_usage_error(tiny_dataset, capsys):
    assert main(["eval", str(tiny_dataset), "--compare", "boilerpipe", "-q"]) == 2
    assert "unknown extractor 'boilerpipe'" in capsys.readouterr().err
    assert parse_peer_names("trafilatura, newspaper4k,trafilatura") == ["trafilatura", "newspaper4k"]


def test_peers_get_the_text_newscrawl_decodes_without_the_xml_declaration():
    page = '<?xml version="1.0" encoding="gbk"?><html><head><meta charset="gbk"></head><p>新闻正文</p></html>'
    text = decoded_text(page.encode("gbk"))
    assert "新闻正文" in text and not text.startswith("<?xml")


def test_a_fake_peer_runs_beside_newscrawl_on_the_same_pages(tiny_dataset, monkeypatch, capsys):
    seen = []

    def fake(page, url=None, algorithm="fake"):
        seen.append(page[:6])
        return peers.PeerResult("the harbour board approved a new plan", "Harbour plan approved", None, None,
                                algorithm)

    monkeypatch.setitem(PEERS, "trafilatura", Peer("trafilatura", "json", fake))
    assert main(["eval", str(tiny_dataset), "--compare", "trafilatura", "-q"]) == 0
    out = capsys.readouterr().out
    assert seen == [b"<html>", b"<html>"]  # the same raw pages newscrawl got
    assert "| tiny | auto |" in out and "| tiny | trafilatura |" in out


@pytest.mark.parametrize("name", ["trafilatura", "readability-lxml", "newspaper4k"])
def test_an_installed_peer_extracts_a_hand_written_page(name):
    pytest.importorskip(PEERS[name].module)
    sentence = "the harbour board approved a new plan for the old docks."
    body = "".join(f"<p>Paragraph {i}: {sentence}</p>" for i in range(8))
    page = f"<html><head><title>Harbour plan</title></head><body><article>{body}</article></body></html>"
    result = PEERS[name].run(page.encode(), url="https://news.example.com/a", algorithm=name)
    assert "approved a new plan for the old docks" in result.text
    assert result.algorithm == name
