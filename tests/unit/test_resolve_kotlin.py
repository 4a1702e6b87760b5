"""Kotlin call resolution (issue 21 item 1): imports with aliases, companion objects, top-level
functions and their ``FileKt`` facade for Java callers, extension functions bound only on a receiver
of their type, and Java <-> Kotlin calls both ways in one module. Exact CALLS edges, and what must
stay unresolved."""

from __future__ import annotations

from tests.resolution_harness import check, resolve_fixture

MODEL = """
// --- path: src/main/kotlin/com/shop/model/Order.kt ---
package com.shop.model

data class Order(val id: Long, val sku: String) {
    fun code(): String = sku
}

class Invoice(val number: String)

open class Base { fun ping() = 1 }
class Special : Base()

fun Order.label(prefix: String): String = prefix + code()

fun Invoice.label(prefix: String): String = prefix

fun Base.pong(): Int = ping()

fun slugify(s: String): String = s.lowercase()
"""

KOTLIN_CALLER = """
// --- path: src/main/kotlin/com/shop/service/OrderService.kt ---
package com.shop.service

import com.shop.model.Order
import com.shop.model.Special
import com.shop.model.label
import com.shop.model.pong
import com.shop.model.slugify as slug
import com.shop.repo.OrderRepository as Repo

class OrderService(private val repo: Repo) {
    fun describe(o: Order, s: Special): String {
        s.pong()
        slug(o.sku)
        return o.label("#")
    }

    fun load(id: Long): Order = repo.find(id)

    companion object {
        fun create(): OrderService = OrderService(Repo())
    }
}

object Boot {
    fun start() = OrderService.create()
}
"""

JAVA = """
// --- path: src/main/java/com/shop/repo/OrderRepository.java ---
package com.shop.repo;

import com.shop.model.Order;
import com.shop.model.OrderKt;
import com.shop.service.OrderService;

public class OrderRepository {
    public Order find(long id) {
        Order o = new Order(id, OrderKt.slugify("A"));
        o.getSku();
        return o;
    }
    public Order viaCompanion() { return OrderService.Companion.create().load(1L); }
}
"""

P = "src/main/kotlin/com/shop"
J = "src/main/java/com/shop"


def test_mixed_module_kotlin_and_java_call_each_other_exactly() -> None:
    result = check(MODEL + KOTLIN_CALLER + JAVA, [
        # Java -> Kotlin: a data class constructor, a generated getter, a top-level function through the
        # file's facade class OrderKt, a companion member through `Companion`, a method on its result
        f"{J}/repo/OrderRepository.OrderRepository.find(long) -> {P}/model/Order.Order.Order(Long,String) [exact]",
        f"{J}/repo/OrderRepository.OrderRepository.find(long) -> {P}/model/Order.Order.getSku() [exact]",
        f"{J}/repo/OrderRepository.OrderRepository.find(long) -> {P}/model/Order.slugify(String) [exact]",
        f"{J}/repo/OrderRepository.OrderRepository.viaCompanion() -> {P}/service/OrderService.OrderService.create()"
        " [exact]",
        f"{J}/repo/OrderRepository.OrderRepository.viaCompanion() -> {P}/service/OrderService.OrderService.load(Long)"
        " [inferred]",  # on a call's result
        # Kotlin -> Java through an aliased import and a constructor property
        f"{P}/service/OrderService.OrderService.load(Long) -> {J}/repo/OrderRepository.OrderRepository.find(long) [exact]",
        f"{P}/service/OrderService.OrderService.create() -> {J}/repo/OrderRepository.OrderRepository [exact]",
        f"{P}/service/OrderService.OrderService.create() -> {P}/service/OrderService.OrderService.OrderService(Repo)"
        " [exact]",
        # a companion member called on the class
        f"{P}/service/OrderService.Boot.start() -> {P}/service/OrderService.OrderService.create() [exact]",
        # an aliased top-level function; the extension of Order (not Invoice's of the same name)
        f"{P}/service/OrderService.OrderService.describe(Order,Special) -> {P}/model/Order.slugify(String) [exact]",
        f"{P}/service/OrderService.OrderService.describe(Order,Special) -> {P}/model/Order.label(Order,String) [exact]",
        # an extension of a base class, called on a subclass: inferred
        f"{P}/service/OrderService.OrderService.describe(Order,Special) -> {P}/model/Order.pong(Base) [inferred]",
        # inside an extension, a bare call is a member of the receiver
        f"{P}/model/Order.label(Order,String) -> {P}/model/Order.Order.code() [exact]",
        f"{P}/model/Order.pong(Base) -> {P}/model/Order.Base.ping() [exact]",
        # generated accessors read their property
        f"{P}/model/Order.Order.getId() -> {P}/model/Order.Order.id [exact]",
        f"{P}/model/Order.Order.getSku() -> {P}/model/Order.Order.sku [exact]",
        f"{P}/model/Order.Invoice.getNumber() -> {P}/model/Order.Invoice.number [exact]",
        f"{P}/service/OrderService.OrderService.getRepo() -> {P}/service/OrderService.OrderService.repo [exact]",
    ])
    labels = [e.dst for f in result.files for e in f.edges if e.kind == "CALLS" and ".label(" in e.dst]
    assert labels == [f"t:{P}/model/Order.label(Order,String)"]  # not label(Invoice,String)


def test_an_extension_is_no_candidate_for_a_receiver_of_another_type() -> None:
    result = check(MODEL + """
// --- path: src/main/kotlin/com/shop/use/Use.kt ---
package com.shop.use

import com.shop.model.Base
import com.shop.model.pong

class Other { fun x() = 0 }

fun use(o: Other, b: Base, unknown: Any) {
    o.pong()
    unknown.pong()
    b.pong()
}
""", [
        "src/main/kotlin/com/shop/use/Use.use(Other,Base,Any) -> src/main/kotlin/com/shop/model/Order.pong(Base) [exact]",
        f"{P}/model/Order.label(Order,String) -> {P}/model/Order.Order.code() [exact]",
        f"{P}/model/Order.pong(Base) -> {P}/model/Order.Base.ping() [exact]",
        f"{P}/model/Order.Order.getId() -> {P}/model/Order.Order.id [exact]",
        f"{P}/model/Order.Order.getSku() -> {P}/model/Order.Order.sku [exact]",
        f"{P}/model/Order.Invoice.getNumber() -> {P}/model/Order.Invoice.number [exact]",
    ])
    unresolved = sorted((u.receiver, u.name) for f in result.files for u in f.unresolved)
    # o.pong(): Other has no pong and no extension of Other exists, and an extension is never guessed
    # by name; `Any` is a built-in type: that receiver is nobody's
    assert unresolved == [("o", "pong")]


def test_unknown_receivers_and_external_packages_stay_unresolved() -> None:
    result = resolve_fixture("""
// --- path: src/a/App.kt ---
package a

import io.ktor.server.routing.routing
import org.lib.Client

fun main(c: Client, x: Mystery) {
    routing { }
    c.send()
    x.run()
}
""")
    edges = [e for f in result.files for e in f.edges if e.kind == "CALLS"]
    assert edges == []
    assert sorted(u.name for f in result.files for u in f.unresolved) == ["run"]  # routing, send: external
