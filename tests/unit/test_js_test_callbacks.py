"""Inline mocha / jest / vitest / jasmine / Playwright callbacks are functions of their own
(:mod:`indexer.languages.ecmascript.frameworks.test_callbacks`): the calls in a test belong to the test,
nested in its suite, as a pytest test function owns its calls; exact definitions and callers, and what
is no test callback."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import edges, resolve_fixture

SPEC = """\
import { helper, other, seed } from './lib';
describe('UserService.create', () => {
  beforeEach(async () => { await seed(); });
  it('stores a user', () => {
    helper();
  });
  it.only('stores a user', function () { helper(); other(); });
  describe('nested', () => {
    test.each([[1], [2]])('row %s', (n) => { other(n); });
    afterAll(() => other());
  });
});
test.describe('pw', () => {
  test.beforeEach(async ({ page }) => { seed(page); });
  test('opens', async ({ page }) => { helper(page); });
});
it('named', checkNamed);
function checkNamed() { helper(); }
items.forEach((x) => { other(x); });
suiteRunner.it('not a test', () => { helper(); });
it(() => { helper(); });
"""


def test_test_suite_and_hook_callbacks_are_definitions() -> None:
    ex = extractor_for_path("u.test.ts").extract("u.test.ts", SPEC.encode())
    assert [(d.qualname, d.start_line) for d in ex.definitions] == [
        ("checkNamed", 18),  # a callback given by name is already a function (the extractor's)
        ("describe UserService create", 2),  # dots of a title made spaces: the qualname keeps its shape
        ("describe UserService create.beforeEach hook", 3),  # never `beforeEach`: that call would bind to it
        ("describe UserService create.it stores a user", 4),
        ("describe UserService create.it stores a user #2", 7),  # a second test of one title
        ("describe UserService create.describe nested", 8),
        ("describe UserService create.describe nested.test row %s", 9),  # test.each(rows)(title, fn)
        ("describe UserService create.describe nested.afterAll hook", 10),
        ("describe pw", 13),  # Playwright's test.describe / test.beforeEach / test
        ("describe pw.beforeEach hook", 14),
        ("describe pw.test opens", 15),
    ]  # not: forEach's callback, `suiteRunner.it(...)` (a method of another object), `it(fn)` without a title
    callers = sorted((c.line, c.name, c.caller) for c in ex.calls if c.name in ("helper", "other", "seed"))
    assert callers == [
        (3, "seed", "describe UserService create.beforeEach hook"),
        (5, "helper", "describe UserService create.it stores a user"),
        (7, "helper", "describe UserService create.it stores a user #2"),
        (7, "other", "describe UserService create.it stores a user #2"),
        (9, "other", "describe UserService create.describe nested.test row %s"),
        (10, "other", "describe UserService create.describe nested.afterAll hook"),
        (14, "seed", "describe pw.beforeEach hook"),
        (15, "helper", "describe pw.test opens"),
        (18, "helper", "checkNamed"),
        (19, "other", None),  # a forEach callback's calls stay the module's
        (20, "helper", None),
        (21, "helper", None),
    ]


FIXTURE = """
// --- path: src/lib.js ---
function helper() {}
function other() {}
module.exports = { helper, other };
// --- path: test/lib.spec.js ---
const { helper, other } = require('../src/lib');
describe('lib', () => {
  let value;
  beforeEach(() => { value = other(); });
  it('calls helper', () => { helper(value); });
});
"""


def test_the_calls_of_a_test_are_the_tests() -> None:
    assert edges(resolve_fixture(FIXTURE)) == [
        "test/lib.spec.describe lib.beforeEach hook(0) -> src/lib.other(0) [exact]",
        "test/lib.spec.describe lib.it calls helper(0) -> src/lib.helper(0) [exact]",
    ]  # not from the file `test/lib.spec` any more


EXPRESS_TESTS = """
// --- path: test/app.test.js ---
var express = require('express');
var Router = express.Router;
describe('app', function () {
  it('mounts', function () {
    var blog = express(), app = express();
    blog.get('/', function home(req, res) { res.end(); });
    app.use(function first(req, res, next) { next(); });
    app.use('/blog', blog);
  });
  it('other', function () {
    var app = express();
    var router = new Router();
    router.get('/x', function x(req, res) { res.end(); });
    app.use(router);
    app.use(function last(req, res, next) { next(); });
  });
});
"""


def test_each_test_has_its_own_applications() -> None:
    result = resolve_fixture(EXPRESS_TESTS)
    assert edges(result, "EXPOSES") == [  # a test's `var app = express()` is the test's: mounts join per test
        "test/app.test.describe app.it mounts.GET /(2) -> endpoint:GET /blog",  # handlers named after their route
        "test/app.test.describe app.it other.GET /x(2) -> endpoint:GET /x",  # `var Router = express.Router`
    ]
    assert edges(result, "WRAPS") == [
        "test/app.test.describe app.it mounts.middleware app.use(3) -> endpoint:GET /blog",  # `first`
    ]  # not: first -> GET /x (another test's app), last (registered after the router)
