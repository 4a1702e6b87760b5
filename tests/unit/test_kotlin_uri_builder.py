"""Kotlin: Spring's ``UriComponentsBuilder`` chains build a request's URL, inline or held in a local ``val``
(session 67, acc67c), as the Java detectors read them (session 66). Exact links, and what stays unknown: a chain
setting the host, a ``var`` (it may be given another value), a chain replacing the path."""

from __future__ import annotations

from pathlib import Path

from tests.index_harness import index_files
from tests.unit.test_url_builders_typed import JAVA_SERVER, requests

KOTLIN_CLIENT = """package shop.gateway

import org.springframework.web.client.RestTemplate
import org.springframework.web.util.UriComponentsBuilder

const val BASE = "http://customers-service"

class UriClient(private val restTemplate: RestTemplate) {
    fun pet(o: Int, p: Int): Any? {
        val u = UriComponentsBuilder.fromHttpUrl(BASE).path("/owners/{o}").pathSegment("pets", "$p")
            .queryParam("full", true).toUriString()
        return restTemplate.getForObject(u, Any::class.java)
    }

    fun owner(id: Int) = restTemplate.getForObject(
        UriComponentsBuilder.fromUriString(BASE).path("/owners/").path("$id").build().toUriString(), Any::class.java)

    fun owners() = restTemplate.getForObject(UriComponentsBuilder.fromHttpUrl("$BASE/owners").encode().toUriString(),
        Any::class.java)

    fun moved(id: Int) = restTemplate.getForObject(
        UriComponentsBuilder.fromHttpUrl(BASE).host("elsewhere").path("/owners/$id").toUriString(), Any::class.java)

    fun replaced(id: Int) = restTemplate.getForObject(
        UriComponentsBuilder.fromHttpUrl(BASE).replacePath("/owners").toUriString(), Any::class.java)

    fun changing(id: Int): Any? {
        var u = UriComponentsBuilder.fromHttpUrl(BASE).path("/owners").toUriString()
        u = "http://other"
        return restTemplate.getForObject(u, Any::class.java)
    }
}
"""


def test_kotlin_uri_components_builder_chains_link(tmp_path: Path) -> None:
    files = {"customers/src/main/resources/application.yml": "spring:\n  application:\n    name: customers-service\n",
             "customers/src/main/java/shop/customers/OwnerResource.java": JAVA_SERVER,
             "gateway/src/main/kotlin/shop/gateway/UriClient.kt": KOTLIN_CLIENT}
    index_files(tmp_path / "shop", files, "shop", tmp_path / "x.db").close()
    assert requests(tmp_path / "x.db") == [
        ("changing(Int)", "unlinked:url", "GET {}"),  # a `var`: not followed
        ("moved(Int)", "unlinked:url", "GET {}"),  # the host set apart: not read
        ("owner(Int)", "endpoint:GET /owners/{}", "http://customers-service/owners/{}"),
        ("owners()", "endpoint:GET /owners", "http://customers-service/owners"),
        ("pet(Int,Int)", "endpoint:GET /owners/{}/pets/{}", "http://customers-service/owners/{o}/pets/{}"),
        ("replaced(Int)", "unlinked:url", "GET {}"),  # replacePath: not read
    ]
