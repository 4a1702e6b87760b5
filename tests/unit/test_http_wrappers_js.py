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
        UrlArgCall("api.get", (Template((("lit", "orders/"), ("ref", "id"))), None), "load", 8, 2, ("id",)),
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
