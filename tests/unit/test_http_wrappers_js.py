"""Candidate calls of thin HTTP wrappers in JavaScript / TypeScript (ecmascript/frameworks/http_wrappers.py)
and ``import.meta.env`` / ``process.env`` constants (js_constants.py): exact facts."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.model import StringConstant, Template, UrlArgCall

SOURCE = b"""
const API = import.meta.env.VITE_API_URL;
const LEGACY = process.env.REACT_APP_API;
const user = process.env.USER.toLowerCase();
export function load(id: string, p: string) {
  console.log("/not/a/call");
  request("/orders");
  api.get(`orders/${id}`, { cache: true });
  request(ORDERS);
  request(Paths.ORDERS + "/x");
  request(p);
  request("hello there");
  fetch("/direct");
  t(someVariable);
  make().get("/chained");
}
"""


def _extract():
    ex = extractor_for_path("a.ts")
    assert ex is not None
    return ex.extract("a.ts", SOURCE)


def test_url_argument_calls_exact() -> None:
    out = _extract()
    assert out.url_arg_calls == [
        UrlArgCall("request", (Template((("lit", "/orders"),)),), "load", 7, 2),
        UrlArgCall("api.get", (Template((("lit", "orders/"), ("ref", "id"))), None), "load", 8, 2, ("id",),
                   fields=((1, "cache", None),)),  # the options object's properties (no string among them)
        UrlArgCall("request", (Template((("ref", "ORDERS"),)),), "load", 9, 2),
        UrlArgCall("request", (Template((("ref", "Paths.ORDERS"), ("lit", "/x"))),), "load", 10, 2),
        # `p` is load's parameter: a layer handing its URL on (client_chains); `someVariable` is not
        UrlArgCall("request", (Template((("ref", "p"),)),), "load", 11, 2, ("p",)),
    ]


def test_environment_variables_are_constants_of_one_ref() -> None:
    out = _extract()
    assert out.constants == [
        StringConstant("API", Template((("ref", "import.meta.env.VITE_API_URL"),))),
        StringConstant("LEGACY", Template((("ref", "process.env.REACT_APP_API"),))),
    ]


OPTIONS = """
// --- path: src/utils/Request.ts ---
interface IRequestParams { url: string; method?: string; body?: object }
const request = async <T>({ url = '', method = 'GET', body, queryParams = {} }: IRequestParams): Promise<T> => {
  const response = await fetch(`${url}?${new URLSearchParams(queryParams).toString()}`, {
    method,
    body: body ? JSON.stringify(body) : undefined,
  });
  return response.json();
};
export default request;
// --- path: src/utils/send.js ---
export function send({ path: p, verb: v = 'GET' }, extra) {
  return fetch(`/v2${p}`, { method: v, extra })
}
// --- path: src/gateways/Api.gateway.ts ---
import request from '../utils/Request';
import { send } from '../utils/send';
const basePath = '/api';
const Apis = () => ({
  getCart(currencyCode: string) {
    return request<string>({ url: `${basePath}/cart`, queryParams: { currencyCode } });
  },
  addCartItem(item: object) {
    return request<string>({ url: `${basePath}/cart`, body: { item }, method: 'POST' });
  },
  emptyCart() {
    return request<undefined>({ method: 'DELETE', url: `${basePath}/cart` });
  },
  nothing() {
    return request<undefined>({ method: 'DELETE' });
  },
  other(opts: object) {
    return request<undefined>(opts);
  },
  renamed() {
    return send({ path: '/orders', verb: 'PUT' }, 1);
  },
  notMine() {
    return dispatch({ type: 'orders/loaded' });
  },
});
export default Apis();
"""


def test_an_options_object_bound_to_a_destructured_wrapper_parameter():
    # `request({ url: `${basePath}/cart`, method: 'POST' })` of `({ url, method }) => fetch(url, { method })`:
    # each property in the place of the name the parameter binds (renamed ones too: `{ path: p }`), the
    # base path a module constant, the method the wrapper's when none is given. Not linked: a call passing
    # no URL (nothing), an object the call does not write (other), a function that wraps no client
    # (dispatch), the wrapper's own fetch (its URL is its callers')
    from tests.resolution_harness import edges, resolve_fixture
    assert edges(resolve_fixture(OPTIONS), "CALLS_HTTP") == [
        "src/gateways/Api.gateway.Apis.return.addCartItem(1) -> endpoint:POST /api/cart",
        "src/gateways/Api.gateway.Apis.return.emptyCart(0) -> endpoint:DELETE /api/cart",
        "src/gateways/Api.gateway.Apis.return.getCart(1) -> endpoint:GET /api/cart",
        "src/gateways/Api.gateway.Apis.return.renamed(0) -> endpoint:PUT /v2/orders",
    ]
    fn = next(d for d in extractor_for_path("s.js").extract("s.js", OPTIONS.split("// --- path: src/utils/send.js ---")[1]
                                                          .split("// ---")[0].encode()).definitions if d.name == "send")
    assert [(p.name, p.fields) for p in fn.params] == [("{ path: p, verb: v = 'GET' }", (("path", "p"), ("verb", "v"))),
                                                        ("extra", ())]


DEFAULTS = """
// --- path: src/http.js ---
import axios from "axios"
export const api = axios.create({ baseURL: "/api" })
const local = axios.create({ baseURL: "/v1" })
export const request = ({ url = '', method = 'POST', body } = {}) => fetch(url, { method, body })
export function send(url, method = 'PUT') { return fetch(url, { method }) }
export function any(url, method) { return fetch(url, { method }) }
export function renamed({ path: p, verb: v = 'PATCH' }) { return fetch(p, { method: v }) }
export function mine() { return local("/users") }
export function mineConfig(id) { return local({ url: `/users/${id}`, method: 'delete' }) }
export function notInstance() { return axios.create("/x") }
// --- path: src/use.js ---
import { api, request, send, any, renamed } from "./http"
function opaque() { return 1 }
export function calls(opts) {
  request({ url: '/api/articles' })
  request({ url: '/api/articles/1', method: 'GET' })
  request(opts)
  send('/api/tags')
  send('/api/tags', 'DELETE')
  any('/api/any')
  renamed({ path: '/api/r' })
  api("/orders")
  api({ url: "/orders/2", method: "put" })
  api({ method: "put" })
  opaque("/nothing")
}
"""


def test_a_wrapper_s_default_method_and_a_callable_axios_instance():
    # acc62: a call leaving out the wrapper's method takes the parameter's literal default (plain,
    # destructured, renamed: POST, PUT, PATCH), one giving it takes its own; an axios instance is called
    # itself as axios is (`api("/orders")`: GET; `api({ url, method })`), in its file or an importer's,
    # its base put before the URL. Not: an opaque options object or a method with no default (`*`,
    # written GET by the linker: no POST invented), a config without `url`, a function that is no
    # instance (opaque), the instance factory itself
    from tests.resolution_harness import edges, resolve_fixture
    assert edges(resolve_fixture(DEFAULTS), "CALLS_HTTP") == [
        "src/http.mine(0) -> endpoint:GET /v1/users",
        "src/http.mineConfig(1) -> endpoint:DELETE /v1/users/{}",
        "src/use.calls(1) -> endpoint:DELETE /api/tags",
        "src/use.calls(1) -> endpoint:GET /api/any",
        "src/use.calls(1) -> endpoint:GET /api/articles/1",
        "src/use.calls(1) -> endpoint:GET /api/orders",
        "src/use.calls(1) -> endpoint:PATCH /api/r",
        "src/use.calls(1) -> endpoint:POST /api/articles",
        "src/use.calls(1) -> endpoint:PUT /api/orders/2",
        "src/use.calls(1) -> endpoint:PUT /api/tags",
    ]


OPTIONS_PARAMETER = """
// --- path: src/constants/index.js ---
export const API_BASE_URL = process.env.REACT_APP_API_BASE_URL || 'http://localhost:8080/api';
// --- path: src/util/APIUtils.js ---
import { API_BASE_URL } from '../constants';
const request = (options) => {
    const defaults = {headers: {}};
    options = Object.assign({}, defaults, options);
    return fetch(options.url, options).then(r => r.json());
};
function deep(config) { return fetch(config.api.url, config) }
export function getAllPolls(page, size) {
    return request({ url: API_BASE_URL + "/polls?page=" + page + "&size=" + size, method: 'GET' });
}
export function castVote(voteData) {
    return request({ url: API_BASE_URL + "/polls/" + voteData.pollId + "/votes", method: 'POST' });
}
export function me() { return request({ url: API_BASE_URL + "/user/me" }) }
export function opaque(opts) { return request(opts) }
export function nested() { return deep({ api: { url: API_BASE_URL + "/nested" } }) }
"""


def test_a_wrapper_reading_its_options_parameter_s_url():
    # `request(options)` calling `fetch(options.url, options)` (callicoder's polls app, create-react-app
    # wrappers): each call's `url` property in the place of `options.url`, its `method` the request's
    # (GET when the object has none), the base a constant of another module (`process.env.X || 'lit'`).
    # Not linked: an options object the call does not write (opaque: no URL invented), a property two levels
    # down (`config.api.url`), and the wrapper's own fetch (its URL is its callers')
    from tests.resolution_harness import edges, resolve_fixture
    assert edges(resolve_fixture(OPTIONS_PARAMETER), "CALLS_HTTP") == [
        "src/util/APIUtils.castVote(1) -> endpoint:POST /api/polls/{}/votes",
        "src/util/APIUtils.getAllPolls(2) -> endpoint:GET /api/polls",
        "src/util/APIUtils.me(0) -> endpoint:GET /api/user/me",
    ]


EMPTY_BASE = """
// --- path: src/constants.js ---
export const BASE_URL = '';
export const EMPTY = ``;
export const COMPUTED = compute('');
// --- path: src/api.js ---
import { BASE_URL, EMPTY, COMPUTED } from './constants';
export function load() { return fetch(BASE_URL + '/api/items') }
export function loadEmpty() { return fetch(`${EMPTY}/api/tags`) }
export function loadComputed() { return fetch(COMPUTED + '/api/other') }
"""


def test_an_empty_string_constant_is_an_empty_base():
    # proshop-v2's `export const BASE_URL = ''` (same origin, a development proxy): the URL is the path itself, not
    # one of unknown start; a value that is computed stays unknown
    from tests.resolution_harness import resolve_fixture
    result = resolve_fixture(EMPTY_BASE)
    assert sorted((e.src.rsplit(".", 1)[1], e.dst, str(e.props["url"])) for f in result.files for e in f.edges
                  if e.kind == "CALLS_HTTP") == [
        ("load(0)", "endpoint:GET /api/items", "/api/items"),
        ("loadComputed(0)", "endpoint:GET /api/other", "{}/api/other"),
        ("loadEmpty(0)", "endpoint:GET /api/tags", "/api/tags"),
    ]
