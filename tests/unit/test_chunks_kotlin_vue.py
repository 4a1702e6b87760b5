"""Search chunks of Kotlin and Vue files (issue 21 item 7): annotations and visibility in the chunk
text, the parent of each member, the file header chunk (package, imports, a Vue template), the
language each chunk is filtered by (``ripple search --language kotlin|vue``)."""

from __future__ import annotations

import re

from click.testing import CliRunner

from indexer.chunking import chunk_file
from indexer.languages import extractor_for_path
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from lsp_server.cli import main
from stores.embedded import EmbeddedStore
from tests.golden.harness import FIXTURES

FIXTURE = FIXTURES / "kotlin-vue-shop"
HIT = re.compile(r"^\S+:\d+\s")
CONTROLLER = "backend/src/main/kotlin/com/shop/web/OrderController.kt"
VIEW = "frontend/src/components/OrderView.vue"


def chunks(rel: str):
    data = (FIXTURE / rel).read_bytes()
    ex = extractor_for_path(rel).extract(rel, data)
    return chunk_file("r", "p", ex, data.decode())


def test_kotlin_chunks_carry_annotations_visibility_parent_and_the_file_header() -> None:
    found = chunks(CONTROLLER)
    parent = "r:backend/src/main/kotlin/com/shop/web/OrderController.OrderController"
    assert [(c.kind, c.name, c.language, c.parent, c.start_line, c.end_line) for c in found] == [
        ("file_section", "OrderController.kt", "kotlin", None, 1, 6),  # package and imports
        ("class", "OrderDto", "kotlin", None, 7, 7),
        ("method", "OrderDto", "kotlin", "r:backend/src/main/kotlin/com/shop/web/OrderController.OrderDto", 7, 7),
        ("class", "OrderController", "kotlin", None, 9, 17),
        ("method", "OrderController", "kotlin", parent, 11, 11),
        ("method", "get", "kotlin", parent, 12, 13),
        ("method", "create", "kotlin", parent, 15, 16),
    ]
    by = {(c.kind, c.name): c.text for c in found}
    assert by[("file_section", "OrderController.kt")].splitlines()[3] == \
        "import com.shop.service.OrderService as Orders"
    # the class header keeps its annotations and its name line (a member starts on it)
    assert by[("class", "OrderController")].splitlines()[:3] == [
        "@RestController", '@RequestMapping("/api/orders")', "class OrderController(private val service: Orders) {"]
    assert by[("method", "get")] == '    @GetMapping("/{id}")\n    fun get(@PathVariable id: Long): Order = service.find(id)'
    assert "private val service: Orders" in by[("method", "OrderController")]


def test_vue_chunks_component_members_and_template_header() -> None:
    found = chunks(VIEW)
    parent = "r:frontend/src/components/OrderView.OrderView"
    assert [(c.kind, c.name, c.language, c.parent, c.start_line, c.end_line) for c in found] == [
        ("file_section", "OrderView.vue", "vue", None, 1, 10),  # the template and the script's imports
        ("class", "OrderView", "vue", None, 11, 28),
        ("method", "data", "vue", parent, 14, 16),
        ("method", "reload", "vue", parent, 18, 20),
        ("method", "fetchOrder", "vue", parent, 21, 23),
        ("method", "mounted", "vue", parent, 25, 27),
        ("file_section", "OrderView.vue", "vue", None, 29, 29),
    ]
    assert '<button @click="reload">Reload</button>' in found[0].text
    assert 'import { getOrder } from "@/api/orders";' in found[0].text


def test_search_filters_by_the_new_languages(tmp_path) -> None:
    db = tmp_path / "kv.db"
    s = EmbeddedStore(db)
    try:
        index_repository(FIXTURE, s, s, IndexOptions(repo="kv", jobs=1))
    finally:
        s.close()
    runner = CliRunner()
    kotlin = runner.invoke(main, ["search", "GetMapping", "--language", "kotlin", "--db", str(db), "--limit", "3"])
    assert kotlin.exit_code == 0, kotlin.output
    lines = [ln for ln in kotlin.output.splitlines() if HIT.match(ln)]  # hits, not the embedding notice
    assert len(lines) == 3 and all(ln.startswith("backend/") and ".kt:" in ln for ln in lines)
    assert "com.shop.web.OrderController.get" in lines[0]
    vue = runner.invoke(main, ["search", "reload", "--language", "vue", "--db", str(db), "--limit", "3"])
    assert vue.exit_code == 0, vue.output
    vlines = [ln for ln in vue.output.splitlines() if HIT.match(ln)]
    assert len(vlines) == 3 and all(".vue:" in ln for ln in vlines)
    bad = runner.invoke(main, ["search", "x", "--language", "cobol", "--db", str(db)])
    assert bad.exit_code != 0 and "kotlin" in bad.output and "vue" in bad.output


def test_search_hit_metadata_for_kotlin_and_vue() -> None:
    from analysis.retrieval import chunk_metadata
    from indexer.resolve.repository import resolve_repository

    files = {}
    for rel in (CONTROLLER, VIEW):
        data = (FIXTURE / rel).read_bytes()
        files[rel] = (extractor_for_path(rel).extract(rel, data), data)
    resolved = resolve_repository("r", [(ex, "0" * 64, len(data)) for ex, data in files.values()])
    nodes = {n.id: n for f in resolved.files for n in f.nodes}
    meta = {}
    for ex, data in files.values():
        for c in chunk_file("r", "p", ex, data.decode()):
            if c.fqn in nodes and c.kind != "file_section":
                meta[(c.kind, c.name)] = chunk_metadata(c, nodes[c.fqn])
    assert meta[("method", "get")] == {"language": "kotlin", "kind": "method", "decorators": ['GetMapping("/{id}")'],
                           "modifiers": [], "visibility": "public", "exported": False,
                           "parent": "OrderController", "signature": "fun get(@PathVariable id: Long): Order",
                           "documented": False}
    assert meta[("class", "OrderController")]["decorators"] == ["RestController", 'RequestMapping("/api/orders")']
    assert (meta[("class", "OrderDto")]["modifiers"], meta[("class", "OrderDto")]["visibility"]) == (["data"], "public")
    reload = meta[("method", "reload")]
    assert (reload["language"], reload["parent"], reload["visibility"]) == (
        "vue", "OrderView", "public")
    assert (meta[("class", "OrderView")]["decorators"], meta[("class", "OrderView")]["exported"]) == (["component"], True)
