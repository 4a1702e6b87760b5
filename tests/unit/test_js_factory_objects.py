"""Factory objects in JavaScript / TypeScript (ecmascript/returned_objects.py, the extractor's
``_returned`` definitions, ``exported_results``): the functions of an object literal a function
returns (``const F = () => ({ get() {} })``, ``return { put: function () {} }``) are definitions of
their own under ``F.return``, so calls in their bodies are theirs; ``export default F()`` and
``export const api = F()`` are objects whose members resolve in importing files. Exact edges, and
what must not be linked: a property another factory's object has, a ``let``-held object that is
reassigned, a literal returned by an anonymous callback, a generator's literal."""

from indexer.languages import extractor_for_path
from tests.resolution_harness import check

GATEWAY = """
import { CartServiceClient } from "../protos/demo"

const client = new CartServiceClient("cart:7070")

function log(m: string) { return m }

const CartGateway = () => ({
  getCart(userId: string) {
    log(userId)
    return client.getCart({ userId })
  },
  addItem: (userId: string) => {
    log("add")
    return client.addItem({ userId })
  },
  emptyCart: function (userId: string) {
    return this.getCart(userId)
  },
})

export default CartGateway()
"""

FIXTURE = f"""
// --- path: src/gateways/Cart.gateway.ts ---
{GATEWAY}
// --- path: src/gateways/Other.gateway.ts ---
function makeOther() {{
  function ping() {{ return 2 }}
  return {{
    getCart() {{ return ping() }},
    other() {{ return 1 }},
  }}
}}

function makeConst() {{
  const api = {{ reload() {{ return ping2() }} }}
  return api
}}

function makeLet() {{
  let api = {{ refresh() {{ return 3 }} }}
  api = {{ refresh: ping2 }}
  return api
}}

function* makeMany() {{
  return {{ drain() {{ return 4 }} }}
}}

function ping2() {{ return 5 }}

export const other = makeOther()
export const held = makeConst()
export const moved = makeLet()
export const many = makeMany()
export default makeOther
// --- path: src/gateways/Module.gateway.js ---
function makeApi(base) {{
  return {{
    list: () => fetchAll(base),
  }}
}}
function fetchAll(b) {{ return b }}
export default makeApi("/api")
register(() => ({{ hidden() {{ return fetchAll(1) }} }}))
// --- path: src/pages/api/cart.ts ---
import CartGateway from "../../gateways/Cart.gateway"
import api from "../../gateways/Module.gateway"
import {{ other, held, moved, many }} from "../../gateways/Other.gateway"

export async function handler(id: string) {{
  await CartGateway.getCart(id)
  await CartGateway.addItem(id)
  await CartGateway.emptyCart(id)
  CartGateway.other()
  other.getCart()
  held.reload()
  moved.refresh()
  many.drain()
  api.list()
}}
"""


def test_factory_object_methods_and_their_importers():
    check(FIXTURE, [
        "src/gateways/Cart.gateway.CartGateway.return.addItem(1) -> src/gateways/Cart.gateway.log(1) [exact]",
        # `this.getCart` in a property function: the object it is called on
        "src/gateways/Cart.gateway.CartGateway.return.emptyCart(1) -> src/gateways/Cart.gateway.CartGateway.return.getCart(1) [exact]",
        "src/gateways/Cart.gateway.CartGateway.return.getCart(1) -> src/gateways/Cart.gateway.log(1) [exact]",
        "src/gateways/Cart.gateway.ts -> src/gateways/Cart.gateway.CartGateway(0) [exact]",
        "src/gateways/Module.gateway.js -> src/gateways/Module.gateway.fetchAll(1) [exact]",  # the anonymous callback's
        "src/gateways/Module.gateway.js -> src/gateways/Module.gateway.makeApi(1) [exact]",
        "src/gateways/Module.gateway.makeApi.return.list(0) -> src/gateways/Module.gateway.fetchAll(1) [exact]",
        "src/gateways/Other.gateway.makeConst.api.reload(0) -> src/gateways/Other.gateway.ping2(0) [exact]",
        "src/gateways/Other.gateway.makeOther.return.getCart(0) -> src/gateways/Other.gateway.makeOther.ping(0) [exact]",
        "src/gateways/Other.gateway.ts -> src/gateways/Other.gateway.makeConst(0) [exact]",
        "src/gateways/Other.gateway.ts -> src/gateways/Other.gateway.makeLet(0) [exact]",
        "src/gateways/Other.gateway.ts -> src/gateways/Other.gateway.makeMany(0) [exact]",
        "src/gateways/Other.gateway.ts -> src/gateways/Other.gateway.makeOther(0) [exact]",
        "src/pages/api/cart.handler(1) -> src/gateways/Cart.gateway.CartGateway.return.addItem(1) [exact]",
        "src/pages/api/cart.handler(1) -> src/gateways/Cart.gateway.CartGateway.return.emptyCart(1) [exact]",
        "src/pages/api/cart.handler(1) -> src/gateways/Cart.gateway.CartGateway.return.getCart(1) [exact]",
        "src/pages/api/cart.handler(1) -> src/gateways/Module.gateway.makeApi.return.list(0) [exact]",
        "src/pages/api/cart.handler(1) -> src/gateways/Other.gateway.makeConst.api.reload(0) [exact]",
        "src/pages/api/cart.handler(1) -> src/gateways/Other.gateway.makeOther.return.getCart(0) [exact]",
        # moved.refresh(): a `let` reassigned returns no known object; only the unique name matches, as before
        "src/pages/api/cart.handler(1) -> src/gateways/Other.gateway.makeLet.api.refresh(0) [name]",
        # not: CartGateway.other() (makeOther's object has `other`, CartGateway's has not),
        # many.drain() (a generator's literal is no function of its own)
    ])


def test_factory_object_definitions_bindings_and_default_export_exactly():
    ex = extractor_for_path("g.ts").extract("g.ts", GATEWAY.encode())
    assert [(d.qualname, d.parent, d.kind) for d in ex.definitions] == [
        ("log", None, "function"),
        ("CartGateway", None, "function"),
        ("CartGateway.return.getCart", "CartGateway.return", "function"),
        ("CartGateway.return.addItem", "CartGateway.return", "function"),
        ("CartGateway.return.emptyCart", "CartGateway.return", "function"),
    ]
    assert [(b.scope, b.name, b.type, b.how) for b in ex.bindings if b.how in ("object", "alias")] == [
        ("CartGateway", "return", "return", "object"),
    ]
    assert [(b.scope, b.name, b.type, b.how) for b in ex.bindings if b.name == "default"] == [
        (None, "default", "CartGateway", "constructed"),
    ]
    assert [(e.exported, e.local) for e in ex.exports] == [("default", "default")]
    calls = {(c.caller, c.name) for c in ex.calls}
    assert ("CartGateway.return.getCart", "getCart") in calls  # client.getCart: the method's own call
    assert not any(c.caller == "CartGateway" for c in ex.calls)


def test_no_default_export_of_a_call_of_what_returns_no_object():
    source = "import { memo } from 'react'\nfunction Page() { return 1 }\nfunction make() { return 2 }\n" \
             "export default make()\n"
    ex = extractor_for_path("p.ts").extract("p.ts", source.encode())
    assert ex.exports == []
    assert [b for b in ex.bindings if b.name == "default"] == []
    wrapped = "import { memo } from 'react'\nfunction Page() { return { go() {} } }\nexport default memo(Page)\n"
    ex = extractor_for_path("w.ts").extract("w.ts", wrapped.encode())
    assert [(e.exported, e.local) for e in ex.exports] == [("default", "Page")]
    assert [b for b in ex.bindings if b.name == "default"] == []


NESTED = """
// --- path: src/gw/Nested.gateway.js ---
function Gateway() {
  function getCart(id) { return load(id) }
  const load = (id) => id
  return { getCart }
}
export default Gateway()
// --- path: src/gw/Other.js ---
export function getCart(id) { return id }
// --- path: src/api/cart.js ---
import Gateway from "../gw/Nested.gateway"

export function handler(id) {
  Gateway.getCart(id)
  Gateway.load(id)
}
"""


def test_default_export_of_a_factory_returning_its_nested_functions():
    # `{ getCart }` through `export default Gateway()`: the nested function exactly (not Other.getCart,
    # a namesake); `load` is no property of the returned object, so Gateway.load(id) binds nothing
    check(NESTED, [
        "src/api/cart.handler(1) -> src/gw/Nested.gateway.Gateway.getCart(1) [exact]",
        "src/gw/Nested.gateway.Gateway.getCart(1) -> src/gw/Nested.gateway.Gateway.load(1) [exact]",
        "src/gw/Nested.gateway.js -> src/gw/Nested.gateway.Gateway(0) [exact]",
    ])


AGENT = """
// --- path: src/agent.js ---
const requests = { get: url => url }
const Articles = {
  favorite: slug => requests.get(slug),
  all: page => requests.get(page),
}
const Auth = { login: (e, p) => requests.get(e) }
const port = 3000
export default {
  Articles,
  Auth,
  port,
}
// --- path: src/components/ArticlePreview.js ---
import agent from '../agent'
const mapDispatchToProps = dispatch => ({
  favorite: slug => dispatch({ payload: agent.Articles.favorite(slug) }),
  onSubmit: (e, p) => dispatch({ payload: agent.Auth.login(e, p) }),
})
function handle(props) {
  props.favorite("x")
  agent.Articles.missing()
  agent.port()
}
"""


def test_default_exported_object_literal_and_a_redux_map_dispatch_to_props():
    # react-redux's `mapDispatchToProps = dispatch => ({ favorite: slug => ... })`: its functions are
    # F.return.*, and `export default { Articles }` (agent.js) makes agent.Articles.favorite exact.
    # Not linked: props.favorite (an unknown receiver, two functions named favorite), a property the
    # object lacks (missing), a property naming a number (port)
    check(AGENT, [
        "src/agent.Articles.all(1) -> src/agent.requests.get(1) [exact]",
        "src/agent.Articles.favorite(1) -> src/agent.requests.get(1) [exact]",
        "src/agent.Auth.login(2) -> src/agent.requests.get(1) [exact]",
        "src/components/ArticlePreview.mapDispatchToProps.return.favorite(1) -> src/agent.Articles.favorite(1) [exact]",
        "src/components/ArticlePreview.mapDispatchToProps.return.onSubmit(2) -> src/agent.Auth.login(2) [exact]",
    ])
    ex = extractor_for_path("src/agent.js").extract("src/agent.js", AGENT.split("// --- path: src/components")[0]
                                                    .split("---\n", 1)[1].encode())
    assert [(b.scope, b.name, b.type, b.how) for b in ex.bindings if "default" in (b.scope, b.name)] == [
        (None, "default", "default", "object"),
        ("default", "Articles", "Articles", "alias"),
        ("default", "Auth", "Auth", "alias"),
    ]
    assert [(e.exported, e.local) for e in ex.exports] == [("default", "default")]


BEYOND = """
// --- path: src/factory.js ---
export function makeApi(base) {
  return {
    list: () => fetchAll(base),
    one() { return 1 },
  }
}
export function makeNumber() { return 7 }
function fetchAll(b) { return b }
export class Store {
  load(id) { return id }
}
// --- path: src/cjsfactory.js ---
function makeCjs() { return { two() { return 2 } } }
class Box { open() { return 3 } }
module.exports = { makeCjs, Box }
// --- path: src/api2.js ---
import { makeApi } from "./factory"
export default makeApi("/y")
// --- path: src/number.js ---
import { makeNumber } from "./factory"
export default makeNumber()
// --- path: src/emitter.js ---
import { EventEmitter } from "events"
export default new EventEmitter()
// --- path: src/cjs.js ---
const { makeCjs } = require("./cjsfactory")
module.exports = makeCjs()
// --- path: src/again.js ---
module.exports = require("./cjs")
// --- path: src/inst.js ---
import { Store } from "./factory"
export default new Store()
// --- path: src/inst2.js ---
const { Box } = require("./cjsfactory")
module.exports = new Box()
// --- path: src/obj.js ---
export default {
  setToken: t => helper(t),
  get() { return helper(2) },
  plain,
}
function helper(x) { return x }
function plain() { return 3 }
// --- path: src/use.js ---
import api2 from "./api2"
import num from "./number"
import emitter from "./emitter"
import store from "./inst"
import obj from "./obj"
const cjs = require("./cjs")
const box = require("./inst2")
export function use() {
  api2.list()
  api2.missing()
  num.toFixed()
  emitter.on("x")
  cjs.two()
  box.open()
  box.close()
  store.load(1)
  obj.setToken(1)
  obj.get()
  obj.plain()
}
"""


def test_factories_beyond_a_same_file_default_export():
    # `export default F()` of an imported F, `module.exports = F()`, `export default new X()`,
    # `module.exports = new X()` (its methods are X's), and the inline functions of
    # `export default { setToken: t => ... }` (definitions `default.setToken`). Not linked: a member
    # the factory's object lacks (api2.missing), what an imported function returning a number or a
    # library's class gives (num.toFixed, emitter.on), a method the class lacks (box.close)
    check(BEYOND, [
        "src/api2.js -> src/factory.makeApi(1) [exact]",
        "src/cjs.js -> src/cjsfactory.makeCjs(0) [exact]",
        "src/factory.makeApi.return.list(0) -> src/factory.fetchAll(1) [exact]",
        "src/inst.js -> src/factory.Store [exact]",
        "src/inst2.js -> src/cjsfactory.Box [exact]",
        "src/number.js -> src/factory.makeNumber(0) [exact]",
        "src/obj.default.get(0) -> src/obj.helper(1) [exact]",
        "src/obj.default.setToken(1) -> src/obj.helper(1) [exact]",
        "src/use.use(0) -> src/cjsfactory.Box.open(0) [exact]",
        "src/use.use(0) -> src/cjsfactory.makeCjs.return.two(0) [exact]",
        "src/use.use(0) -> src/factory.Store.load(1) [inferred]",
        "src/use.use(0) -> src/factory.makeApi.return.list(0) [exact]",
        "src/use.use(0) -> src/obj.default.get(0) [exact]",
        "src/use.use(0) -> src/obj.default.setToken(1) [exact]",
        "src/use.use(0) -> src/obj.plain(0) [exact]",
    ])


def test_what_a_default_export_of_a_call_or_instance_binds_exactly():
    def bound(path: str, source: str) -> tuple[list, list]:
        ex = extractor_for_path(path).extract(path, source.encode())
        return ([(b.scope, b.name, b.type, b.how) for b in ex.bindings if b.name == "default"],
                [(e.exported, e.local) for e in ex.exports])

    assert bound("a.js", 'import { make } from "./f"\nexport default make(1)\n') == (
        [(None, "default", "make", "constructed")], [("default", "default")])
    assert bound("b.js", 'const { Box } = require("./f")\nmodule.exports = new Box()\n') == (
        [(None, "default", "Box", "constructed")], [("default", "default")])
    assert bound("c.js", "class Box {}\nexport default new Box()\n") == (
        [(None, "default", "Box", "constructed")], [("default", "default")])
    # not: `require` itself, a name neither defined nor imported, a function of the file that returns no object
    assert bound("d.js", 'module.exports = require("./x")\n') == ([], [])
    assert bound("e.js", "export default make(1)\n") == ([], [])
    assert bound("f.js", "function Box() { return 1 }\nexport default new Box()\n") == ([], [])
    obj = "export default {\n  setToken: t => t,\n  get() { return 1 },\n  n: 5,\n}\n"
    ex = extractor_for_path("o.js").extract("o.js", obj.encode())
    assert [(d.qualname, d.parent) for d in ex.definitions] == [("default.setToken", "default"), ("default.get", "default")]
    assert bound("o.js", obj) == ([(None, "default", "default", "object")], [("default", "default")])


FALLBACK = """
// --- path: src/DateTime.ts ---
export default class DateTime {
  commands() {
    return { date: () => 1 }
  }
}
// --- path: src/Search.ts ---
export default class Search {
  commands() {
    return { nextSearchMatch: () => 1 }
  }
}
// --- path: src/Comment.ts ---
export class Comment { toPlainText() { return "" } }
// --- path: src/Placeholder.ts ---
export class Placeholder { schema() { return { toPlainText: () => "" } } }
// --- path: src/use.ts ---
export function use(result: any, editor: any, comment: any, other: any) {
  result.start.date()
  editor.commands.nextSearchMatch()
  other.nextSearchMatch()
  comment.toPlainText()
}
// --- path: src/Preview.js ---
const mapDispatchToProps = dispatch => ({ onClick: x => dispatch(x) })
function Preview(props) { props.onClick(1) }
// --- path: src/github.ts ---
const requestPlugin = (octokit: any) => ({ requestRepos: () => octokit.paginate() })
export const CustomOctokit = Octokit.plugin(requestPlugin)
// --- path: src/Provider.ts ---
import { CustomOctokit } from "./github"
export function fetchSources(client: any) { return client.requestRepos() }
// --- path: src/Home.js ---
import Tags from "./Tags"
const mapDispatchToProps = dispatch => ({ onClickTag: (tag) => dispatch(tag) })
// --- path: src/Tags.js ---
export default function Tags(props) { return props.onClickTag("t") }
// --- path: src/Unrelated.js ---
export function other(props) { return props.onClickTag("t") }
// --- path: src/Panel.js ---
export default class Panel { render() { return this.props.onClose(1) } }
export function close(handle) { return handle.onClose(2) }
// --- path: src/Panel.test.js ---
import Panel from "./Panel"
const makeProps = () => ({ onClose: (x) => x })
// --- path: src/Board.js ---
export function board(props) { return props.onClose(3) }
"""


def test_factory_members_in_the_name_fallback_only_where_the_call_may_reach_them():
    # outline (js60): a factory member is a name candidate for a call in its own file (react-redux's
    # props.onClick), on a receiver named after the factory (editor.commands.x() of `commands()`), or
    # in a file importing the factory's (octokit's client.requestRepos() of a plugin).
    # Not: chrono's result.start.date() -> DateTime.commands.return.date, other.nextSearchMatch(),
    # Unrelated's props.onClickTag, nor Tags' (Home imports Tags, not the other way: a test file
    # imports what it tests too); and Placeholder.schema.return.toPlainText no longer hides the one
    # class method comment.toPlainText()
    # acc62: React hands `props` down from the module rendering the component, which imports it: Tags'
    # props.onClickTag and Panel's this.props.onClose are Home's / the test's factory members. Not:
    # Unrelated's props.onClickTag, Panel's handle.onClose() (a receiver no parent hands down: outline's
    # handle.cleanup() of a test's factory), Board's props.onClose (the test does not import Board)
    check(FALLBACK, [
        "src/Panel.Panel.render(0) -> src/Panel.test.makeProps.return.onClose(1) [name]",
        "src/Preview.Preview(1) -> src/Preview.mapDispatchToProps.return.onClick(1) [name]",
        "src/Provider.fetchSources(1) -> src/github.requestPlugin.return.requestRepos(0) [name]",
        "src/Tags.Tags(1) -> src/Home.mapDispatchToProps.return.onClickTag(1) [name]",
        "src/github.CustomOctokit(0) -> src/github.requestPlugin(1) [exact]",  # the plugin handed to Octokit
        "src/use.use(4) -> src/Comment.Comment.toPlainText(0) [name]",
        "src/use.use(4) -> src/Search.Search.commands.return.nextSearchMatch(0) [name]",
    ])
