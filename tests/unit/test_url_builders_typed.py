"""URL builders in C#, Java, Kotlin and Go (session 66, acc66b): a method or function every return of which builds a
string from its parameters (:mod:`indexer.frameworks.url_builder_rule`), called in a request's URL, is folded by the
linker one level deep. Exact links, and what must stay unknown: a builder with a return that is no string (a
conditional, a call), a ``params`` array, a call of a call."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.index_harness import index_files


def requests(db: Path) -> list[tuple[str, str, str]]:
    """Each request as ``(caller's last part, linked endpoint or unlinked reason, the URL as rendered)``, sorted."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT src, dst, props FROM edges WHERE kind IN ('CALLS_HTTP', 'UNLINKED')").fetchall()
    finally:
        conn.close()
    out = []
    for src, dst, props in rows:
        p = json.loads(props or "{}")
        if dst.startswith("unlinked:") and p.get("kind", "http") != "http":
            continue
        out.append((src.rsplit(".", 1)[-1], dst, p.get("url") or p.get("call") or ""))
    return sorted(out)

CS_SERVER = """using Microsoft.AspNetCore.Builder;
namespace Shop.Api;
public static class CatalogApi
{
    public static void Map(WebApplication app)
    {
        var api = app.MapGroup("api/catalog");
        api.MapGet("/items", () => 1);
        api.MapGet("/items/{id:int}", (int id) => 1);
        api.MapGet("/brands", () => 1);
    }
}
"""

CS_CLIENT = """using System.Net.Http;
namespace Shop.Web;
public class CatalogService(HttpClient httpClient)
{
    private readonly string remoteServiceBaseUrl = "api/catalog/";

    public Task<string> Items(int pageIndex, int? brand)
    {
        var uri = GetAllCatalogItemsUri(remoteServiceBaseUrl, pageIndex, brand);
        return httpClient.GetStringAsync(uri);
    }

    public Task<string> One(int id) => httpClient.GetStringAsync(ItemUri(remoteServiceBaseUrl, id));

    public Task<string> Either(bool b) => httpClient.GetStringAsync(Pick(b, remoteServiceBaseUrl));

    public Task<string> Joined() => httpClient.GetStringAsync(UriHelper.CombineUri(remoteServiceBaseUrl, "brands"));

    public Task<string> Nested(int id) => httpClient.GetStringAsync(ItemUri(Prefix(remoteServiceBaseUrl), id));

    private static string GetAllCatalogItemsUri(string baseUri, int pageIndex, int? brand)
    {
        string filterQs = string.Empty;
        if (brand.HasValue)
        {
            filterQs += $"brand={brand.Value}&";
        }
        return $"{baseUri}items?{filterQs}pageIndex={pageIndex}";
    }

    private static string ItemUri(string baseUri, int id) => $"{baseUri}items/{id}";

    // a conditional: not a string built from the parameters on every path
    private static string Pick(bool b, string baseUri) => b ? $"{baseUri}items" : $"{baseUri}brands";

    private static string Prefix(string p) => p;
}

public static class UriHelper
{
    public static string CombineUri(params string[] uriParts)
    {
        var uri = string.Empty;
        foreach (var part in uriParts) { uri = $"{uri}/{part}"; }
        return uri;
    }
}
"""


def test_csharp_builders_are_folded(tmp_path: Path) -> None:
    index_files(tmp_path / "shop", {"Api/CatalogApi.cs": CS_SERVER, "Web/CatalogService.cs": CS_CLIENT}, "shop",
                tmp_path / "x.db").close()
    assert requests(tmp_path / "x.db") == [
        ("Either(1)", "unlinked:url", "GET {}"),  # Pick returns a conditional: unknown
        ("Items(2)", "endpoint:GET /api/catalog/items", "api/catalog/items?{}pageIndex={}"),  # its query string dropped
        ("Joined(0)", "unlinked:url", "GET {}"),  # CombineUri joins a params array in a loop: no builder
        ("One(1)", "endpoint:GET /api/catalog/items/{}", "api/catalog/items/{}"),
    ]  # Nested: a call inside a builder's argument (one level only) leaves nothing known: no request


JAVA_SERVER = """package shop.customers;

import org.springframework.web.bind.annotation.*;

@RestController
class OwnerResource {
    @GetMapping("/owners/{ownerId}") Object owner(@PathVariable int ownerId) { return null; }
    @GetMapping("/owners/{ownerId}/pets/{petId}") Object pet(@PathVariable int ownerId, @PathVariable int petId) { return null; }
    @GetMapping("/owners") Object owners() { return null; }
}
"""

JAVA_CLIENT = """package shop.gateway;

import org.springframework.web.client.RestTemplate;

class CustomersClient {
    private static final String BASE = "http://customers-service";
    private final RestTemplate restTemplate = new RestTemplate();

    Object owner(int id) { return restTemplate.getForObject(Urls.owner(BASE, id), Object.class); }
    Object pet(int o, int p) { return restTemplate.getForObject(petUrl(o, p), Object.class); }
    Object formatted(int id) { return restTemplate.getForObject(String.format("%s/owners/%d", BASE, id), Object.class); }
    Object either(boolean b) { return restTemplate.getForObject(pick(b, BASE), Object.class); }
    Object spread() { return restTemplate.getForObject(join(BASE, "owners"), Object.class); }

    private String petUrl(int ownerId, int petId) {
        return String.format("%s/owners/%d/pets/%d", BASE, ownerId, petId);
    }

    private String pick(boolean b, String base) { return b ? base + "/owners" : base + "/vets"; }

    private String join(String... parts) { return String.join("/", parts); }
}

class Urls {
    static String owner(String base, int id) { return base + "/owners/" + id; }
}
"""


def test_java_builders_and_string_format_are_folded(tmp_path: Path) -> None:
    files = {"customers/src/main/resources/application.yml": "spring:\n  application:\n    name: customers-service\n",
             "customers/src/main/java/shop/customers/OwnerResource.java": JAVA_SERVER,
             "gateway/src/main/java/shop/gateway/CustomersClient.java": JAVA_CLIENT}
    index_files(tmp_path / "shop", files, "shop", tmp_path / "x.db").close()
    assert requests(tmp_path / "x.db") == [
        ("either(boolean)", "unlinked:url", "GET {}"),  # a conditional return: no builder
        ("formatted(int)", "endpoint:GET /owners/{}", "http://customers-service/owners/{}"),
        ("owner(int)", "endpoint:GET /owners/{}", "http://customers-service/owners/{}"),  # Urls.owner, another class
        ("pet(int,int)", "endpoint:GET /owners/{}/pets/{}", "http://customers-service/owners/{}/pets/{}"),
        ("spread()", "unlinked:url", "GET {}"),  # varargs joined by a call: no builder
    ]


GO_SERVER = """package main

import "net/http"

func main() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/orders/{id}", getOrder)
	mux.HandleFunc("GET /api/orders/{id}/items", getItems)
	http.ListenAndServe(":8080", mux)
}

func getOrder(w http.ResponseWriter, r *http.Request) {}
func getItems(w http.ResponseWriter, r *http.Request) {}
"""

GO_CLIENT = """package client

import (
	"fmt"
	"net/http"
)

const base = "http://orders:8080"

func orderURL(id string) string { return fmt.Sprintf("%s/api/orders/%s", base, id) }

func itemsURL(b string, id string) string {
	if id == "" {
		return b + "/api/orders"
	}
	return b + "/api/orders/" + id + "/items"
}

func pick(b bool) string {
	if b {
		return base + "/api/orders/1"
	}
	return lookup(base)
}

func lookup(s string) string { return s }

func Order(id string) { http.Get(orderURL(id)) }
func Items(id string) { http.Get(itemsURL(base, id)) }
func Picked(b bool) { http.Get(pick(b)) }
func Formatted(id string) { http.Get(fmt.Sprintf("%s/api/orders/%s/items", base, id)) }
"""


def test_go_builders_and_sprintf_are_folded(tmp_path: Path) -> None:
    files = {"orders/main.go": GO_SERVER, "web/client/client.go": GO_CLIENT}
    index_files(tmp_path / "shop", files, "shop", tmp_path / "x.db").close()
    assert requests(tmp_path / "x.db") == [
        ("Formatted(1)", "endpoint:GET /api/orders/{}/items", "http://orders:8080/api/orders/{}/items"),
        ("Items(1)", "endpoint:GET /api/orders/{}/items", "http://orders:8080/api/orders/{}/items"),  # both passed
        ("Order(1)", "endpoint:GET /api/orders/{}", "http://orders:8080/api/orders/{}"),
        ("Picked(1)", "unlinked:url", "GET {}"),  # one return is a call: no builder
    ]


KOTLIN_CLIENT = """package shop.gateway

import org.springframework.web.client.RestTemplate

const val BASE = "http://customers-service"

class CustomersClient(private val restTemplate: RestTemplate) {
    fun ownerUrl(id: Int): String {
        return "$BASE/owners/$id"
    }

    fun petUrl(o: Int, p: Int) = "$BASE/owners/$o/pets/$p"

    fun pick(b: Boolean, id: Int) = if (b) "$BASE/owners/$id" else "$BASE/vets"

    fun owner(id: Int) = restTemplate.getForObject(ownerUrl(id), Any::class.java)
    fun pet(o: Int, p: Int) = restTemplate.getForObject("${petUrl(o, p)}", Any::class.java)
    fun either(b: Boolean) = restTemplate.getForObject(pick(b, 1), Any::class.java)
}
"""


def test_kotlin_builders_are_folded(tmp_path: Path) -> None:
    files = {"customers/src/main/resources/application.yml": "spring:\n  application:\n    name: customers-service\n",
             "customers/src/main/java/shop/customers/OwnerResource.java": JAVA_SERVER,
             "gateway/src/main/kotlin/shop/gateway/CustomersClient.kt": KOTLIN_CLIENT}
    index_files(tmp_path / "shop", files, "shop", tmp_path / "x.db").close()
    assert requests(tmp_path / "x.db") == [
        ("either(Boolean)", "unlinked:url", "GET {}"),  # an if expression: no builder
        ("owner(Int)", "endpoint:GET /owners/{}", "http://customers-service/owners/{}"),
        ("pet(Int,Int)", "endpoint:GET /owners/{}/pets/{}", "http://customers-service/owners/{}/pets/{}"),
    ]


JAVA_URI_CLIENT = """package shop.gateway;

import org.springframework.web.client.RestTemplate;
import org.springframework.web.util.UriComponentsBuilder;

class UriClient {
    private static final String BASE = "http://customers-service";
    private final RestTemplate restTemplate = new RestTemplate();

    Object owners(int page) {
        String url = UriComponentsBuilder.fromHttpUrl(BASE).path("/owners").queryParam("page", page).toUriString();
        return restTemplate.getForObject(url, Object.class);
    }

    Object pet(int o, int p) {
        return restTemplate.getForObject(
            UriComponentsBuilder.fromHttpUrl(BASE).pathSegment("owners", String.valueOf(o), "pets").path("/" + p).build().toUri(),
            Object.class);
    }

    Object elsewhere() {  // the host is set apart: not read
        return restTemplate.getForObject(UriComponentsBuilder.fromHttpUrl(BASE).host("other").path("/owners").toUriString(), Object.class);
    }
}
"""


def test_java_uri_components_builder_chains(tmp_path: Path) -> None:
    files = {"customers/src/main/resources/application.yml": "spring:\n  application:\n    name: customers-service\n",
             "customers/src/main/java/shop/customers/OwnerResource.java": JAVA_SERVER,
             "gateway/src/main/java/shop/gateway/UriClient.java": JAVA_URI_CLIENT}
    index_files(tmp_path / "shop", files, "shop", tmp_path / "x.db").close()
    assert requests(tmp_path / "x.db") == [
        ("elsewhere()", "unlinked:url", "GET {}"),
        ("owners(int)", "endpoint:GET /owners", "http://customers-service/owners"),
        ("pet(int,int)", "endpoint:GET /owners/{}/pets/{}", "http://customers-service/owners/{}/pets/{}"),
    ]


def test_editing_a_builder_or_the_gateway_configuration_relinks_like_a_full_index(tmp_path: Path) -> None:
    """A Java builder's body edited (the request of another file moves), then the gateway's discovery locator turned
    off (a front-end request of unknown start falls back to its own path): each update equals a full index
    (:class:`~tests.unit.test_incremental.Workspace` checks it)."""
    from tests.unit.test_gateway_discovery import TREE as GATEWAY_TREE
    from tests.unit.test_incremental import Workspace

    files = {"customers/src/main/resources/application.yml": "spring:\n  application:\n    name: customers-service\n",
             "customers/src/main/java/shop/customers/OwnerResource.java": JAVA_SERVER,
             "gateway/src/main/java/shop/gateway/CustomersClient.java": JAVA_CLIENT,
             **{f"g/{k}": v for k, v in GATEWAY_TREE.items()}}
    w = Workspace(tmp_path, files)
    try:
        def linked(caller: str) -> str:
            return next(dst for c, dst, _ in requests(w.db) if c == caller)

        assert linked("owner(int)") == "endpoint:GET /owners/{}"
        assert linked("list(0)") == "endpoint:GET /api/items"
        w.edit({"gateway/src/main/java/shop/gateway/CustomersClient.java": JAVA_CLIENT.replace(
            'return base + "/owners/" + id;', 'return base + "/owners/" + id + "/pets/" + id;')})
        assert linked("owner(int)") == "endpoint:GET /owners/{}/pets/{}"
        w.edit({"g/gateway/src/main/resources/application.yml": GATEWAY_TREE["gateway/src/main/resources/application.yml"]
                .replace("enabled: true", "enabled: false")})
        assert linked("list(0)") == "endpoint:GET /services/shopmicro/api/items"
    finally:
        w.close()
