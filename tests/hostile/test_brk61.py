"""Session 61, brk61: a newcomer on ktorio/ktor-samples and Netflix/dgs-examples-java, and session
60's additions attacked. Each class is one defect found, with exact expectations and what must not be
linked. Every input is generated here.

- :class:`TestKtorTypeSafeRoutes`: Ktor's Resources routing (``get<KweetDelete> { }`` with
  ``@Resource("/kweet/{id}/delete") class KweetDelete`` in another file) served ``/``: kweet's six
  handlers and di-kodein-advanced's two were all ``GET /`` / ``POST /``.
- :class:`TestKtorResourceObjects`: ``@Resource("/users") object Users`` (di-kodein-advanced) was no
  resource; a parameter named by a variable (filelisting's ``get("{$name...}")``) was ``/{{}...}``.
- :class:`TestDgsDataLoaders`: a DGS fetcher's ``dfe.getDataLoader(ReviewsDataLoader.class)`` reached
  nothing, so the blast radius of the service method the loader calls missed ``FIELD Show.reviews``.
- :class:`TestNextJsAttacked`: session 60's Next.js routes: ``export { handler as GET, handler as
  POST }`` (NextAuth's App Router idiom) declared nothing; a private folder ``app/_lib/route.ts`` and
  the page ``pages/api.tsx`` were API routes; ``%5F`` stayed encoded.
- :class:`TestComposeInterpolationAttacked`: the compose ``dockerfile`` interpolation backtracked in
  the square of its length (80 KB of ``${A:-``: 27 s; the compose file may hold 1 MB); a nested default
  ``${A:-${B}}`` gave the text ``${B}``.
- :class:`TestGoModReplaceAttacked`: a sub-module's ``replace example.com/root => ../`` (tools, examples)
  named the folder ``.``, never the root module's ``""``: its types satisfied none of the root's interfaces.
- :class:`TestGoEnvDefaultsAtScale`: a Go file of ``n`` package variables each given by a call scanned
  every top-level declaration and its body per variable (8,000: 23 s CPU).
- :class:`TestMappedBundles`: dgs-examples-java's committed React build (``src/main/resources/static/
  static/js/2.ae627b82.chunk.js``, 338 KB with its ``.js.map``) was indexed: 929 functions of React's
  internals in the graph and the search.
- :class:`TestKtorHandlerBodies`: kotlinx.html's ``head { title("x") }`` inside a ``get("/")`` handler
  was a route ``HEAD /`` (h2's message board, the App Engine sample).
"""

from __future__ import annotations

import hashlib

from indexer.languages import extractor_for_path
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import edges, resolve_fixture, split_fixture


def _extract(fixture: str) -> list[tuple]:
    extractions = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        ex = extractor_for_path(path)
        assert ex is not None
        extractions.append((ex.extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    return extractions


def _exposes(fixture: str) -> list[tuple[str, str]]:
    result = resolve_repository("t", _extract(fixture))
    return sorted((e.src.removeprefix("t:"), e.dst) for f in result.files for e in f.edges if e.kind == "EXPOSES")


# -- ktor-samples' kweet and di-kodein-advanced: the Resources plugin -----------------------------------

KWEET = """
# --- path: kweet/src/main/kotlin/io/ktor/samples/kweet/KweetApplication.kt ---
package io.ktor.samples.kweet

import io.ktor.resources.*

@Resource("/")
class Index()

@Resource("/kweet/{id}/delete")
class KweetDelete(val id: Int)

@Resource("login")
data class Login(val userId: String = "")

@Resource("/users")
class Users {
    @Resource("{name}")
    class User(val parent: Users = Users(), val name: String)

    @Resource("export")
    class Export(val format: String)
}

@Location("/legacy/{id}")
class Legacy(val id: Int)

class Plain(val id: Int)
# --- path: kweet/src/main/kotlin/io/ktor/samples/kweet/Delete.kt ---
package io.ktor.samples.kweet

import io.ktor.server.resources.post
import io.ktor.server.routing.*

fun Route.delete(dao: DAOFacade) {
    post<KweetDelete> {
        dao.deleteKweet(it.id)
    }
    get<Index> { dao.top() }
    get<Login> { }
    route("/api") {
        get<Users.User> { }
        resource<Users> {
            get { }
            post("bulk") { }
        }
    }
    get<Users.Export> { }
    location<Legacy> { get { } }
    get<Plain> { }
    get<Missing> { }
}
"""


class TestKtorTypeSafeRoutes:
    def test_a_resource_class_in_another_file_is_the_route_path(self) -> None:
        assert _exposes(KWEET) == [
            ("kweet/src/main/kotlin/io/ktor/samples/kweet/Delete.delete.GET /api{Users.User}()",
             "endpoint:GET /api/users/{}"),
            ("kweet/src/main/kotlin/io/ktor/samples/kweet/Delete.delete.GET /api{Users}()", "endpoint:GET /api/users"),
            ("kweet/src/main/kotlin/io/ktor/samples/kweet/Delete.delete.GET {Index}()", "endpoint:GET /"),
            ("kweet/src/main/kotlin/io/ktor/samples/kweet/Delete.delete.GET {Legacy}()", "endpoint:GET /legacy/{}"),
            ("kweet/src/main/kotlin/io/ktor/samples/kweet/Delete.delete.GET {Login}()", "endpoint:GET /login"),
            # a class the index does not know, or one without @Resource: an unknown path, which names no
            # endpoint (acc62: `GET /{}` served every one-segment request); never the enclosing route's own path
            # a nested resource without a property of the enclosing class is not below it
            ("kweet/src/main/kotlin/io/ktor/samples/kweet/Delete.delete.GET {Users.Export}()", "endpoint:GET /export"),
            ("kweet/src/main/kotlin/io/ktor/samples/kweet/Delete.delete.POST /api{Users}/bulk()",
             "endpoint:POST /api/users/bulk"),
            ("kweet/src/main/kotlin/io/ktor/samples/kweet/Delete.delete.POST {KweetDelete}()",
             "endpoint:POST /kweet/{}/delete"),
        ]

    def test_no_constant_for_a_class_without_the_annotation(self) -> None:
        ((ex, _, _), _) = _extract(KWEET)
        assert sorted((c.qualname, c.value.parts) for c in ex.constants) == [
            ("Index.@Resource", (("lit", "/"),)),
            ("KweetDelete.@Resource", (("lit", "/kweet/{id}/delete"),)),
            ("Legacy.@Resource", (("lit", "/legacy/{id}"),)),
            ("Login.@Resource", (("lit", "/login"),)),
            ("Users.@Resource", (("lit", "/users"),)),
            ("Users.Export.@Resource", (("lit", "/export"),)),
            ("Users.User.@Resource", (("ref", "Users.@Resource"), ("lit", "/{name}"))),
        ]

    def test_the_handler_owns_the_calls_in_its_block(self) -> None:
        (_, (ex, _, _)) = _extract(KWEET)
        calls = sorted((c.caller, c.name) for c in ex.calls if c.name in ("deleteKweet", "top"))
        assert calls == [("delete.GET {Index}", "top"), ("delete.POST {KweetDelete}", "deleteKweet")]


# -- h2 / maven-google-appengine-standard: kotlinx.html inside a handler ----------------------------------

HTML_HANDLER = """
# --- path: src/Routing.kt ---
package io.ktor.samples.plugins

fun Application.configureRouting() {
    routing {
        get("/") {
            call.respondHtml {
                head { title("Message Board") }
                body { form(action = "/yell") { post { } } }
            }
        }
        route("/x") {
            head { }
            options("/o") { get("/inner") { } }
        }
    }
}
"""


class TestKtorHandlerBodies:
    def test_a_verb_named_call_inside_a_handler_is_no_route(self) -> None:
        assert _exposes(HTML_HANDLER) == [
            ("src/Routing.configureRouting.GET /()", "endpoint:GET /"),
            ("src/Routing.configureRouting.HEAD /x()", "endpoint:HEAD /x"),
            ("src/Routing.configureRouting.OPTIONS /x/o()", "endpoint:OPTIONS /x/o"),
        ]


RESOURCE_OBJECTS = """
# --- path: app/src/Kodein.kt ---
package io.ktor.samples.kodein

class Users {
    class Controller {
        fun Routing.registerRoutes() {
            get<Routes.Users> { }
            get<Routes.User> { }
        }
    }
    object Routes {
        @Resource("/users")
        object Users

        @Resource("/users/{name}")
        data class User(val name: String)
    }
}

fun Route.listing(folder: File) {
    val pathParameterName = "static-content-path-parameter"
    get("{$pathParameterName...}") { }
    route("/files/{${pathParameterName}}") { get("raw") { } }
    get("/plain/$pathParameterName") { }
}
"""


class TestKtorResourceObjects:
    def test_an_object_resource_and_a_named_parameter(self) -> None:
        assert _exposes(RESOURCE_OBJECTS) == [
            ("app/src/Kodein.Users.Controller.registerRoutes.GET {Routes.Users}()", "endpoint:GET /users"),
            ("app/src/Kodein.Users.Controller.registerRoutes.GET {Routes.User}()", "endpoint:GET /users/{}"),
            ("app/src/Kodein.listing.GET /files/{pathParameterName}/raw()", "endpoint:GET /files/{}/raw"),
            # a variable outside braces is still an unknown value, not a name
            ("app/src/Kodein.listing.GET /plain/{pathParameterName}()", "endpoint:GET /plain/{}"),
            ("app/src/Kodein.listing.GET /{pathParameterName...}()", "endpoint:GET /{}"),
        ]


# -- dgs-examples-java: a fetcher reaches its data loader ------------------------------------------------

DGS_LOADERS = """
# --- path: src/main/java/demo/ReviewsService.java ---
package demo;
public class ReviewsService {
    public Map<Integer, List<Review>> reviewsForShows(List<Integer> ids) { return null; }
}
# --- path: src/main/java/demo/ReviewsDataLoader.java ---
package demo;
@DgsDataLoader(name = "reviews")
public class ReviewsDataLoader implements MappedBatchLoader<Integer, List<Review>> {
    private final ReviewsService reviewsService;
    @Override
    public CompletionStage<Map<Integer, List<Review>>> load(Set<Integer> keys) {
        return CompletableFuture.supplyAsync(() -> reviewsService.reviewsForShows(new ArrayList<>(keys)));
    }
}
# --- path: src/main/java/demo/WithContextLoader.java ---
package demo;
@DgsDataLoader(name = "ctx")
public class WithContextLoader implements MappedBatchLoaderWithContext<Integer, List<Review>> {
    @Override
    public CompletionStage<Map<Integer, List<Review>>> load(Set<Integer> keys, BatchLoaderEnvironment env) { return null; }
}
# --- path: src/main/java/demo/NoLoad.java ---
package demo;
public class NoLoad { public void fetch() { } }
# --- path: src/main/java/demo/ShowsDataFetcher.java ---
package demo;
@DgsComponent
public class ShowsDataFetcher {
    @DgsData(parentType = "Show", field = "reviews")
    public CompletableFuture<List<Review>> reviews(DgsDataFetchingEnvironment dfe) {
        DataLoader<Integer, List<Review>> loader = dfe.getDataLoader(ReviewsDataLoader.class);
        return loader.load(dfe.<Show>getSource().getId());
    }
    @DgsData(parentType = "Show", field = "ctx")
    public Object ctx(DgsDataFetchingEnvironment dfe) { return dfe.getDataLoader(WithContextLoader.class).load(1); }
    @DgsData(parentType = "Show", field = "byName")
    public Object byName(DgsDataFetchingEnvironment dfe) { return dfe.getDataLoader("reviews").load(1); }
    @DgsData(parentType = "Show", field = "none")
    public Object none(DgsDataFetchingEnvironment dfe) {
        dfe.getDataLoader(NoLoad.class);
        return dfe.getDataLoader(ReviewsDataLoader.class, WithContextLoader.class);
    }
}
"""


class TestDgsDataLoaders:
    def test_the_fetcher_reaches_the_loader_class_load(self) -> None:
        result = resolve_repository("r", _extract(DGS_LOADERS))
        found = [e.replace("r:", "") for e in edges(result) if e.startswith("r:src/main/java/demo/ShowsDataFetcher.")]
        loads = sorted(e for e in found if ".load(" in e and e.endswith("[inferred]"))
        assert loads == [
            # by name (acc62, indexer/frameworks/named_loaders.py): the @DgsDataLoader(name = "reviews") class
            "src/main/java/demo/ShowsDataFetcher.ShowsDataFetcher.byName(DgsDataFetchingEnvironment) -> "
            "src/main/java/demo/ReviewsDataLoader.ReviewsDataLoader.load(Set) [inferred]",
            "src/main/java/demo/ShowsDataFetcher.ShowsDataFetcher.ctx(DgsDataFetchingEnvironment) -> "
            "src/main/java/demo/WithContextLoader.WithContextLoader.load(Set,BatchLoaderEnvironment) [inferred]",
            "src/main/java/demo/ShowsDataFetcher.ShowsDataFetcher.reviews(DgsDataFetchingEnvironment) -> "
            "src/main/java/demo/ReviewsDataLoader.ReviewsDataLoader.load(Set) [inferred]",
        ]
        # a class without load, two class arguments: no implied call
        assert not [e for e in found if e.endswith("[inferred]") and ".none(" in e]
        assert not [e for e in found if "NoLoad" in e]


# -- session 60's Next.js API routes attacked ---------------------------------------------------------

NEXT_EXPORTS = """
# --- path: web/app/api/auth/[...nextauth]/route.ts ---
import NextAuth from "next-auth";
const handler = NextAuth({ providers: [] });
export { handler as GET, handler as POST };
# --- path: web/app/api/items/route.ts ---
async function list(req: Request) { return Response.json([]); }
function create(req: Request) { return null; }
export { list as GET };
export { create as POST, create as helper, list };
# --- path: web/app/api/reexport/route.ts ---
export { GET } from "../items/route";
# --- path: web/app/_lib/route.ts ---
export async function GET() { return null; }
# --- path: web/app/api/_internal/ping/route.ts ---
export async function GET() { return null; }
# --- path: web/app/api/%5Fnext/route.ts ---
export async function GET() { return null; }
# --- path: web/pages/api.tsx ---
export default function ApiDocsPage() { return null; }
"""


class TestNextJsAttacked:
    def test_the_paths(self) -> None:
        from indexer.languages.ecmascript.frameworks.nextjs import route_path

        assert route_path("app/api/%5Fnext/route.ts") == ("app", "/api/_next")
        assert route_path("pages/api/%5Fx.ts") == ("pages", "/api/%5Fx")  # the Pages Router has no such rule
        assert route_path("app/_lib/route.ts") is None
        assert route_path("app/api/_internal/ping/route.ts") is None
        assert route_path("src/app/(group)/_x/route.js") is None
        assert route_path("pages/api.tsx") is None
        assert route_path("pages/api/_helpers.ts") == ("pages", "/api/_helpers")  # pages/api has no private files

    def test_export_clauses(self) -> None:
        got = sorted((e.path, tuple(r.methods), r.path.literal(), r.handler, r.handler_ref)
                     for e, _, _ in _extract(NEXT_EXPORTS) for r in e.routes)
        assert got == [
            ("web/app/api/%5Fnext/route.ts", ("GET",), "/api/_next", "GET", None),
            # NextAuth's handler is a library's function: a reference the linker resolves (or not)
            ("web/app/api/auth/[...nextauth]/route.ts", ("GET",), "/api/auth/{nextauth}", None, "handler"),
            ("web/app/api/auth/[...nextauth]/route.ts", ("POST",), "/api/auth/{nextauth}", None, "handler"),
            # ``create as helper`` and a plain ``list`` are no methods; a re-export is the other module's
            ("web/app/api/items/route.ts", ("GET",), "/api/items", "list", None),
            ("web/app/api/items/route.ts", ("POST",), "/api/items", "create", None),
        ]

    def test_the_local_functions_serve(self) -> None:
        exposes = _exposes(NEXT_EXPORTS)
        assert exposes == [
            ("web/app/api/%5Fnext/route.GET(0)", "endpoint:GET /api/_next"),
            ("web/app/api/items/route.create(1)", "endpoint:POST /api/items"),
            ("web/app/api/items/route.list(1)", "endpoint:GET /api/items"),
        ]


# -- session 60's compose .env interpolation attacked ---------------------------------------------------

class TestComposeInterpolationAttacked:
    def test_values_defaults_and_nesting(self) -> None:
        from indexer.frameworks.services import interpolate_compose

        env = {"B": "./b/Dockerfile", "E": ""}
        assert interpolate_compose("${A:-${B}}", env) == "./b/Dockerfile"
        assert interpolate_compose("${A:-${C:-./c/Dockerfile}}", env) == "./c/Dockerfile"
        assert interpolate_compose("$$B/${B}", env) == "$B/./b/Dockerfile"
        assert interpolate_compose("${E:-x}", env) == "x"
        assert interpolate_compose("${E-x}", env) == ""
        # an unset variable, a required one, a name made of a name, nesting past the bound, an unclosed one
        assert interpolate_compose("${A}", env) is None
        assert interpolate_compose("${A:?need A}", env) is None
        assert interpolate_compose("${${B}}", env) is None
        assert interpolate_compose("${A:-" * 9 + "x" + "}" * 9, env) is None
        assert interpolate_compose("${A:-x", env) is None

    def test_a_hostile_dockerfile_field_is_linear(self, tmp_path) -> None:
        import time

        from indexer.frameworks.services import interpolate_compose, service_map
        from tests.resolution_harness import write_tree

        t = time.process_time()
        assert interpolate_compose("${A:-" * 4000, {}) is None  # inside the length bound: one pass, no backtracking
        assert interpolate_compose("${A:-" * 200_000, {}) is None
        compose = ("services:\n  cart:\n    build:\n      context: ./\n      dockerfile: \"" + "${A:-" * 150_000
                   + "\"\n  checkout:\n    build:\n      context: ./\n      dockerfile: ${D:-./src/checkout/Dockerfile}\n")
        root = write_tree(tmp_path / "repo", {
            "compose.yaml": compose,
            "src/checkout/Dockerfile": "FROM x\nCOPY . .\n",
        })
        units = {f: (u.name, u.how) for f, u in service_map(root).units.items()}
        assert time.process_time() - t < 20  # base: minutes
        assert units == {"": ("cart", "compose"), "src/checkout": ("checkout", "compose")}


# -- session 60's go.mod replace attacked ---------------------------------------------------------------

ROOT_REPLACED = """
// --- path: go.mod ---
module example.com/root

replace example.com/root => ./
// --- path: api.go ---
package root

type Handler interface { Handle(x int) error }
// --- path: tools/go.mod ---
module example.com/root/tools

require example.com/root v0.0.0

replace example.com/root => ../
// --- path: tools/t.go ---
package tools

type t struct{}

func (t) Handle(x int) error { return nil }
// --- path: escape/go.mod ---
module example.com/escape

require (
\texample.com/root v0.0.0
\texample.com/gone v0.0.0
)

replace example.com/root => ../../..
replace example.com/gone => ../missing
// --- path: escape/e.go ---
package escape

type e struct{}

func (e) Handle(x int) error { return nil }
"""


class TestGoModReplaceAttacked:
    def test_a_replace_to_the_root_folder_reaches_the_root_module(self) -> None:
        result = resolve_fixture(ROOT_REPLACED)
        # escape's replace leads out of the repository (and to a missing folder): no module of it
        assert edges(result, "IMPLEMENTS") == ["tools/t.t -> api.Handler"]
        assert edges(result, "OVERRIDES") == ["tools/t.t.Handle(1) -> api.Handler.Handle(1)"]


# -- session 60's Kafka topics from environment defaults attacked ----------------------------------------

class TestGoEnvDefaultsAtScale:
    def test_the_defaults_and_what_is_no_default(self) -> None:
        src = (
            'package main\nimport "os"\n'
            'func getTopic() string { if v, ok := os.LookupEnv("T"); ok { return v }\n return "orders" }\n'
            'func getEnv(k, d string) string { if v := os.Getenv(k); v != "" { return v }\n return d }\n'
            'func plain() string { return "not-env" }\n'
            'func computed() string { _ = os.Getenv("X"); return prefix + "x" }\n'
            'var Topic = getTopic()\nvar Other = getEnv("O", "payments")\nvar Bad = getEnv("O", name)\n'
            'var Plain = plain()\nvar Computed = computed()\nvar Missing = nowhere()\n'
        )
        ex = extractor_for_path("main.go").extract("main.go", src.encode())
        assert sorted((c.qualname, c.value.parts) for c in ex.constants) == [
            ("Other", (("lit", "payments"),)),
            ("Topic", (("lit", "orders"),)),
        ]

    def test_many_variables_are_linear(self) -> None:
        import time

        n = 8000
        src = ('package main\nimport "os"\n'
               + "".join(f'func f{i}() string {{ if v := os.Getenv("T{i}"); v != "" {{ return v }}\n return "t{i}" }}\n'
                         for i in range(n))
               + "".join(f"var V{i} = f{i}()\n" for i in range(n)))
        t = time.process_time()
        ex = extractor_for_path("main.go").extract("main.go", src.encode())
        assert time.process_time() - t < 12  # base: 23 s at this size, 6 s at half of it
        assert len(ex.constants) == n
        assert {(c.qualname, c.value.parts) for c in ex.constants if c.qualname in ("V0", "V7999")} == {
            ("V0", (("lit", "t0"),)), ("V7999", (("lit", "t7999"),))}


# -- dgs-examples-java: a committed build beside its source maps --------------------------------------------

class TestMappedBundles:
    def test_a_script_with_its_source_map_is_generated(self, tmp_path) -> None:
        from indexer.discovery import classify_path, discover
        from tests.resolution_harness import write_tree

        root = write_tree(tmp_path / "repo", {
            "src/main/resources/static/js/main.05accb10.chunk.js": "function a(){}\n",
            "src/main/resources/static/js/main.05accb10.chunk.js.map": "{}\n",
            "src/main/resources/static/js/runtime.js": "function r(){}\n",  # no map: source as far as we know
            "web/app.mjs": "export const x = 1;\n",
            "web/app.mjs.map": "{}\n",
            "web/app.ts": "export const y = 1;\n",
            "web/app.ts.map": "{}\n",  # a TypeScript source is never generated by a map's name
            "web/other.js": "var o;\n",
            "web/other.map": "{}\n",  # not <name>.map
        })
        found = discover(root)
        assert sorted(f.path for f in found.files) == [
            "src/main/resources/static/js/runtime.js", "web/app.ts", "web/other.js"]
        assert sorted(p for r, p in found.skipped_log if r == "generated") == [
            "src/main/resources/static/js/main.05accb10.chunk.js", "web/app.mjs"]
        # the watcher's one-file question answers alike
        assert classify_path(root, "web/app.mjs") == "generated"
        assert classify_path(root, "src/main/resources/static/js/main.05accb10.chunk.js") == "generated"
        assert classify_path(root, "web/other.js").path == "web/other.js"

    def test_a_watcher_told_only_of_a_source_map_classifies_its_script_again(self, tmp_path) -> None:
        from indexer.discovery import with_mapped_scripts
        from indexer.incremental import RepositoryIndex
        from indexer.run import IndexOptions
        from stores.embedded import EmbeddedStore
        from tests.index_dump import dump
        from tests.resolution_harness import write_tree

        assert with_mapped_scripts(["web/app.js.map", "web/app.ts.map", "web/other.map", "a.py"]) == {
            "web/app.js.map", "web/app.js", "web/app.ts.map", "web/other.map", "a.py"}
        root = write_tree(tmp_path / "repo", {
            "web/app.js": "function built(){}\n",
            "web/src.js": "function kept(){}\n",
        })
        store = EmbeddedStore(str(tmp_path / "x.db"))
        index = RepositoryIndex(root, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / "st")))

        def files() -> list[str]:
            return sorted(row[1] for row in dump(tmp_path / "x.db")["files"])

        try:
            index.sync()
            assert files() == ["web/app.js", "web/src.js"]
            (root / "web" / "app.js.map").write_text("{}\n", encoding="utf-8")  # the build wrote its map
            index.update([root / "web" / "app.js.map"])
            assert files() == ["web/src.js"]  # the script is generated now, its rows gone
            (root / "web" / "app.js.map").unlink()
            index.update([root / "web" / "app.js.map"])
            assert files() == ["web/app.js", "web/src.js"]  # a source again
        finally:
            index.close()
            store.close()
