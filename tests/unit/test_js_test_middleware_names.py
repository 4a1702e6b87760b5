"""Names inside inline test callbacks and middleware (koa's test suite shape): a function a helper
assigns onto its parameter's object (``res.setHeader = ...``) is a name-fallback target only from files
importing that helper (:func:`indexer.resolve.calls` ``_foreign_patch``); an item binding
(``const [res] = ...``) is dropped as ambiguous only by bindings of the same inline callback
(:mod:`indexer.languages.ecmascript.elements`)."""

from __future__ import annotations

from indexer.languages.ecmascript.javascript import EXTRACTOR
from tests.resolution_harness import resolve_fixture

FILES = """
// --- path: helpers/context.js ---
module.exports = (req, res) => {
  res.setHeader = (k, v) => { res.headers[k] = v }
  return { req, res }
}
// --- path: lib/response.js ---
module.exports = {
  set (field, val) {
    this.res.setHeader(field, val)
  }
}
// --- path: tests/respond.test.js ---
const { it } = require('node:test')
it('middleware', () => {
  app.use((ctx) => {
    const res = ctx.res
    res.setHeader('a', 'b')
  })
})
// --- path: tests/get.test.js ---
const { it } = require('node:test')
const context = require('../helpers/context')
it('helper', () => {
  const ctx = context()
  ctx.res.setHeader('a', 'b')
})
"""


def _calls(src: str) -> list[tuple[str, int, str, str]]:
    result = resolve_fixture(src)
    return sorted((e.src.split(":", 1)[1], e.line, e.dst.split(":", 1)[1], e.resolution)
                  for f in result.files for e in f.edges if e.kind == "CALLS")


def test_a_parameter_patch_binds_by_name_only_where_its_module_is_imported() -> None:
    assert [c for c in _calls(FILES) if "setHeader" in c[2]] == [
        # get.test.js hands its objects through the helper: its `ctx.res` is the patched one
        ("tests/get.test.it helper(0)", 5, "helpers/context.default.res.setHeader(2)", "name"),
    ]  # negative: respond.test.js's middleware `res` and lib/response.js's `this.res` (never the helper's)


def test_item_bindings_of_two_inline_callbacks_are_two_variables() -> None:
    src = b"""const { once } = require('events')
it('a', async () => {
  const [res] = await once(req, 'response')
  res.destroy()
})
it('b', async () => {
  const res = await request(app).get('/')
  res.body()
})
it('c', async () => {
  const [res] = pair()
  const [res2] = pair()
  let res2 = other
})
"""
    out = EXTRACTOR.extract("t.test.js", src)
    got = sorted((b.scope or "", b.name, b.type, b.how, b.line) for b in out.bindings if b.name.startswith("res"))
    assert got == [
        ("it a", "res", "once()[0]", "item", 3),  # kept: test b's `res` is another variable
        ("it b", "res", "request().get", "constructed", 7),
        ("it c", "res", "pair()[0]", "item", 11),
        ("it c", "res2", "other", "alias", 13),  # negative: res2 bound otherwise in its callback, no item
    ]
