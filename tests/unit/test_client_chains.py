"""HTTP client calls through layers of wrappers (indexer/frameworks/client_chains.py): a call handing a
literal path to a wrapper whose parameter flows, through more wrappers, into a request's URL is a client
call of that path, with the method fixed per wrapper or passed as a parameter. Exact edges, negatives."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

SERVER = """
# --- path: server/routes.ts ---
import Router from "koa-router";
const router = new Router();
router.post("/api/stars.create", starsCreate);
router.post("/api/stars.list", starsList);
router.get("/api/users.info", usersInfo);
router.put("/api/files.upload", filesUpload);
export function starsCreate(ctx) {}
export function starsList(ctx) {}
export function usersInfo(ctx) {}
export function filesUpload(ctx) {}
export default router;
"""

CLIENT = """
# --- path: app/client.ts ---
type Method = "GET" | "POST" | "PUT";
class Client {
  baseUrl = "/api";
  send = async (path: string, method: Method, data?: object) => {
    return fetch(this.baseUrl + path, { method, body: JSON.stringify(data) });
  };
  get = (path: string, data?: object) => this.send(path, "GET", data);
  post = (path: string, data?: object) => this.once(path, "POST", data);
  put(path: string, data?: object) { return this.once(path, "PUT", data); }
  private once = (path: string, method: Method, data?: object) => this.send(path, method, data);
  report(data: object) { return this.send(this.reportUrl(), "POST", data); }
  reportUrl() { return "/api/stars.list"; }
}
export const client = new Client();

# --- path: app/stores/stars.ts ---
import { client } from "../client";
export async function createStar(id: string) {
  return client.post("/stars.create", { id });
}
export async function listStars() {
  return client.post(`/stars.list`, {});
}
export function me() { return client.get("/users.info"); }
export function upload(f: object) { return client.put("/files.upload", f); }
export function missing() { return client.post("/nothing.here", {}); }
export function helper(path: string) { return client.post(path, {}); }
"""


def test_a_literal_path_through_three_layers_reaches_its_route_with_the_layers_method() -> None:
    result = resolve_fixture(SERVER + CLIENT)
    assert edges(result, "CALLS_HTTP") == sorted([
        "app/stores/stars.createStar(1) -> endpoint:POST /api/stars.create",
        "app/stores/stars.listStars(0) -> endpoint:POST /api/stars.list",
        "app/stores/stars.me(0) -> endpoint:GET /api/users.info",
        "app/stores/stars.upload(1) -> endpoint:PUT /api/files.upload",
        # a path no route serves is linked to its own endpoint, not to a wrong route
        "app/stores/stars.missing(0) -> endpoint:POST /api/nothing.here",
    ])


def test_layers_that_hand_their_parameter_on_are_no_requests_of_their_own() -> None:
    result = resolve_fixture(SERVER + CLIENT)
    sources = {e.split(" -> ")[0] for e in edges(result, "CALLS_HTTP")}
    # Client.get / post / put / once and helper(path) only forward `path`; the request in `send` is
    # linked through its callers, and report()'s URL is built from something else (no literal path)
    assert not any(s.startswith(("app/client.", "app/stores/stars.helper")) for s in sources)


NOT_A_PARAMETER = """
# --- path: app/other.ts ---
const BASE = "/api";
class Other {
  current = "/users.info";
  call = (path: string) => fetch(BASE + this.current);
  get(path: string) { return this.call(path); }
}
export const other = new Other();
export function who() { return other.get("/stars.create"); }
"""


def test_a_wrapper_whose_url_is_built_from_something_else_is_not_linked_by_its_argument() -> None:
    result = resolve_fixture(SERVER + NOT_A_PARAMETER)
    found = edges(result, "CALLS_HTTP")
    assert "app/other.who(0) -> endpoint:POST /api/stars.create" not in found
    assert not any(e.startswith("app/other.who(0)") for e in found)
    assert found == ["app/other.Other.call(1) -> endpoint:GET /api/users.info"]


SERVICE = """
# --- path: src/api.service.js ---
import axios from "axios";
const ApiService = {
  get(resource, slug = "") { return axios.get(`/api/${resource}/${slug}`); },
  post(resource, params) { return axios.post(`/api/${resource}`, params); },
};
export default ApiService;
export const ArticlesService = {
  get(slug) { return ApiService.get("articles", slug); },
  create(params) { return ApiService.post("articles", { article: params }); },
};

# --- path: src/store.js ---
import { ArticlesService } from "./api.service";
export function load() { return ArticlesService.get("how-to-train"); }
export function save(a) { return ArticlesService.create(a); }
"""


def test_a_service_layer_over_an_api_service_links_each_level_that_knows_a_path() -> None:
    result = resolve_fixture(SERVICE)
    assert edges(result, "CALLS_HTTP") == sorted([
        # the service methods pass "articles" (a path piece) themselves: linked there, as before
        "src/api.service.ArticlesService.create(1) -> endpoint:POST /api/articles",
        "src/api.service.ArticlesService.get(1) -> endpoint:GET /api/articles/{}",
        # and the store's literal slug through the service: /api/articles/how-to-train
        "src/store.load(0) -> endpoint:GET /api/articles/how-to-train",
    ])


COMPUTED = """
# --- path: src/store.js ---
import { ArticlesService } from "./api.service";
const FETCH = "fetch";
export const actions = {
  [FETCH](context, slug) { return ArticlesService.get(slug); },
};
"""


def test_a_parameter_handed_on_by_a_function_without_a_name_is_no_request_either() -> None:
    # `[FETCH](context, slug)` has no definition of its own (a computed name): its call only hands
    # `slug` on, which the extractor tells (UrlArgCall.params), so it links nothing beyond the service
    result = resolve_fixture(SERVICE.split("# --- path: src/store.js ---")[0] + COMPUTED)
    assert edges(result, "CALLS_HTTP") == sorted([
        "src/api.service.ArticlesService.create(1) -> endpoint:POST /api/articles",
        "src/api.service.ArticlesService.get(1) -> endpoint:GET /api/articles/{}",
    ])


BOTTOM = """
# --- path: app/api.ts ---
import retry from "fetch-retry";
type Options = { baseUrl?: string };
class ApiClient {
  baseUrl: string;
  constructor(options: Options = {}) {
    this.baseUrl = options.baseUrl || "/api";
  }
  fetch = async (path: string, method: string, data?: object, options: { baseUrl?: string; retry?: boolean } = {}) => {
    let modifiedPath: string | undefined;
    let urlToFetch: string;
    if (method === "GET" && data) {
      modifiedPath = `${path}?${encode(data)}`;
    }
    if (path.match(/^http/)) {
      urlToFetch = modifiedPath || path;
    } else {
      urlToFetch = (options.baseUrl ?? this.baseUrl) + (modifiedPath || path);
    }
    const send = (input, init) => {
      return fetch(input, init);
    };
    return (options.retry === false ? send : retry(send))(urlToFetch, { method, body: JSON.stringify(data) });
  };
  post = (path: string, data?: object) => this.fetch(path, "POST", data);
  get = (path: string, data?: object) => this.fetch(path, "GET", data);
}
export const client = new ApiClient();

# --- path: app/stores/stars.ts ---
import { client } from "../api";
export async function createStar(id: string) { return client.post("/stars.create", { id }); }
export function me() { return client.get("/users.info", { id: 1 }); }
"""


def test_the_request_of_a_local_function_called_through_a_retry_wrapper_with_a_joined_url() -> None:
    # outline's ApiClient shape: a local `let` given in branches, an option's default (`options.baseUrl ??
    # this.baseUrl`, the field set once in the constructor to `options.baseUrl || "/api"`), a local
    # function called through `retry(send)`, the method in the init object
    result = resolve_fixture(SERVER + BOTTOM)
    assert edges(result, "CALLS_HTTP") == sorted([
        "app/stores/stars.createStar(1) -> endpoint:POST /api/stars.create",
        "app/stores/stars.me(0) -> endpoint:GET /api/users.info",
    ])


LOADERS = """
# --- path: shared/files.ts ---
export async function toBase64(url: string) { return fetch(url, { cache: "no-store" }); }
export async function discover(issuer: string) {
  let wellKnown: string;
  if (issuer.includes("/.well-known")) {
    wellKnown = issuer;
  } else {
    const u = new URL(issuer);
    wellKnown = u.toString();
  }
  return fetch(wellKnown);
}
export async function resource(url: string, type = "oembed") {
  return fetch(`${HOST}/${type}?url=${encodeURIComponent(url)}`);
}
const HOST = "https://iframe.ly/api";

# --- path: app/editor.ts ---
import { toBase64, discover, resource } from "../shared/files";
const EMPTY = "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=";
export function open(src?: string) {
  const source = src || EMPTY;
  return toBase64(source);
}
export function conf() { return discover("https://id.example.com"); }
export function unfurl(url: string) { return resource(url); }
"""


def test_data_urls_computed_locals_and_missing_url_arguments_are_not_linked() -> None:
    result = resolve_fixture(SERVER + LOADERS)
    assert edges(result, "CALLS_HTTP") == [
        # unfurl(url) passes nothing where the URL names `type`: resource's own request stays linked
        "shared/files.resource(2) -> endpoint:GET /api/{}",
    ]


VUE = """
# --- path: server/app.js ---
const express = require("express");
const app = express();
app.get("/api/articles/:slug", show);
app.get("/api/tags", tags);
function show(req, res) {}
function tags(req, res) {}
module.exports = app;

# --- path: client/config.js ---
export const API_URL = "https://conduit.example.com/api";

# --- path: client/api.js ---
import Vue from "vue";
import axios from "axios";
import { API_URL } from "./config";
export const ApiService = {
  init() { Vue.axios.defaults.baseURL = API_URL; },
  get(resource, slug = "") { return Vue.axios.get(`${resource}/${slug}`); },
};
export const Articles = { get(slug) { return ApiService.get("articles", slug); } };
export const Tags = { get() { return ApiService.get("tags"); } };

# --- path: client/page.js ---
import { Articles } from "./api";
export function first() { return Articles.get("hello"); }
"""


def test_an_axios_base_and_a_named_url_are_joined_by_one_slash() -> None:
    # axios combineURLs puts one `/` between baseURL and a relative URL: /api + articles/hello; a
    # parameter left out holds its default (`slug = ""`: /api/tags/, not /api/tags/{})
    result = resolve_fixture(VUE)
    assert edges(result, "CALLS_HTTP") == sorted([
        "client/api.Articles.get(1) -> endpoint:GET /api/articles/{}",
        "client/api.Tags.get(0) -> endpoint:GET /api/tags",
        "client/page.first(0) -> endpoint:GET /api/articles/{}",  # /api/articles/hello, served by :slug
    ])


CATCH_ALL = """
# --- path: server/pages.ts ---
import Router from "koa-router";
const router = new Router();
router.get("/:slug", page);
export function page(ctx) {}
export default router;

# --- path: server/embed.ts ---
export async function resource(url: string, type = "oembed") {
  const api = process.env.DEFAULT ? `${process.env.HOST}/api` : process.env.HOST;
  return fetch(`${api}/${type}?url=${encodeURIComponent(url)}`);
}
"""


def test_a_catch_all_route_is_no_evidence_between_a_calls_urls() -> None:
    # both ways of building the URL stay: GET /{} (the catch-all route matches anything) does not
    # make `/api/{}` the wrong one
    result = resolve_fixture(CATCH_ALL)
    assert edges(result, "CALLS_HTTP") == sorted([
        "server/embed.resource(2) -> endpoint:GET /api/{}",
        "server/embed.resource(2) -> endpoint:GET /{}",
    ])


PARTIAL = """
# --- path: server/routes.ts ---
import Router from "koa-router";
const router = new Router();
router.post("/api/shares.info", sharesInfo);
router.post("/api/pins.info", pinsInfo);
export function sharesInfo(ctx) {}
export function pinsInfo(ctx) {}
export default router;

# --- path: app/client.ts ---
class Client {
  send = (path: string, method: string) => {
    let url: string;
    if (path.match(/^http/)) {
      url = path;
    } else {
      url = "/api" + path;
    }
    return fetch(url, { method });
  };
  post = (path: string) => this.send(path, "POST");
}
export const client = new Client();
export function info(kind: string) { return client.post(`/${kind}.info`); }
export function starred() { return client.post("/documents.starred"); }
"""


def test_of_a_calls_urls_the_ones_whose_shape_or_prefix_routes_confirm_are_kept() -> None:
    # `/api/{}.info` matches the routes' /api/shares.info (the bare `/{}.info` matches none);
    # `/api/documents.starred` is served by no route but lives under their /api (`/documents.starred` not)
    result = resolve_fixture(PARTIAL)
    assert edges(result, "CALLS_HTTP") == sorted([
        "app/client.info(1) -> endpoint:POST /api/{}.info",
        "app/client.starred(0) -> endpoint:POST /api/documents.starred",
    ])
