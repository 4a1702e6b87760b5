"""RTK Query endpoint definitions as HTTP requests (ecmascript/frameworks/rtk_query.py): exact facts and links."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.model import HttpCall, StringConstant, Template

API = b"""
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { BASE } from './constants';
const baseQuery = fetchBaseQuery({ baseUrl: BASE });
async function baseQueryWithReauth(args, api, extra) { return baseQuery(args, api, extra) }
export const api = createApi({
  baseQuery: baseQueryWithReauth,
  endpoints: (builder) => ({
    health: builder.query({ query: () => 'health' }),
    other: notBuilder.query({ query: () => '/nope' }),
  }),
});
"""


def test_endpoint_definitions_exact() -> None:
    # proshop-v2's slices: a string is a GET of that URL, an object its url and method (GET when none, `*` when
    # not a literal), a block body's each return, a method `query(id) {...}`; the injecting file names the api's
    # base (`api.baseUrl`), the declaring file puts its own before the URL with a `/` where the URL has none.
    # Not read: a queryFn (code, no request), another object's `query`, an endpoint without `query`
    ex = extractor_for_path("src/slices/api.js").extract("src/slices/api.js", API)
    assert ex.constants == [StringConstant("api.baseUrl", Template((("ref", "BASE"),)))]
    assert ex.http_calls == [
        HttpCall("rtk-query", "GET", Template((("ref", "BASE"), ("lit", "/health"))), "api", 9, 12)]
    products = b"""
import { api } from './api';
import { PRODUCTS_URL } from '../constants';
export const productsApi = api.injectEndpoints({
  endpoints: (build) => ({
    list: build.query({ query: ({ keyword }) => ({ url: PRODUCTS_URL, params: { keyword } }) }),
    top: build.query<Product[], void>({ query: () => `${PRODUCTS_URL}/top` }),
    remove: build.mutation({ query: (id) => ({ url: `${PRODUCTS_URL}/${id}`, method: 'DELETE' }) }),
    update: build.mutation({
      query(data) {
        if (data.patch) { return { url: `${PRODUCTS_URL}/${data.id}`, method: 'PATCH' } }
        return { url: `${PRODUCTS_URL}/${data.id}`, method: data.verb };
      },
    }),
    stats: build.query({ queryFn: async () => ({ data: await fetchStats() }) }),
    nothing: build.query({ providesTags: ['X'] }),
    external: build.query({ query: () => 'https://other.example.com/v1/rates' }),
  }),
});
"""
    ex = extractor_for_path("src/slices/products.ts").extract("src/slices/products.ts", products)
    base = ("ref", "api.baseUrl")
    assert [(h.method, h.url.parts, h.caller, h.line) for h in ex.http_calls] == [
        ("GET", (base, ("ref", "PRODUCTS_URL")), "productsApi", 6),
        ("GET", (base, ("ref", "PRODUCTS_URL"), ("lit", "/top")), "productsApi", 7),
        ("DELETE", (base, ("ref", "PRODUCTS_URL"), ("lit", "/"), ("ref", "id")), "productsApi", 8),
        ("PATCH", (base, ("ref", "PRODUCTS_URL"), ("lit", "/"), ("ref", "data.id")), "productsApi", 9),
        ("*", (base, ("ref", "PRODUCTS_URL"), ("lit", "/"), ("ref", "data.id")), "productsApi", 9),
        ("GET", (("lit", "https://other.example.com/v1/rates"),), "productsApi", 17),
    ]
    assert {h.framework for h in ex.http_calls} == {"rtk-query"}


FIXTURE = """
// --- path: server/routes.js ---
import express from 'express';
const app = express();
app.get('/api/products', (req, res) => res.json([]));
app.get('/api/products/:id', (req, res) => res.json({}));
app.delete('/api/products/:id', (req, res) => res.json({}));
// --- path: web/src/constants.js ---
export const BASE_URL = 'http://localhost:5000/';
export const PRODUCTS_URL = '/api/products';
// --- path: web/src/slices/apiSlice.js ---
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { BASE_URL } from '../constants';
export const apiSlice = createApi({ baseQuery: fetchBaseQuery({ baseUrl: BASE_URL }), endpoints: (builder) => ({}) });
// --- path: web/src/slices/productsApiSlice.js ---
import { apiSlice } from './apiSlice';
import { PRODUCTS_URL } from '../constants';
export const productsApiSlice = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
    getProducts: builder.query({ query: () => ({ url: PRODUCTS_URL }) }),
    getProduct: builder.query({ query: (id) => `${PRODUCTS_URL}/${id}` }),
    deleteProduct: builder.mutation({ query: (id) => ({ url: `${PRODUCTS_URL}/${id}`, method: 'DELETE' }) }),
  }),
});
// --- path: web/src/slices/other.js ---
import { apiSlice } from './apiSlice';
const notAnApi = { query: () => '/api/products' };
export const x = apiSlice.somethingElse({ endpoints: (builder) => ({ a: builder.query({ query: () => '/api/products' }) }) });
"""


def test_endpoint_definitions_link_to_the_routes_through_the_api_s_base():
    # the base of the api declared in another file (`http://localhost:5000/` + `/api/products`: one slash), each
    # definition a client of the Express route it names; nothing from a call that is no injection nor createApi
    from tests.resolution_harness import edges, resolve_fixture
    result = resolve_fixture(FIXTURE)
    assert sorted({str(e.props["url"]) for f in result.files for e in f.edges if e.kind == "CALLS_HTTP"}) == [
        "http://localhost:5000/api/products", "http://localhost:5000/api/products/{}"]
    got = [e for e in edges(result, "CALLS_HTTP") if "slices" in e]
    assert got == [
        "web/src/slices/productsApiSlice.productsApiSlice(0) -> endpoint:DELETE /api/products/{}",
        "web/src/slices/productsApiSlice.productsApiSlice(0) -> endpoint:GET /api/products",
        "web/src/slices/productsApiSlice.productsApiSlice(0) -> endpoint:GET /api/products/{}",
    ]
