"""brk46: a C# call chain's receiver texts cost work linear in the chain, not exponential.

``_receiver`` read each invocation link's name through ``_callee``, which computed that link's own
whole receiver again (then threw it away): every link doubled the work, bounded only by
``MAX_RECEIVER_LINKS`` (16), so ``n.Get().Get()...M()`` of 14 calls took 0.5 s to extract, 18 calls
6.5 s, 40 over two minutes (a fluent builder's chain). Exact receivers, and the work (text reads)
counted, never timed."""

from indexer.languages.base import SourceText
from indexer.languages.csharp.extractor import EXTRACTOR
from indexer.model import LONG_RECEIVER


def _source(n: int) -> str:
    return ("namespace P { public class N { public N F; public N Get() { return this; } public void M() {}\n"
            "public void R(N n) { n" + ".Get()" * n + ".M(); x?.A().B(); Make().F.M(); } } }\n")


def _calls(n: int):
    return [(c.receiver, c.name) for c in EXTRACTOR.extract("P/N.cs", _source(n).encode()).calls]


def test_receivers_of_a_chain_exactly() -> None:
    got = _calls(3)
    assert got == [("n", "Get"), ("n.Get()", "Get"), ("n.Get().Get()", "Get"), ("n.Get().Get().Get()", "M"),
                   ("x", "A"), ("A()", "B"), (None, "Make"), ("Make().F", "M")]
    # 17 links is past the bound: the receiver is written LONG_RECEIVER, never a cut chain
    long = _calls(17)
    assert long[15] == ("n" + ".Get()" * 15, "Get")
    assert long[16:18] == [(LONG_RECEIVER, "Get"), (LONG_RECEIVER, "M")]


def test_a_chain_costs_linear_work(monkeypatch) -> None:
    counted = [0]
    real = SourceText.text

    def counting(self, node):
        counted[0] += 1
        return real(self, node)

    monkeypatch.setattr(SourceText, "text", counting)
    work = {}
    for n in (4, 8, 16):
        counted[0] = 0
        _calls(n)
        work[n] = counted[0]
    # each call site reads at most MAX_RECEIVER_LINKS links: doubling the chain at most ~doubles
    # the calls and so the work (it was x18 from 8 to 16)
    assert work[8] < 2.5 * work[4]
    assert work[16] < 2.5 * work[8]
