"""Unit tests for the Kotlin extractor (:mod:`indexer.languages.kotlin`): exact IR records on small
sources (issue 21 item 1)."""

from __future__ import annotations

import textwrap

from indexer.languages import extractor_for_path
from indexer.languages.kotlin.extractor import EXTRACTOR
from indexer.model import Binding, CallSite, FileExtraction, Import, Injection, Param


def extract(code: str, path: str = "src/main/kotlin/com/shop/Orders.kt") -> FileExtraction:
    """Extract a dedented inline source."""
    return EXTRACTOR.extract(path, textwrap.dedent(code).lstrip("\n").encode("utf-8"))


def outline(fx: FileExtraction) -> list[tuple]:
    """(kind, qualname, parent, start_line, end_line, name_line, name_col) per definition."""
    return [(d.kind, d.qualname, d.parent, d.start_line, d.end_line, d.name_line, d.name_col) for d in fx.definitions]


SERVICE = """
package com.shop.service

import com.shop.model.Order
import com.shop.repo.OrderRepository as Repo
import com.shop.util.*

/** Places orders. */
@Service
class OrderService(private val repo: Repo, limit: Int = 10) : BaseService(), Auditable {
    var count: Int = 0
        get() = field + repo.size()
        private set

    fun place(sku: String, vararg tags: String): Order {
        val order = Order(0, sku)
        repo.save(order).also { it.touch() }
        return order
    }

    companion object Factory {
        const val LIMIT = 5
        fun create(r: Repo): OrderService = OrderService(r)
    }
}

data class Line(val sku: String, var qty: Int)

object Registry {
    fun register(o: Order) = println(o)
}

fun Order.total(rate: Double): Double = rate * 2

interface Auditable { fun audit() }

enum class State { OPEN, CLOSED }
"""


def test_registry_claims_kotlin_files() -> None:
    assert extractor_for_path("a/Orders.kt") is EXTRACTOR
    assert extractor_for_path("build.gradle.kts") is EXTRACTOR
    assert EXTRACTOR.language == "kotlin"


def test_package_and_imports_with_alias_and_wildcard() -> None:
    fx = extract(SERVICE)
    assert fx.package == "com.shop.service"
    assert fx.imports == [
        Import("Order", "com.shop.model", "Order", line=3),
        Import("Repo", "com.shop.repo", "OrderRepository", line=4),
        Import("*", "com.shop.util", None, line=5),
    ]
    assert fx.errors == []


def test_definitions_classes_objects_companions_properties_and_extensions() -> None:
    fx = extract(SERVICE)
    assert outline(fx) == [
        ("class", "OrderService", None, 8, 24, 9, 6),
        ("field", "OrderService.repo", "OrderService", 9, 9, 9, 31),
        ("method", "OrderService.getRepo", "OrderService", 9, 9, 9, 31),
        ("constructor", "OrderService.OrderService", "OrderService", 9, 9, 9, 18),
        ("field", "OrderService.count", "OrderService", 10, 10, 10, 8),
        ("method", "OrderService.getCount", "OrderService", 11, 11, 11, 8),
        ("method", "OrderService.setCount", "OrderService", 12, 12, 12, 8),  # the written `private set`
        ("method", "OrderService.place", "OrderService", 14, 18, 14, 8),
        ("field", "OrderService.Factory", "OrderService", 20, 23, 20, 21),
        ("field", "OrderService.LIMIT", "OrderService", 21, 21, 21, 18),
        ("method", "OrderService.create", "OrderService", 22, 22, 22, 12),
        ("class", "Line", None, 26, 26, 26, 11),
        ("field", "Line.sku", "Line", 26, 26, 26, 20),
        ("method", "Line.getSku", "Line", 26, 26, 26, 20),
        ("field", "Line.qty", "Line", 26, 26, 26, 37),
        ("method", "Line.getQty", "Line", 26, 26, 26, 37),
        ("method", "Line.setQty", "Line", 26, 26, 26, 37),
        ("constructor", "Line.Line", "Line", 26, 26, 26, 15),
        ("class", "Registry", None, 28, 30, 28, 7),
        ("method", "Registry.register", "Registry", 29, 29, 29, 8),
        ("function", "total", None, 32, 32, 32, 10),
        ("interface", "Auditable", None, 34, 34, 34, 10),
        ("method", "Auditable.audit", "Auditable", 34, 34, 34, 26),
        ("enum", "State", None, 36, 36, 36, 11),
    ]
    by = {d.qualname: d for d in fx.definitions}
    svc = by["OrderService"]
    assert (svc.decorators, svc.bases, svc.implements, svc.docstring) == (
        ["Service"], ["BaseService"], ["Auditable"], "Places orders.")
    assert svc.signature == "class OrderService(private val repo: Repo, limit: Int = 10) : BaseService(), Auditable"
    assert by["OrderService.OrderService"].params == [Param("repo", "Repo"), Param("limit", "Int", has_default=True)]
    assert by["OrderService.place"].params == [Param("sku", "String"), Param("tags", "String", variadic="*")]
    assert by["OrderService.place"].return_type == "Order"
    assert by["OrderService.create"].modifiers == ["companion"]
    assert by["OrderService.Factory"].field_type == "OrderService"  # Java's OrderService.Factory.create()
    assert by["OrderService.repo"].modifiers == ["private"]
    # accessors: the written getter owns its calls; the others are generated, naming their property
    assert (by["OrderService.getCount"].generated, by["OrderService.getCount"].accessor_of) == (
        None, "OrderService.count")
    assert (by["Line.setQty"].generated, by["Line.setQty"].accessor_of, by["Line.setQty"].params) == (
        "kotlin", "Line.qty", [Param("value", "Int")])
    assert "Line.setSku" not in by  # a val has no setter
    assert "OrderService.getLIMIT" not in by  # a const has no getter
    assert by["Line"].modifiers == ["data"] and by["Registry"].modifiers == ["object"]
    assert (by["total"].receiver_type, by["total"].kind) == ("Order", "function")
    assert by["OrderService.place"].receiver_type is None


def test_calls_with_receivers_lambdas_and_constructor_calls() -> None:
    fx = extract(SERVICE)
    assert fx.calls == [
        CallSite("OrderService.getCount", "size", "repo", 0, 11, 29),
        CallSite("OrderService.place", "Order", None, 2, 15, 20),
        CallSite("OrderService.place", "also", "repo.save()", 1, 16, 25),
        CallSite("OrderService.place", "save", "repo", 1, 16, 13),
        CallSite("OrderService.place", "touch", "it", 0, 16, 35),
        CallSite("OrderService.create", "OrderService", None, 1, 22, 44),
        CallSite("Registry.register", "println", None, 1, 29, 29),
    ]


def test_bindings_and_constructor_injection_of_a_stereotype() -> None:
    fx = extract(SERVICE)
    assert Binding("OrderService", "this.repo", "Repo", "declared", 9) in fx.bindings
    assert Binding("OrderService", "limit", "Int", "declared", 9) in fx.bindings  # a plain parameter
    assert Binding("OrderService.place", "order", "Order", "constructed", 15) in fx.bindings
    assert Binding("OrderService.place", "tags", "String", "declared", 14) in fx.bindings
    assert Binding("total", "this", "Order", "declared", 32) in fx.bindings  # the extension's receiver
    assert fx.injections == [Injection("OrderService", "Repo", "constructor", 9, 31),
                             Injection("OrderService", "Int", "constructor", 9, 43)]


def test_top_level_annotations_read_as_a_prefix_expression_keep_their_arguments() -> None:
    fx = extract("""
        @RestController
        @RequestMapping("/api/orders")
        class OrderController(private val svc: Svc) {
            @GetMapping("/{id}") fun get(@PathVariable id: Long) = svc.find(id)
        }
    """)
    cls = fx.definitions[0]
    assert (cls.decorators, cls.start_line, cls.name_line) == (["RestController", 'RequestMapping("/api/orders")'], 1, 3)
    assert fx.definitions[-1].decorators == ['GetMapping("/{id}")']
    assert fx.injections == [Injection("OrderController", "Svc", "constructor", 3, 34)]


def test_no_injection_without_a_stereotype_and_field_injection_with_autowired() -> None:
    fx = extract("""
        class Plain(private val repo: Repo) {
            @Autowired lateinit var mailer: Mailer
        }
    """)
    assert fx.injections == [Injection("Plain", "Mailer", "field", 2, 28)]


def test_syntax_errors_keep_what_parsed_and_non_ascii_columns_count_code_points() -> None:
    fx = extract("""
        fun ok() { greet("é") ; ünïcode.call() }
        fun broken( {
    """)
    assert fx.errors and all(":" in e for e in fx.errors)
    assert [d.qualname for d in fx.definitions][:1] == ["ok"]
    assert CallSite("ok", "call", "ünïcode", 0, 1, 32) in fx.calls


def test_secondary_constructor_delegation_and_init_block() -> None:
    fx = extract("""
        class Money(val cents: Long) {
            init { check(cents) }
            constructor(units: Int) : this(units * 100L)
        }
    """)
    assert [(d.kind, d.qualname, [p.name for p in d.params]) for d in fx.definitions if d.kind == "constructor"] == [
        ("constructor", "Money.Money", ["cents"]), ("constructor", "Money.Money", ["units"])]
    assert fx.calls == [CallSite("Money", "check", None, 1, 2, 11), CallSite("Money.Money", "this", None, 1, 3, 30)]
