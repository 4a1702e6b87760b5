"""C# extraction: exact IR records (definitions with positions, modifiers and attributes, calls with
receivers and arity, imports, bindings, injections), syntax errors and code-point columns."""

from indexer.languages.csharp.extractor import EXTRACTOR, type_text
from indexer.model import Binding, CallSite, Import, Injection

SOURCE = b'''using System;
using Svc = Shop.Services.OrderService;
using static Shop.Paths;

namespace Shop.Api;

[ApiController]
[Route("api/[controller]")]
public partial class OrdersController : ControllerBase, IOrders
{
    private readonly IOrderService _svc;
    public string Name { get; set; }

    public OrdersController(IOrderService svc) : base() { _svc = svc; }

    [HttpGet("{id}")]
    public async Task<Order> Get(int id, [FromBody] Order? o = null)
    {
        var x = new Foo<int>(1);
        var y = Make();
        return await _svc.Find(id).Result.Go(base.Name, this.Name);
    }
}

public static class Ext { public static int Twice(this int x, params int[] more) => x * 2; }

public record Point(int X, int Y);
'''


def test_definitions_exact():
    ex = EXTRACTOR.extract("Api/OrdersController.cs", SOURCE)
    assert ex.errors == []
    assert ex.package == "Shop.Api"
    assert [(d.kind, d.qualname, d.parent, d.start_line, d.name_line, d.name_col, d.end_line) for d in ex.definitions] == [
        ("class", "OrdersController", None, 7, 9, 21, 23),
        ("field", "OrdersController._svc", "OrdersController", 11, 11, 35, 11),
        ("field", "OrdersController.Name", "OrdersController", 12, 12, 18, 12),
        ("constructor", "OrdersController.OrdersController", "OrdersController", 14, 14, 11, 14),
        ("method", "OrdersController.Get", "OrdersController", 16, 17, 29, 22),
        ("class", "Ext", None, 25, 25, 20, 25),
        ("method", "Ext.Twice", "Ext", 25, 25, 44, 25),
        ("class", "Point", None, 27, 27, 14, 27),
        ("constructor", "Point.Point", "Point", 27, 27, 14, 27),
        ("field", "Point.X", "Point", 27, 27, 24, 27),
        ("field", "Point.Y", "Point", 27, 27, 31, 27),
    ]
    cls, svc, name, ctor, get, _, twice, point, _, px, _ = ex.definitions
    assert (cls.modifiers, cls.decorators, cls.bases, cls.implements, cls.exported) == (
        ["public", "partial"], ["ApiController", 'Route("api/[controller]")'], ["ControllerBase"], ["IOrders"], True)
    assert (svc.modifiers, svc.field_type, svc.exported) == (["private", "readonly"], "IOrderService", False)
    assert (name.modifiers, name.field_type) == (["public", "property"], "string")
    assert [(p.name, p.type) for p in ctor.params] == [("svc", "IOrderService")]
    assert (get.modifiers, get.decorators, get.return_type) == (["public", "async"], ['HttpGet("{id}")'], "Order")
    assert [(p.name, p.type, p.has_default) for p in get.params] == [("id", "int", False), ("o", "Order?", True)]
    assert get.signature == "[HttpGet(\"{id}\")] public async Task<Order> Get(int id, [FromBody] Order? o = null)"
    # the extension's `this` parameter is its receiver type, not a parameter; `params` is variadic
    assert (twice.receiver_type, [(p.name, p.variadic) for p in twice.params], twice.max_arity) == (
        "int", [("more", "*")], None)
    assert (point.modifiers, px.modifiers, px.field_type) == (["public", "record"], ["public", "property"], "int")


def test_imports_calls_bindings_injections_exact():
    ex = EXTRACTOR.extract("Api/OrdersController.cs", SOURCE)
    assert ex.imports == [Import("*", "System", None, line=1), Import("Svc", "Shop.Services", "OrderService", line=2),
                          Import("*", "Shop.Paths", None, line=3)]
    assert ex.calls == [
        CallSite("OrdersController.OrdersController", "super", None, 0, 14, 47),
        CallSite("OrdersController.Get", "Foo", None, 1, 19, 20, is_new=True),
        CallSite("OrdersController.Get", "Make", None, 0, 20, 16),
        CallSite("OrdersController.Get", "Find", "_svc", 1, 21, 26),
        CallSite("OrdersController.Get", "Go", "_svc.Find().Result", 2, 21, 42),
    ]
    assert [b for b in ex.bindings if b.scope == "OrdersController.Get"] == [
        Binding("OrdersController.Get", "id", "int", "declared", 17),
        Binding("OrdersController.Get", "o", "Order", "declared", 17),
        Binding("OrdersController.Get", "x", "Foo", "declared", 19),
        Binding("OrdersController.Get", "y", "Make", "constructed", 20),
    ]
    assert ("OrdersController", "this._svc", "IOrderService") in [(b.scope, b.name, b.type) for b in ex.bindings]
    assert ex.injections == [Injection("OrdersController", "IOrderService", "constructor", 14, 11)]


def test_block_namespaces_syntax_errors_and_code_point_columns():
    ex = EXTRACTOR.extract("a.cs", "namespace A.B {\n  namespace C { class Ünï { void Mé() { Fö(); } } }\n}\n"
                           .encode())
    assert ex.package == "A.B.C"
    assert [(d.qualname, d.name_col) for d in ex.definitions] == [("Ünï", 22), ("Ünï.Mé", 33)]
    assert [(c.name, c.col) for c in ex.calls] == [("Fö", 40)]
    bad = EXTRACTOR.extract("b.cs", b"class A { void M() { Go(; } }\nclass B { }\n")
    assert bad.errors and [d.qualname for d in bad.definitions][-1] == "B"


def test_type_text():
    assert type_text("Task<List<Order>>") == "List"
    assert type_text("ValueTask<Order?>") == "Order"
    assert type_text("global::Shop.Order[]") == "Shop.Order"
    assert type_text("Dictionary<string, int>") == "Dictionary"
