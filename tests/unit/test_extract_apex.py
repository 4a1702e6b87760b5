"""Apex extractor: exact IR records for classes, triggers, calls, bindings and type uses."""

from __future__ import annotations

from indexer.languages.apex.extractor import EXTRACTOR
from indexer.model import Binding, CallSite, TypeUse

SERVICE = b"""/**
 * Accounts, over REST and to components.
 */
@restResource(urlMapping='/accounts/*')
global inherited sharing class AccountService extends BaseService implements Queueable {
    public Integer count { get; set; }
    private AccountRepo repo = new AccountRepo();
    public AccountService() { this(5); }
    public AccountService(Integer n) { super(n); }
    @AuraEnabled(cacheable=true)
    public static List<Contact> getContacts(Id accountId) {
        AccountService svc = new AccountService();
        svc.repo.save(accountId);
        System.enqueueJob(new AccountService());
        return null;
    }
    public void execute(QueueableContext ctx) { helper(); }
    public class Inner { public void run() {} }
    public interface Shape { Double area(); }
    public enum Color { RED }
}
"""


def _defs(source: bytes, path: str = "classes/AccountService.cls"):
    ex = EXTRACTOR.extract(path, source)
    assert ex.errors == []
    return ex


def test_definitions_carry_kinds_sharing_annotations_and_heritage() -> None:
    ex = _defs(SERVICE)
    # a definition spans its annotations: the class starts at `@restResource` (line 4)
    got = [(d.kind, d.qualname, d.parent, d.start_line, d.name_col, d.modifiers, d.decorators)
           for d in ex.definitions]
    assert got == [
        ("class", "AccountService", None, 4, 31, ["global", "inherited sharing"], ["RestResource(urlMapping='/accounts/*')"]),
        ("field", "AccountService.count", "AccountService", 6, 19, ["public", "property"], []),
        ("field", "AccountService.repo", "AccountService", 7, 24, ["private"], []),
        ("constructor", "AccountService.AccountService", "AccountService", 8, 11, ["public"], []),
        ("constructor", "AccountService.AccountService", "AccountService", 9, 11, ["public"], []),
        ("method", "AccountService.getContacts", "AccountService", 10, 32, ["public", "static"],
         ["AuraEnabled(cacheable=true)"]),
        ("method", "AccountService.execute", "AccountService", 17, 16, ["public"], []),
        ("class", "AccountService.Inner", "AccountService", 18, 17, ["public"], []),
        ("method", "AccountService.Inner.run", "AccountService.Inner", 18, 37, ["public"], []),
        ("interface", "AccountService.Shape", "AccountService", 19, 21, ["public"], []),
        ("method", "AccountService.Shape.area", "AccountService.Shape", 19, 36, ["abstract"], []),
        ("enum", "AccountService.Color", "AccountService", 20, 16, ["public"], []),
        ("field", "AccountService.Color.RED", "AccountService.Color", 20, 24, [], []),
    ]
    cls = ex.definitions[0]
    assert (cls.bases, cls.implements) == (["BaseService"], ["Queueable"])
    assert cls.docstring == "Accounts, over REST and to components."
    assert cls.signature == "global inherited sharing class AccountService extends BaseService implements Queueable"
    m = ex.definitions[5]
    assert m.signature == "public static List<Contact> getContacts(Id accountId)"
    assert (m.return_type, [(p.name, p.type) for p in m.params]) == ("List<Contact>", [("accountId", "Id")])
    assert ex.definitions[1].field_type == "Integer"
    assert ex.definitions[12].field_type == "Color"


def test_calls_include_constructors_chains_and_platform_dispatch() -> None:
    ex = _defs(SERVICE)
    assert ex.calls == [
        CallSite("AccountService", "AccountRepo", None, 0, 7, 35, is_new=True),
        CallSite("AccountService.AccountService", "this", None, 1, 8, 30),
        CallSite("AccountService.AccountService", "super", None, 1, 9, 39),
        CallSite("AccountService.getContacts", "AccountService", None, 0, 12, 33, is_new=True),
        CallSite("AccountService.getContacts", "save", "svc.repo", 1, 13, 17),
        CallSite("AccountService.getContacts", "enqueueJob", "System", 1, 14, 15),
        # System.enqueueJob(new X()) runs X.execute: a call on `new X()`, arity unknown, at the argument
        CallSite("AccountService.getContacts", "execute", "new AccountService()", -1, 14, 26),
        CallSite("AccountService.getContacts", "AccountService", None, 0, 14, 30, is_new=True),
        CallSite("AccountService.execute", "helper", None, 0, 17, 48),
    ]


def test_bindings_and_type_uses() -> None:
    ex = _defs(SERVICE)
    assert Binding("AccountService.getContacts", "svc", "AccountService", "declared", 12) in ex.bindings
    assert Binding("AccountService", "this.repo", "AccountRepo", "declared", 7) in ex.bindings
    assert Binding("AccountService.execute", "ctx", "QueueableContext", "declared", 17) in ex.bindings
    assert TypeUse("AccountService.getContacts", "Contact", 11, 23) in ex.type_uses
    assert TypeUse("AccountService.repo", "AccountRepo", 7, 12) in ex.type_uses


def test_a_trigger_is_a_function_with_its_sobject_and_events() -> None:
    ex = _defs(b"trigger AccountTrigger on Account (before insert, after update) {\n"
               b"    AccountService.sync();\n}\n", "triggers/AccountTrigger.trigger")
    [d] = ex.definitions
    assert (d.kind, d.qualname, d.field_type, d.modifiers) == (
        "function", "AccountTrigger", "Account", ["trigger", "before insert", "after update"])
    assert d.signature == "trigger AccountTrigger on Account (before insert, after update)"
    assert ex.calls == [CallSite("AccountTrigger", "sync", "AccountService", 0, 2, 19)]


def test_batch_and_schedule_dispatch_name_every_method_the_platform_runs() -> None:
    ex = _defs(b"public class Jobs {\n  public void go(Object o) {\n"
               b"    Database.executeBatch(new Cleanup(), 200);\n"
               b"    System.schedule('nightly', '0 0 1 * * ?', new Nightly());\n"
               b"    System.enqueueJob(o);\n  }\n}\n", "classes/Jobs.cls")
    dispatched = [(c.name, c.receiver, c.arity) for c in ex.calls if c.receiver and c.receiver.startswith("new ")]
    assert dispatched == [("start", "new Cleanup()", -1), ("execute", "new Cleanup()", -1),
                          ("finish", "new Cleanup()", -1), ("execute", "new Nightly()", -1)]
    # `System.enqueueJob(o)`: the object is named: `execute` is called on `o`, bound (or not: `Object o`)
    # by its declared type (tests/unit/test_resolve_apex.py)
    assert [(c.name, c.receiver, c.arity) for c in ex.calls if c.line == 5] == [("enqueueJob", "System", 1),
                                                                                ("execute", "o", -1)]


def test_syntax_errors_keep_what_parsed_and_columns_count_code_points() -> None:
    ex = EXTRACTOR.extract("classes/Broken.cls",
                           "public class Brökén {\n  public void ok() { a.b(); }\n  public void bad( {\n}\n".encode())
    assert ex.errors
    assert [d.qualname for d in ex.definitions][:2] == ["Brökén", "Brökén.ok"]
    assert ex.definitions[0].name_col == 13
    assert ("ok" in [d.name for d in ex.definitions]) and any(c.name == "b" for c in ex.calls)


def test_binary_and_empty_input_never_raise() -> None:
    for data in (b"", b"\x00\xff\xfe" * 100, b"class {{{{"):
        ex = EXTRACTOR.extract("classes/X.cls", data)
        assert ex.path == "classes/X.cls"


def test_call_sites_record_their_argument_types_for_overloads() -> None:
    ex = _defs(b"public class A {\n  void m(List<Account> xs, Integer n) {\n"
               b"    f('s', 1, 2L, 1.5, true, null, new Account(), (String) o, new List<Account>(), new Account[]{},\n"
               b"      xs[0], this.y, this, g(), a.b().c(), -1, n + 1, xs, (n));\n  }\n}\n", "classes/A.cls")
    call = next(c for c in ex.calls if c.name == "f")
    assert call.arg_types == ("String", "Integer", "Long", "Decimal", "Boolean", "null", "Account", "String", "List",
                              "Account[]", "[=xs", "=this.y", "@this", "@g()", "@a.b().c()", "", "", "=xs", "=n")
    # no argument of a known type: nothing recorded
    assert next(c for c in ex.calls if c.name == "g").arg_types == ()
