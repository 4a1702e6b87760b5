"""brk45: C# detectors on hostile sizes, exact facts and work that grows with the input, not its
square (counted, never timed).

What a C# local holds (``CsFile.local_values`` / ``local_value``) is read from one walk
of the enclosing function, not one walk per use: ``_handed_messages`` asks it of every identifier
argument of every call in every C# file (twice per event bus), so a method of 500 statements
``var xI = Compute(I); Use(xI);`` took 63 s to extract, 250 took 16 s. Exact facts on the shapes
the walk must keep telling apart, and the work (text reads) growing with the method, not its square."""

import sys

from indexer.languages.csharp.extractor import EXTRACTOR
from indexer.languages.csharp.frameworks import common, dotnet_messaging


def _extract(source: str):
    return EXTRACTOR.extract("App/Outbox.cs", source.encode())


SHAPES = '''namespace App;

public class Orders
{
    private readonly IOutbox _outbox;
    private readonly HttpClient _client;
    public void Place(int n, OrderPaid paid, IntegrationEvent given)
    {
        var placed = new OrderPlaced(n);
        _outbox.Save(placed);
        IntegrationEvent either;
        if (n > 1) either = new OrderBig(); else either = new OrderSmall();
        _outbox.Save(either);
        var counted = new OrderCounted();
        counted += 1;
        _outbox.Save(counted);
        var loaded = new OrderLoaded();
        Load(out loaded);
        _outbox.Save(loaded);
        _outbox.Save(paid);
        _outbox.Save(given);
        var later = Make();
        _outbox.Save(later);
        var url = "orders/" + n;
        var res = _client.GetAsync(url);
        var twice = "a";
        twice = "b";
        _client.GetAsync("v/" + twice);
    }
}
'''


def test_a_local_s_values_and_what_disqualifies_it() -> None:
    ex = _extract(SHAPES)
    handed = [(t.topic.literal(), t.line, t.target) for t in ex.topics if t.handed_as and t.framework == "eventbus"]
    # placed: its creation; either: both assignments; counted (+=), loaded (out), a parameter
    # (paid, given: a handed parameter is no message of this method's) and later (a call's result): none
    assert handed == [("OrderPlaced", 10, "_outbox.Save"), ("OrderBig", 13, "_outbox.Save"),
                      ("OrderSmall", 13, "_outbox.Save")]
    # a local with one initializer is inlined into a URL template; one assigned again is a hole
    assert [c.url.parts for c in ex.http_calls] == [(("lit", "orders/"), ("hole", "n")), (("lit", "v/"), ("hole", "twice"))]


def _text_reads(monkeypatch, statements: int) -> int:
    reads = 0
    original = common.CsFile.text

    def counted(self, node):
        nonlocal reads
        reads += 1
        return original(self, node)

    monkeypatch.setattr(common.CsFile, "text", counted)
    body = "".join(f"        var x{i} = Compute({i});\n        Use(x{i});\n" for i in range(statements))
    _extract("namespace App;\n\npublic class Big\n{\n    public void Run()\n    {\n" + body + "    }\n}\n")
    monkeypatch.setattr(common.CsFile, "text", original)
    return reads


def test_the_work_grows_with_the_method_not_its_square(monkeypatch) -> None:
    small, large = _text_reads(monkeypatch, 100), _text_reads(monkeypatch, 400)
    assert large < 5 * small  # 4x the statements: 4x the reads (16x when each use walked the method)


def _handlers(classes: int) -> str:
    return "using MediatR;\nnamespace App;\n\n" + "".join(
        f"public class C{i} : IRequestHandler<Q{i}, int>, INotificationHandler<N{i}>\n{{\n"
        f"    public Task<int> Handle(Q{i} q, CancellationToken ct) => Task.FromResult(1);\n"
        f"    public Task Handle(N{i} n, CancellationToken ct) => Task.CompletedTask;\n}}\n"
        f"public record Q{i} : IRequest<int>;\n" for i in range(classes))


def test_handler_classes_of_one_file_each_consume_their_own_messages() -> None:
    ex = _extract(_handlers(3) + "public class Plain : IDisposable { }\n"
                  "public class Nested { public class Inner : INotificationHandler<Deep> { public Task Handle(Deep d) => null; } }\n")
    assert [(t.topic.literal(), t.owner, t.line) for t in ex.topics if t.role == "consumes"] == [
        # each at the Handle overload taking it (test_link_csharp_messages: the linker's owner)
        ("Q0", "C0.Handle", 6), ("N0", "C0.Handle", 7), ("Q1", "C1.Handle", 12), ("N1", "C1.Handle", 13),
        ("Q2", "C2.Handle", 18), ("N2", "C2.Handle", 19), ("Deep", "Nested.Inner.Handle", 23)]  # not Plain, not Nested


def _positions_read(monkeypatch, classes: int) -> int:
    reads = 0
    original = common.CsFile.pos

    def counted(self, node):
        nonlocal reads
        reads += 1
        return original(self, node)

    monkeypatch.setattr(common.CsFile, "pos", counted)
    _extract(_handlers(classes))
    monkeypatch.setattr(common.CsFile, "pos", original)
    return reads


def test_a_file_of_many_handler_classes_is_read_once_per_class(monkeypatch) -> None:
    # each class's interfaces were looked up by reading every class of the file, each placed by
    # scanning every definition: 250 classes took 163 s to extract
    small, large = _positions_read(monkeypatch, 20), _positions_read(monkeypatch, 80)
    assert large < 5 * small


def _lines_run(source: str) -> int:
    """Lines the C# detectors' shared code and the messaging detector execute extracting ``source``."""
    count = 0
    watched = (common.__file__, dotnet_messaging.__file__)

    def local(frame, event, arg):
        nonlocal count
        count += event == "line"
        return local

    def tracer(frame, event, arg):
        return local if frame.f_code.co_filename in watched else None

    sys.settrace(tracer)
    try:
        _extract(source)
    finally:
        sys.settrace(None)
    return count


def _methods(n: int) -> str:
    return "using MediatR;\nnamespace App;\n\npublic class Big\n{\n    private readonly IMediator _mediator;\n" + "".join(
        f"    public async Task M{i}() {{ var c = new Cmd{i % 10}(); await _mediator.Send(c); "
        f"await _outbox.Save(new Evt{i % 7}()); }}\n" for i in range(n)) + "    public int F = Make();\n}\n"


def test_the_method_around_each_call_is_found_without_reading_every_definition() -> None:
    # each call's owner was the last of a scan of every definition: 2,500 methods with a Send and
    # an outbox Save each took 14 s to extract, 5,000 took 58 s
    ex = _extract(_methods(3))
    assert [(t.topic.literal(), t.owner, t.line) for t in ex.topics if t.role == "produces" and not t.handed_as] == [
        ("Cmd0", "Big.M0", 7), ("IRequest", "Big.M0", 7), ("Cmd1", "Big.M1", 8), ("IRequest", "Big.M1", 8),
        ("Cmd2", "Big.M2", 9), ("IRequest", "Big.M2", 9)]
    assert [(t.topic.literal(), t.owner, t.target) for t in ex.topics if t.handed_as and t.framework == "mediatr"] == [
        ("Evt0", "Big.M0", "_outbox.Save"), ("Evt1", "Big.M1", "_outbox.Save"), ("Evt2", "Big.M2", "_outbox.Save")]
    small, large = _lines_run(_methods(50)), _lines_run(_methods(200))
    assert large < 5 * small
