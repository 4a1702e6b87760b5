"""Finding a factory's member by the name its call sites write (session 61): the functions of an object
literal a factory returns are ``F.return.m`` (``CartGateway.return.getCart``), and ``export default
CartGateway()`` makes importers write ``CartGateway.getCart(id)``. ``ripple callers CartGateway.getCart``,
the MCP / REST ``symbol`` tool and workspace symbols find the member by that written name
(``stores.qualified_symbols``, ``analysis.navigation.symbol_candidates``); a name two factories share is
ambiguous and lists both; a qualifier the member does not have finds nothing."""

from __future__ import annotations


import pytest

from analysis.agent_queries import AgentQueries, TargetError
from analysis.navigation import callers, dotted_name, find_targets, lookup
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from stores.qualified_symbols import module_name, qualified_query, qualifier_agrees, written_qualname
from tests.resolution_harness import write_tree
from tests.index_harness import index_files

_TREE = {
    "src/gateways/Cart.gateway.ts": """
const CartGateway = () => ({
  getCart(userId: string) { return userId },
  addItem: (userId: string) => userId,
})
export default CartGateway()
""",
    "src/gateways/Shop.gateway.ts": """
const ShopGateway = () => ({
  getCart(shopId: string) { return shopId },
})
export default ShopGateway()
""",
    "src/pages/api/cart.ts": """
import CartGateway from "../../gateways/Cart.gateway"
import ShopGateway from "../../gateways/Shop.gateway"

export async function handler(id: string) {
  await CartGateway.getCart(id)
  await ShopGateway.getCart(id)
}
""",
    "src/other.ts": "export function getCart(id: string) { return id }\n",
}

CART = "web:src/gateways/Cart.gateway.CartGateway.return.getCart(1)"
SHOP = "web:src/gateways/Shop.gateway.ShopGateway.return.getCart(1)"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedStore:
    return index_files(tmp_path_factory.mktemp("factory_names") / "web", _TREE, "web")


def test_written_qualname_and_qualified_query():
    assert written_qualname("CartGateway.return.getCart") == "CartGateway.getCart"
    assert written_qualname("a.return.b.return.c") == "a.b.c"
    assert written_qualname("return.x") == "return.x"  # first and last segments kept
    assert written_qualname("F.return") == "F.return"
    assert written_qualname("Model.save") == "Model.save"
    assert qualified_query(" CartGateway.getCart ") == (["CartGateway"], "getCart")
    assert qualified_query("a.b.c") == (["a", "b"], "c")
    assert qualified_query("getCart") is None
    assert qualified_query("owner con") is None
    assert qualified_query("a..b") is None
    assert qualified_query(".x") is None
    assert qualifier_agrees("CartGateway.return.getCart", ["cart_gateway"])
    assert qualifier_agrees("CartGateway.return.getCart", [])
    assert not qualifier_agrees("CartGateway.return.getCart", ["Gateway"])  # whole parts only
    assert not qualifier_agrees("CartGateway.return.getCart", ["return"])
    assert not qualifier_agrees("getCart", ["CartGateway"])


def test_callers_by_the_written_name(store):
    assert [n.id for n in find_targets(store, "CartGateway.getCart")] == [CART]
    assert [n.id for n in find_targets(store, "CartGateway.getCart(1)")] == [CART]
    assert [n.id for n in find_targets(store, "src.gateways.Cart.gateway.CartGateway.getCart")] == [CART]
    assert [n.id for n in find_targets(store, "CartGateway.return.getCart")] == [CART]  # the stored name still works
    refs = callers(store, find_targets(store, "CartGateway.getCart"))
    assert [(r.source.qualname, r.line, r.resolution) for r in refs] == [("handler", 6, "exact")]
    # not: another factory's member, a qualifier the member lacks
    assert find_targets(store, "Cart.getCart") == []
    assert find_targets(store, "ShopGateway.addItem") == []


def test_a_name_two_factories_share_lists_both(store):
    targets, others = lookup(store, "getCart")
    assert sorted(n.id for n in [*targets, *others]) == [CART, SHOP, "web:src/other.getCart(1)"]
    targets, others = lookup(store, "ShopGateway.getCart")
    assert [n.id for n in targets] == [SHOP] and others == []


def test_agent_symbol_answers_by_the_written_name(store):
    q = AgentQueries(store, store)
    answer = q.symbol("CartGateway.getCart")
    assert [item["id"] for item in answer.result["definitions"]] == [CART]
    bare = q.symbol("getCart")  # the function whose qualname is the text, the members listed beside
    assert [item["id"] for item in bare.result["definitions"]] == ["web:src/other.getCart(1)"]
    assert sorted(n["id"] for n in bare.result["also_named"]) == [CART, SHOP]
    with pytest.raises(TargetError):
        q.symbol("Cart.getCart")


def test_workspace_symbols_by_the_written_name(store):
    assert [n.id for n in store.search_symbols("CartGateway.getCart", 10)][:1] == [CART]
    assert [n.id for n in store.search_symbols("cart_gateway.getCart", 10)][:1] == [CART]
    assert CART not in [n.id for n in store.search_symbols("ShopGateway.getCart", 10)]
    assert [n.id for n in store.search_symbols("Gateway.getCart", 10)] == []  # whole parts only


_DEFAULTS = {
    "src/agent.js": """
export default {
  setToken: t => t,
  get(url) { return url },
}
""",
    "src/api/index.ts": "export default { list() { return 1 } }\n",
    "src/App.js": """
import agent from "./agent"
import api from "./api"
export function boot() { agent.setToken("t"); return api.list() }
""",
    "tools/util.py": "def default():\n    def inner():\n        return 1\n    return inner()\n",
}
SET_TOKEN = "web:src/agent.default.setToken(1)"
LIST = "web:src/api/index.default.list(0)"


@pytest.fixture(scope="module")
def defaults(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedStore:
    root = tmp_path_factory.mktemp("default_names")
    write_tree(root / "web", _DEFAULTS)
    s = EmbeddedStore(root / "x.db")
    index_repository(root / "web", s, s, IndexOptions(repo="web", jobs=1))
    return s


def test_module_name_and_the_written_default_export():
    assert module_name("src/agent.js") == "agent"
    assert module_name("src/gateways/Cart.gateway.ts") == "Cart.gateway"
    assert module_name("src/api/index.ts") == "api"
    assert module_name("index.js") == ""
    assert written_qualname("default.setToken", "src/agent.js") == "agent.setToken"
    assert written_qualname("default.make.return.get", "src/api/index.ts") == "api.make.get"
    # not: without the file, a `default` alone, another language's `default`, a root index, a Vue options object
    assert written_qualname("default.setToken") == "default.setToken"
    assert written_qualname("default", "src/agent.js") == "default"
    assert written_qualname("default.inner", "tools/util.py") == "default.inner"
    assert written_qualname("default.x", "index.js") == "default.x"
    assert written_qualname("default.data", "src/App.vue") == "default.data"
    assert qualifier_agrees("default.setToken", ["agent"], "src/agent.js")
    assert not qualifier_agrees("default.setToken", ["agent"])
    assert not qualifier_agrees("default.setToken", ["default"], "src/agent.js")


def test_a_default_exported_object_member_by_the_module_name(defaults):
    # `export default { setToken }` in src/agent.js is written `agent.setToken` where it is imported
    assert [n.id for n in find_targets(defaults, "agent.setToken")] == [SET_TOKEN]
    assert [n.id for n in find_targets(defaults, "api.list")] == [LIST]
    assert [n.id for n in find_targets(defaults, "default.setToken")] == [SET_TOKEN]  # the stored name still works
    [node] = find_targets(defaults, "agent.setToken")
    assert dotted_name(node) == "agent.setToken"
    refs = callers(defaults, [node])
    assert [(r.source.qualname, r.line, r.resolution) for r in refs] == [("boot", 4, "exact")]
    assert [n.id for n in defaults.search_symbols("agent.setToken", 10)][:1] == [SET_TOKEN]
    # not: a module that is not its file, a Python function's nested `default.inner` by the module's name
    assert find_targets(defaults, "App.setToken") == []
    assert find_targets(defaults, "util.inner") == []
    [inner] = find_targets(defaults, "default.inner")
    assert dotted_name(inner) == "util.default.inner"  # its module, not a JS default export
