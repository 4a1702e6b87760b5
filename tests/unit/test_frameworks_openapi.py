"""API-first detectors: the exact facts each file gives (the linker's side is in
tests/golden/test_openapi_golden.py), and what they must not take for a generated API."""

from __future__ import annotations

from indexer.frameworks.openapi import ApiOperation, ApiSpecs, api_tag, match_operations
from indexer.languages import extractor_for_path
from indexer.model import HttpCall, Route, Template


def _extract(path: str, text: str):
    return extractor_for_path(path).extract(path, text.encode())


def test_java_generated_interface_and_delegate_implementations() -> None:
    ex = _extract("src/P.java", (
        "package p;\nimport org.x.api.PetsApi;\n"
        "public class P implements PetsApi, java.io.Serializable {\n"
        "  @Override public String listPets() { return \"\"; }\n"
        "  private String helper() { return \"\"; }\n"
        "  public static P of() { return null; }\n"
        "}\n"
        "class D implements org.x.api.StoresApiDelegate<String> {\n  public void getStore() {}\n}\n"
        "class NotGenerated implements Runnable, Apis {\n  public void listPets() {}\n  public void run() {}\n}\n"))
    assert ex.routes == [
        Route("openapi-generator", [], Template(), "P.listPets", 4, 26, operation="PetsApi.listPets"),
        Route("openapi-generator", [], Template(), "D.getStore", 9, 14, operation="StoresApiDelegate.getStore"),
    ]


def test_java_generated_client_calls() -> None:
    ex = _extract("src/C.java", (
        "package c;\nimport org.x.client.api.PetsApi;\n"
        "class C {\n  private final PetsApi pets;\n  private final Other other;\n"
        "  void go() { pets.listPets(); other.listPets(); new PetsApi().createPets(); }\n}\n"))
    # other.listPets(): Other is no generated API
    assert ex.http_calls == [HttpCall("openapi-client", "*", Template(), "C.go", 6, 19, operation="PetsApi.listPets"),
                             HttpCall("openapi-client", "*", Template(), "C.go", 6, 63, operation="PetsApi.createPets")]


def test_typescript_generated_clients() -> None:
    ex = _extract("src/a.ts", (
        'import { PetsService } from "../generated/api/pets.service";\n'
        'import { OrdersService } from "./orders.service";\n'
        'import { StoresApi } from "@acme/petstore-client";\n'
        "export class Shelf {\n"
        "  constructor(private pets: PetsService, private orders: OrdersService) {}\n"
        "  all() { this.orders.listOrders(); return this.pets.listPets(); }\n"
        "  one(api: StoresApi) { return api.getStore('1'); }\n"
        "  two() { return new StoresApi().getStore('2'); }\n"
        "}\n"))
    assert [(h.caller, h.operation, h.line) for h in ex.http_calls] == [
        ("Shelf.all", "PetsService.listPets", 6),  # OrdersService comes from an ordinary module: no client
        ("Shelf.one", "StoresApi.getStore", 7),
        ("Shelf.two", "StoresApi.getStore", 8),
    ]


def test_a_class_defined_in_the_file_is_no_generated_client() -> None:
    ex = _extract("src/b.ts", "export class PetsApi { listPets() {} }\nnew PetsApi().listPets();\n")
    assert ex.http_calls == []


def test_python_connexion_and_openapi_python_client() -> None:
    ex = _extract("svc/app.py", (
        "import connexion\nfrom shelter.api.animals import list_animals\nfrom shelter.models import sync\n"
        "app = connexion.FlaskApp(__name__, specification_dir='spec')\napp.add_api('openapi.yaml')\n"
        "app.add_api(SPEC)\napp.add_api('../../../x.yaml')\n"
        "def go(c):\n    list_animals.sync(client=c)\n    list_animals.other()\n    sync.sync(c)\n"))
    assert [(r.framework, r.path, r.operation, r.line) for r in ex.routes] == [
        ("connexion", Template((("lit", "svc/spec/openapi.yaml"),)), "*", 5),
        ("connexion", Template(), "*", 6),  # not a literal: every spec
        ("connexion", Template(), "*", 7),  # out of the repository: every spec, never that file
    ]
    assert [(h.caller, h.operation) for h in ex.http_calls] == [("go", "animals.list_animals")]
    assert _extract("x.py", "class A:\n    def add_api(self, s): pass\nA().add_api('o.yaml')\n").routes == []


def test_match_operations_by_tag_then_name() -> None:
    ops = (ApiOperation("GET", "/pets", "listPets", ("pets",)), ApiOperation("GET", "/v2/pets", "listPets", ("zoo",)),
           ApiOperation("GET", "/h", "health"), ApiOperation("GET", "/a", "app.handlers.list_all"))
    specs = ApiSpecs(ops)
    assert match_operations(specs, "PetsApi.listPets") == ([ops[0]], "exact")
    assert match_operations(specs, "pets.list_pets") == ([ops[0]], "exact")
    assert match_operations(specs, "OtherApi.listPets") == ([ops[0], ops[1]], "name")
    assert match_operations(specs, "DefaultApi.health") == ([ops[2]], "exact")
    assert match_operations(specs, "handlers.list_all") == ([ops[3]], "name")
    assert match_operations(specs, "PetsApi.describe") == ([], "")
    assert [api_tag(a) for a in ("PetsApiDelegate", "PetsService", "Api", "pet_store")] == ["pets", "pets", "api", "petstore"]


def test_kotlin_generated_interface_implementations_are_its_override_functions() -> None:
    """kotlin-spring's generated ``ArticlesApi`` implemented by a controller (the realworld Kotlin app
    sunabak0/realworld-kotlin-springboot-jdbc): its ``override`` functions, never a property getter,
    a private or non-override helper, nor a class implementing no generated API."""
    ex = _extract("src/ArticleController.kt", (
        "package p\n"
        "import p.openapi.generated.controller.ArticlesApi\n"
        "@RestController\n"
        "class ArticleController(val feed: FeedUseCase) : ArticlesApi {\n"
        "    override fun getArticles(tag: String?): ResponseEntity<String> = ResponseEntity.ok(\"\")\n"
        "    override fun getArticlesFeed(limit: Int): ResponseEntity<String> = ResponseEntity.ok(\"\")\n"
        "    fun createArticle(): String = \"\"\n"
        "    @ExceptionHandler(value = [E::class])\n"
        "    fun onError(e: E): ResponseEntity<String> = ResponseEntity.ok(\"\")\n"
        "}\n"
        "@RestController\n@RequestMapping(\"/api\")\n"
        "class Stores : p.api.StoresApiDelegate, Serializable {\n"
        "    override fun getStore(id: Long): String = \"\"\n"
        "}\n"
        "class NotGenerated : Runnable, Apis {\n"
        "    override fun run() {}\n"
        "    override fun getArticles(): String = \"\"\n"
        "}\n"))
    assert ex.routes == [
        Route("openapi-generator", [], Template(), "ArticleController.getArticles", 5, 17,
              operation="ArticlesApi.getArticles"),
        Route("openapi-generator", [], Template(), "ArticleController.getArticlesFeed", 6, 17,
              operation="ArticlesApi.getArticlesFeed"),
        Route("openapi-generator", [], Template.of("/api"), "Stores.getStore", 14, 17,
              operation="StoresApiDelegate.getStore"),
    ]  # not getFeed (the property's getter), createArticle / onError (no override), NotGenerated


def test_an_operation_without_operation_id_matches_the_name_openapi_generator_gives_it() -> None:
    """``/tags: get:`` without an ``operationId`` is ``DefaultApi.tagsGet`` in the generated code
    (path below the base path, braces dropped, then the method); the realworld Kotlin app's
    ``DefaultController.tagsGet``. An operation with an id is never matched by such a name."""
    ops = (ApiOperation("GET", "/api/tags", "", base="/api"),
           ApiOperation("DELETE", "/api/articles/{slug}/comments/{id}", "", ("Comments",), base="/api"),
           ApiOperation("GET", "/api/user", "GetCurrentUser", ("User",), base="/api"))
    specs = ApiSpecs(ops)
    assert match_operations(specs, "DefaultApi.tagsGet") == ([ops[0]], "exact")
    assert match_operations(specs, "CommentsApi.articlesSlugCommentsIdDelete") == ([ops[1]], "exact")
    assert match_operations(specs, "DefaultApi.getTags") == ([], "")  # no such id, nor generated name
    assert match_operations(specs, "DefaultApi.apiTagsGet") == ([], "")  # the base path is not part of it
    assert match_operations(specs, "UserApi.userGet") == ([], "")  # GET /api/user has an operationId
    assert match_operations(specs, "UserApi.getCurrentUser") == ([ops[2]], "exact")
