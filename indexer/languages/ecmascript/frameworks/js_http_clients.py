"""Outgoing HTTP calls in JavaScript / TypeScript: ``fetch``, axios, Angular's ``HttpClient``, supertest, request.

Facts (:class:`~indexer.model.HttpCall`), from ``indexer/languages/ecmascript/queries/http_clients.scm``:

* ``fetch`` (also ``window.`` / ``globalThis.`` / ``self.fetch``; a bare ``fetch`` only when the file
  does not bind that name itself -- parameter, variable, function, destructuring; imports such as
  ``node-fetch`` do count -- and the first argument is no object literal): ``fetch(url)`` is ``GET``;
  ``fetch(url, {method: "post"})`` ``POST``; an init that is not an object literal, or a method that is
  not a literal, ``*`` (a method given by a name, ``{ method }``, keeps that name: ``HttpCall.method_param``). ``fetch(new Request(url, init))`` reads the request's arguments.
* axios: the receivers are the names the file imports from ``"axios"`` (default or namespace import,
  ``require``; a global ``axios`` when nothing is imported), property chains ending in ``axios`` /
  ``$axios`` (vue-axios ``Vue.axios``, Nuxt ``this.$axios``) and the instances the file creates
  from them (``const api = axios.create({baseURL})``, ``this.api = axios.create(...)``, any scope).
  ``axios.get|delete|head|options(url, config)``, ``axios.post|put|patch(url, data, config)``,
  ``axios(url, config)``, ``axios(config)``, ``axios.request(config)``: the method is the verb, or the
  config's ``method`` (``GET`` when absent, ``*`` when not a literal), the URL the config's ``url``
  when not given first. The base (a config's ``baseURL``, else the instance's, else
  ``axios.defaults.baseURL = ...`` of this file) is put before a URL that has no scheme, with one
  ``/`` between them where the literal ends show them. A module-level instance is also a
  :class:`~indexer.model.StringConstant` ``NAME.defaults.baseURL`` (its base, empty when none: it is
  what axios calls that property), so the linker can put it before the URL of ``NAME.get("/x")`` in a
  file importing ``NAME`` (a :class:`~indexer.model.UrlArgCall` there).
* Angular ``HttpClient``: ``R.get|post|put|delete|patch|head|options(url, ...)``, ``R.jsonp(url, cb)``
  (``GET``), ``R.request("GET", url, ...)`` (a request whose method is not a literal is ``*``; one
  built as ``new HttpRequest(...)`` is skipped). ``R`` (``this.http``) is an HttpClient when (1) the
  file binds that name to the declared type ``HttpClient`` (constructor parameter, parameter property,
  field) or to ``inject(HttpClient)``; or (2) no binding gives it another type, it is not an imported
  name, and its last part is ``http`` / ``httpClient`` (any case, one leading ``_`` or ``$``
  allowed: AngularJS's injected ``$http`` is read alike, and ``$http({method, url})`` too, whose
  method is ``*`` when not given).
* supertest (tests of an Express / Koa / NestJS application): ``R.get|post|put|delete|patch|head|
  options(url)`` whose receiver ``R`` is a call of a name the file imports from ``"supertest"`` (or of
  its ``agent``): ``request(app.getHttpServer()).get("/articles")``, ``request(app).post("/x")``;
  the framework ``supertest``, ``supertest-nest`` when the application is ``X.getHttpServer()`` (a
  NestJS application the test creates, whose global prefix the linker puts back:
  :meth:`indexer.frameworks.app_prefixes.AppPrefixLinks.client_url`; a name the file binds to
  ``X.getHttpServer()`` too). A request kept in a variable (``const api = supertest(app)``, ``const
  agent = request.agent(app)``, ``agent = request(app.getHttpServer())`` in a ``beforeAll``) is read
  as written in place when every value the file gives that name is such a call (``let agent;``
  declares none): ``api.get("/users")``.

* request (the npm ``request`` package and its drop-in forks and wrappers: ``request-promise``,
  ``request-promise-native``, ``postman-request``; the names the file imports from them, any local
  name): ``request(url, cb)`` / ``request(url, options, cb)`` / ``request(options, cb)`` and
  ``request.get|post|put|patch|del|delete|head(url or options, ...)``. The method is the verb (``del``
  is ``DELETE``), else the options' ``method`` (``GET`` when absent, ``*`` when not a literal); the URL
  is the string argument, else the options' ``url`` or ``uri``, after the options' ``baseUrl``.

URLs are :meth:`~indexer.languages.ecmascript.frameworks.common.JsFile.template` values (literal text, ``ref`` for
names and ``${name}`` / ``${obj.prop}``, ``this.x`` as ``Class.x``, ``hole`` for other expressions). A
URL built with a conditional (``"/articles" + (feed ? "/feed" : "")``) is one call per branch
(:meth:`~indexer.languages.ecmascript.frameworks.common.JsFile.alternatives`), at the same position.
``caller`` follows the extractor's ``CallSite.caller`` rule; the position is the call's start.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, merge_parts, unwrap
from indexer.model import FileExtraction, HttpCall, StringConstant, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")

_GLOBALS = frozenset({"window", "globalThis", "self"})
_AXIOS_PROPERTIES = frozenset({"axios", "$axios"})  # vue-axios `Vue.axios`, Nuxt `this.$axios`
_AXIOS_URL_FIRST = frozenset({"get", "delete", "head", "options"})
_AXIOS_DATA_SECOND = frozenset({"post", "put", "patch"})
_ANGULAR_VERBS = frozenset({"get", "post", "put", "delete", "patch", "head", "options"})
_HTTP_NAME = re.compile(r"^[_$]?(http|httpclient)$", re.IGNORECASE)
_HTTP_SERVER = re.compile(r"\.\s*getHttpServer\s*\(\s*\)\s*$")
_ABSOLUTE = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*:)?//")
_ABSOLUTE_ORIGIN = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?//[^/?#]*")
_MAX_BRANCHES = 8
"""The most branches of a conditional ``baseURL`` read (:func:`base_template`)."""
_REQUEST_MODULES = ("request", "request-promise", "request-promise-native", "postman-request")
_REQUEST_VERBS = frozenset({"get", "post", "put", "patch", "del", "delete", "head"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's fetch / axios / Angular HttpClient calls to ``out``."""
    jf = js_file(root, src, out)
    matches = jf.matches("http_clients")
    request = _request_locals(jf)
    if request:
        matches = matches + _request_calls(jf, request)
    if not matches:
        return
    _Detector(jf, out).run(matches)


def _request_locals(jf: JsFile) -> frozenset[str]:
    """The local names the file binds to the ``request`` package (or a fork) itself."""
    return frozenset(k for k, v in jf.import_locals(*_REQUEST_MODULES).items() if v in (None, "default"))


def _request_calls(jf: JsFile, names: frozenset[str]) -> list[dict[str, list[Node]]]:
    """``name(...)`` and ``name.del(...)`` calls of ``names`` as the query's captures (the query takes
    the functions ``fetch`` / ``axios`` / ``$http`` only, and no ``del``; ``name.get(...)`` it matches)."""
    out: list[dict[str, list[Node]]] = []
    stack = [jf.root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "call_expression":
            continue
        fn, args = n.child_by_field_name("function"), n.child_by_field_name("arguments")
        if fn is None or args is None or args.type != "arguments":
            continue
        if fn.type == "identifier" and jf.text(fn) in names:
            out.append({"call": [n], "function": [fn], "args": [args]})
        elif fn.type == "member_expression" and jf.text(fn.child_by_field_name("property")) == "del" and \
                jf.receiver(fn.child_by_field_name("object")) in names:
            out.append({"call": [n], "receiver": [fn.child_by_field_name("object")],
                        "method": [fn.child_by_field_name("property")], "args": [args]})
    out.sort(key=lambda caps: caps["call"][0].start_byte)
    return out


class _Detector:
    def __init__(self, jf: JsFile, out: FileExtraction) -> None:
        self.jf = jf
        self.out = out
        locals_ = jf.import_locals("axios")
        self.axios = {k for k, v in locals_.items() if v in (None, "default")} or {"axios"}
        self.instances: dict[str, Template] = {}  # axios instance -> its baseURL (empty: none)
        self.default_base = Template()
        self.fetch_bound = False  # the file binds `fetch` itself
        self.http_clients: set[str] = set()  # receivers bound to HttpClient
        self.other_types: set[str] = set()  # receivers bound to another type
        # supertest: `request(app).get("/x")`, `request.agent(server).post(...)` (any local name)
        self.supertest = set(jf.import_locals("supertest"))
        self.request = _request_locals(jf)
        self.servers: set[str] | None = None  # names bound to `X.getHttpServer()` (:meth:`_servers`)
        self.agents: dict[str, Node] | None = None  # names bound to a supertest request (:meth:`_agents`)
        self.method_name: str | None = None  # the name giving the current call's method (:meth:`_method`)
        for b in out.bindings:
            if b.how == "declared":
                (self.http_clients if b.type == "HttpClient" else self.other_types).add(b.name)

    def run(self, matches: list[dict[str, list[Node]]]) -> None:
        calls = []
        for caps in matches:
            if "instance" in caps:
                self._instance(caps)
            elif "default_base" in caps:
                if self._is_axios(self.jf.receiver(caps["factory"][0])):
                    self.default_base = self.jf.template(caps["default_base"][0])
            elif "fetch_binding" in caps:
                self.fetch_bound = True
            elif "injected" in caps:
                if self.jf.text(caps["injected"][0]) == "HttpClient":
                    self.http_clients.add("this." + self.jf.text(caps["field"][0]))
            else:
                calls.append(caps)
        if self.instances:
            calls += self._instance_calls()
        for caps in calls:
            self.method_name = None
            for framework, method, url in self.jf.alternatives(lambda caps=caps: self._call(caps)):
                call = caps["call"][0]
                line, col = self.jf.pos(call)
                named = self.method_name if method == "*" else None
                refs = {t for k, t in url.parts if k == "ref"}
                if named is not None:  # a method parameter's default is the method of a call giving none
                    refs.add(named)
                defaults = tuple(d for d in self.jf.parameter_defaults(call) if d[0] in refs)
                self.out.http_calls.append(HttpCall(framework, method, url, self.jf.code_scope(call), line, col,
                                                    method_param=named, defaults=defaults))

    def _instance(self, caps: dict[str, list[Node]]) -> None:
        if self.jf.receiver(caps["factory"][0]) not in self.axios:
            return
        args = arguments(caps["args"][0])
        config = self.jf.object_pairs(args[0]) if args else {}
        base = config.get("baseURL")
        name = self.jf.receiver(caps["instance"][0])
        self.instances[name] = _base_template(self.jf, base) if base else Template()
        if "." not in name and self.jf.code_scope(caps["instance"][0]) is None:  # module level: other files import it
            self.out.constants.append(StringConstant(f"{name}.defaults.baseURL", self.instances[name]))

    def _instance_calls(self) -> list[dict[str, list[Node]]]:
        """The captures of each call of an axios instance itself (``api("/users")``, ``api({ url })``,
        ``this.api(url)``: an instance is callable as ``axios`` is), in source order; read only in a
        file creating one."""
        out: list[dict[str, list[Node]]] = []
        stack = [self.jf.root]
        while stack:
            n = stack.pop()
            if n.type == "call_expression":
                fn, args = n.child_by_field_name("function"), n.child_by_field_name("arguments")
                if fn is not None and args is not None and fn.type in ("identifier", "member_expression") \
                        and self.jf.text(fn) in self.instances:
                    out.append({"call": [n], "function": [fn], "args": [args]})
            stack.extend(reversed(n.children))
        return out

    # -- one call --------------------------------------------------------------------------------

    def _call(self, caps: dict[str, list[Node]]) -> tuple[str, str, Template] | None:
        jf = self.jf
        args = arguments(caps["args"][0])
        if "function" in caps:
            name = jf.text(caps["function"][0])
            if name in self.instances:  # `api(url)` of `const api = axios.create({ baseURL })`
                return self._axios(None, args, self.instances[name])
            if name == "fetch":
                if self.fetch_bound or (args and (unwrap(args[0]) or args[0]).type == "object"):
                    return None  # a local `fetch`, not the global one (which takes no object literal)
                return self._fetch(args)
            if name in self.request:
                return self._request(None, args)
            if name in self.axios:
                return self._axios(None, args, self.default_base)
            if name == "$http" and args:
                config = jf.object_pairs(args[0])
                if "url" in config:
                    method = self._method(config["method"]) if "method" in config else "*"
                    return "angular", method, jf.template(config["url"])
            return None
        receiver = jf.receiver(caps["receiver"][0])
        method = jf.text(caps["method"][0])
        if self.supertest and method in _ANGULAR_VERBS and args:
            app = self._supertest_app(caps["receiver"][0])
            if app is not None:
                nest = _HTTP_SERVER.search(jf.text(app)) is not None if app.type == "call_expression" else \
                    app.type == "identifier" and jf.text(app) in self._servers()
                return ("supertest-nest" if nest else "supertest"), method.upper(), jf.template(args[0])
        if receiver in self.request:
            return self._request(method, args)
        if method == "fetch":
            return self._fetch(args) if receiver in _GLOBALS else None
        if self._is_axios(receiver):
            return self._axios(method, args, self.default_base)
        if receiver in self.instances:
            return self._axios(method, args, self.instances[receiver])
        if self._is_http_client(receiver):
            return self._angular(method, args)
        return self._request_config(method, args)

    def _request_config(self, verb: str, args: list[Node]) -> tuple[str, str, Template] | None:
        """``client.post({url: "/api/items", ...})``: any receiver's verb called with one request
        configuration whose ``url`` is a path or an absolute URL written in the call (the SDKs
        @hey-api/openapi-ts generates, ofetch-style wrappers); ``request({url, method})`` takes the
        config's method (``*`` when not a literal), and so does ``request({path, method})`` (the
        ``this.request({path: `/articles/${slug}`, method: "GET"})`` of the clients swagger-typescript-api
        generates). A ``url`` that is a bare name, or no first literal ``/`` or scheme, is no request one
        can tell."""
        if len(args) != 1 or (verb not in _ANGULAR_VERBS and verb != "request"):
            return None
        first = unwrap(args[0]) or args[0]
        if first.type != "object":
            return None
        config = self.jf.object_pairs(first)
        key = "url" if "url" in config else "path" if verb == "request" and "path" in config else None
        url = self.jf.template(config[key]) if key is not None else None
        head = url.parts[0] if url is not None and url.parts else None
        if head is None or head[0] != "lit" or not (head[1].startswith("/") or _ABSOLUTE.match(head[1])):
            return None
        if verb != "request":
            return "request-config", verb.upper(), url
        return "request-config", self._method(config["method"]) if "method" in config else "*", url

    def _request(self, verb: str | None, args: list[Node]) -> tuple[str, str, Template] | None:
        """A call of the ``request`` package: ``request(url | options, [options], cb)`` (``verb``
        ``None``) or ``request.<verb>(url | options, ...)``."""
        if not args or verb is not None and verb not in _REQUEST_VERBS:
            return None
        first = unwrap(args[0]) or args[0]
        if first.type == "object":
            options, url_node = self.jf.object_pairs(first), None
        else:
            second = (unwrap(args[1]) or args[1]) if len(args) > 1 else None
            options = self.jf.object_pairs(second) if second is not None and second.type == "object" else {}
            url_node = args[0]
        url_node = url_node or options.get("url") or options.get("uri")
        if url_node is None:
            return None
        if verb is not None:
            method = "DELETE" if verb == "del" else verb.upper()
        else:
            method = self._method(options["method"]) if "method" in options else "GET"
        url = self.jf.template(url_node)
        if "baseUrl" in options:
            url = _with_base(self.jf.template(options["baseUrl"]), url)
        return "request", method, url

    def _fetch(self, args: list[Node]) -> tuple[str, str, Template] | None:
        if not args:
            return None
        target, init = unwrap(args[0]) or args[0], args[1] if len(args) > 1 else None
        if target.type == "new_expression" and self.jf.text(target.child_by_field_name("constructor")) == "Request":
            inner = arguments(target.child_by_field_name("arguments"))
            if not inner:
                return None
            target, init = inner[0], inner[1] if len(inner) > 1 else init
        method = "GET"
        if init is not None:
            pairs = self.jf.object_pairs(init)
            if not pairs and (unwrap(init) or init).type != "object":
                method = "*"
                if (unwrap(init) or init).type == "identifier":  # fetch(input, init): init's method
                    self.method_name = self.jf.text(unwrap(init) or init) + ".method"
            elif "method" in pairs:
                method = self._method(pairs["method"])
        return "fetch", method, self.jf.template(target)

    def _axios(self, verb: str | None, args: list[Node], base: Template) -> tuple[str, str, Template] | None:
        jf = self.jf
        if not args:
            return None
        url_node: Node | None
        config_node: Node | None
        if verb is None or verb == "request":
            first = unwrap(args[0]) or args[0]
            if first.type == "object":
                url_node, config_node = None, first
            elif verb is None:
                url_node, config_node = args[0], args[1] if len(args) > 1 else None
            else:
                return None
        elif verb in _AXIOS_URL_FIRST:
            url_node, config_node = args[0], args[1] if len(args) > 1 else None
        elif verb in _AXIOS_DATA_SECOND:
            url_node, config_node = args[0], args[2] if len(args) > 2 else None
        else:
            return None
        config = jf.object_pairs(config_node)
        if url_node is None:
            url_node = config.get("url")
            if url_node is None:
                return None
        if verb is None or verb == "request":
            method = self._method(config["method"]) if "method" in config else "GET"
        else:
            method = verb.upper()
        if "baseURL" in config:
            base = _base_template(jf, config["baseURL"])
        return "axios", method, _with_base(base, jf.template(url_node))

    def _servers(self) -> set[str]:
        """Names the file binds to ``X.getHttpServer()`` (``const httpServer = app.getHttpServer()``,
        ``server = app.getHttpServer()``; any scope), read once."""
        if self.servers is None:
            self.servers = set()
            stack = [self.jf.root]
            while stack:
                n = stack.pop()
                name = value = None
                if n.type == "variable_declarator":
                    name, value = n.child_by_field_name("name"), n.child_by_field_name("value")
                elif n.type == "assignment_expression":
                    name, value = n.child_by_field_name("left"), n.child_by_field_name("right")
                value = unwrap(value) or value if value is not None else None
                if name is not None and name.type == "identifier" and value is not None and \
                        value.type == "call_expression" and _HTTP_SERVER.search(self.jf.text(value)):
                    self.servers.add(self.jf.text(name))
                stack.extend(n.named_children)
        return self.servers

    def _agents(self) -> dict[str, Node]:
        """The supertest request (the call node) each name of the file is bound to, when every value the
        file assigns that name is one (``const api = supertest(app)``, ``agent = request.agent(app)``,
        ``this.api = request(server)``; any scope), read once."""
        if self.agents is None:
            found: dict[str, Node] = {}
            other: set[str] = set()
            stack = [self.jf.root]
            while stack:
                n = stack.pop()
                stack.extend(n.named_children)
                if n.type == "variable_declarator":
                    name, value = n.child_by_field_name("name"), n.child_by_field_name("value")
                elif n.type == "assignment_expression":
                    name, value = n.child_by_field_name("left"), n.child_by_field_name("right")
                else:
                    continue
                if name is None or value is None or name.type not in ("identifier", "member_expression"):
                    continue
                key, value = self.jf.text(name), unwrap(value) or value
                if value.type == "call_expression" and self._built(value):
                    found[key] = value
                else:
                    other.add(key)
            self.agents = {k: v for k, v in found.items() if k not in other}
        return self.agents

    def _built(self, call: Node) -> bool:
        """Whether ``call`` builds a supertest request: a call of a name imported from ``supertest``
        or of its ``agent``."""
        fn = unwrap(call.child_by_field_name("function")) or call.child_by_field_name("function")
        if fn is not None and fn.type == "member_expression" and self.jf.text(fn.child_by_field_name("property")) == "agent":
            fn = fn.child_by_field_name("object")
        return fn is not None and fn.type == "identifier" and self.jf.text(fn) in self.supertest

    def _supertest_app(self, node: Node) -> Node | None:
        """The application argument when ``node`` (a verb's receiver) is a supertest request built in
        place: a call of a name imported from ``supertest`` or of its ``agent``
        (``request(app.getHttpServer())``, ``request(app)``, ``request(APP_URL)``,
        ``request.agent(app)``); else ``None``."""
        node = unwrap(node) or node
        if node.type == "identifier" or node.type == "member_expression" and self.jf.text(node).startswith("this."):
            node = self._agents().get(self.jf.text(node), node)  # `api.get("/x")` of `const api = request(app)`
        if node.type != "call_expression":
            return None
        fn = unwrap(node.child_by_field_name("function")) or node.child_by_field_name("function")
        if fn is not None and fn.type == "member_expression" and self.jf.text(fn.child_by_field_name("property")) == "agent":
            fn = fn.child_by_field_name("object")
        if fn is None or fn.type != "identifier" or self.jf.text(fn) not in self.supertest:
            return None
        args = arguments(node.child_by_field_name("arguments"))
        return (unwrap(args[0]) or args[0]) if args else None

    def _is_axios(self, receiver: str) -> bool:
        return receiver in self.axios or receiver.rpartition(".")[2] in _AXIOS_PROPERTIES

    def _is_http_client(self, receiver: str) -> bool:
        if receiver in self.http_clients:
            return True
        if receiver in self.other_types:
            return False
        head, _, last = receiver.rpartition(".")
        if not head and self.jf.imported(receiver) is not None:
            return False
        return head in ("", "this") and bool(_HTTP_NAME.match(last))

    def _angular(self, verb: str, args: list[Node]) -> tuple[str, str, Template] | None:
        if verb in _ANGULAR_VERBS and args:
            return "angular", verb.upper(), self.jf.template(args[0])
        if verb == "jsonp" and args:
            return "angular", "GET", self.jf.template(args[0])
        if verb == "request" and len(args) >= 2:
            if (unwrap(args[0]) or args[0]).type == "new_expression":
                return None
            return "angular", self._method(args[0]), self.jf.template(args[1])
        return None

    def _method(self, node: Node) -> str:
        value = self.jf.string(node)
        if value:
            return value.strip().upper()
        bare = unwrap(node) or node
        if bare.type in ("identifier", "shorthand_property_identifier"):
            self.method_name = self.jf.text(bare)  # `{ method }`: the name gives it (HttpCall.method_param)
        return "*"


def _base_template(jf: JsFile, node: Node) -> Template:
    """An axios ``baseURL``'s template: a conditional whose branches are all literals naming the same path
    (``isDev ? "http://localhost:8080/api" : "/api"``, ``prod ? "//shop.example" : "//localhost:8000"``) is that
    path after an unknown origin (a ``hole``, then ``/api``, or ``/`` for none: the linker reaches the endpoint its
    known end names, :mod:`indexer.frameworks.known_ends`), or the literal when every branch is the same; any
    other conditional, or branches naming different paths, a ``hole``; anything else :meth:`JsFile.template`."""
    inner = unwrap(node) or node
    if inner.type != "ternary_expression":
        return jf.template(node)
    branches: list[str] = []
    stack = [inner]
    while stack and len(branches) <= _MAX_BRANCHES:
        top = stack.pop()
        n = unwrap(top) or top
        if n.type == "ternary_expression":
            stack.extend(c for c in (n.child_by_field_name("alternative"), n.child_by_field_name("consequence"))
                         if c is not None)
            continue
        lit = jf.template(n).literal()
        if lit is None:
            return Template((("hole", jf.flat(inner)),))
        branches.append(lit)
    if not branches or stack:
        return Template((("hole", jf.flat(inner)),))
    if len(set(branches)) == 1:
        return Template.of(branches[0])
    paths = {(b[m.end():] if (m := _ABSOLUTE_ORIGIN.match(b)) else b).split("?")[0].strip("/") for b in branches}
    if len(paths) != 1:
        return Template((("hole", jf.flat(inner)),))
    return Template((("hole", jf.flat(inner)), ("lit", "/" + paths.pop())))


def _with_base(base: Template, url: Template) -> Template:
    """``base`` put before ``url`` (axios ``combineURLs``: one ``/`` between them) unless ``url`` starts with a
    scheme or ``//``."""
    if not base.parts:
        return url
    first = url.parts[0] if url.parts else ("lit", "")
    if first[0] == "lit" and _ABSOLUTE.match(first[1]):
        return url
    b, u = list(base.parts), list(url.parts)
    if b[-1][0] == "lit" and (not u or u[0][0] == "lit"):
        b[-1] = ("lit", b[-1][1].rstrip("/"))
        if u:
            u[0] = ("lit", "/" + u[0][1].lstrip("/"))
    elif u and not (b[-1][0] == "lit" and b[-1][1].endswith("/")) and not (u[0][0] == "lit" and u[0][1].startswith("/")):
        u.insert(0, ("lit", "/"))  # a name on either side: axios puts one `/` between (`//` folded when linked)
    return Template(merge_parts(b + u))
