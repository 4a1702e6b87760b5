"""Contextual chunk headers (issue 22 item 4): what the embedding model reads for each kind of chunk,
the chunk text shown to users left as the real source, the embedding cache keyed by what is
embedded, and an index embedded from the bare text re-embedded in full (never a mix)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from indexer.chunk_context import (
    EMBEDDING_TEXT_FORMAT,
    chunk_checksum,
    embedding_record,
    embedding_text,
    qualified_name,
    short_path,
)
from indexer.chunking import chunk_file
from indexer.embedding import embed_pending
from indexer.languages import extractor_for_path
from lsp_server.cli import main
from stores.contracts import Chunk
from stores.embedded import EmbeddedStore
from tests.index_harness import index_fixture
from stores.embedder import Embedder

ORDERS = '''"""Orders of the shop."""
import os

RETRIES = 3


class Repo:
    """Stores orders."""

    def find(self, order_id):
        """Find one order by its id."""
        return self.db.get(order_id)

    class Meta:
        table = "orders"


def load(path):
    return open(path).read()
'''

OWNER = """package org.shop.owner;

public class Owner {
    private String city;

    public void setCity(String city) {
        this.city = city;
    }

    public void setCity(int code) {
        this.city = String.valueOf(code);
    }
}
"""


def _chunks(path: str, source: str) -> dict[tuple[str, int], Chunk]:
    ex = extractor_for_path(path).extract(path, source.encode())
    return {(c.name, c.start_line): c for c in chunk_file("r", "p", ex, source)}


def test_python_method_in_a_class_top_level_function_class_and_file_section() -> None:
    path = "src/shop/sales/orders.py"
    chunks = _chunks(path, ORDERS)
    lines = ORDERS.split("\n")
    find = chunks[("find", 10)]
    assert embedding_text(find) == (
        "shop/sales/orders.py\n"
        "Repo.find\n"
        "    def find(self, order_id):\n"
        '        """Find one order by its id."""\n'
        "        return self.db.get(order_id)")
    # what search shows is the source itself, docstring included, no header
    assert find.text == "\n".join(lines[9:12])
    assert embedding_text(chunks[("load", 18)]) == "shop/sales/orders.py\ndef load(path):\n    return open(path).read()"
    assert embedding_text(chunks[("Repo", 7)]).split("\n")[:3] == [
        "shop/sales/orders.py", "class Repo:", '    """Stores orders."""']  # top level: no name line
    assert embedding_text(chunks[("Meta", 14)]).split("\n")[:3] == [
        "shop/sales/orders.py", "Repo.Meta", "    class Meta:"]  # nested class: its enclosing class named
    section = chunks[("orders.py", 1)]
    assert section.kind == "file_section"
    assert embedding_text(section) == 'shop/sales/orders.py\n"""Orders of the shop."""\nimport os\n\nRETRIES = 3\n\n'
    assert section.text == "\n".join(lines[0:6])


def test_java_overloads_share_the_qualified_name_and_differ_by_their_signature_line() -> None:
    path = "src/main/java/org/shop/owner/Owner.java"
    chunks = _chunks(path, OWNER)
    first, second = chunks[("setCity", 6)], chunks[("setCity", 10)]
    assert first.fqn == "r:src/main/java/org/shop/owner/Owner.Owner.setCity(String)"
    assert embedding_text(first) == (
        "shop/owner/Owner.java\nOwner.setCity\n"
        "    public void setCity(String city) {\n        this.city = city;\n    }")
    assert embedding_text(second).split("\n")[:3] == [
        "shop/owner/Owner.java", "Owner.setCity", "    public void setCity(int code) {"]


def test_doc_and_config_chunks_get_the_path_line_only() -> None:
    readme = _chunks("site/docs/guide/README.md", "# Shop\n\nIntro.\n\n## Install\n\nRun `make`.\n")
    install = next(c for c in readme.values() if c.name == "Install")
    assert install.kind == "doc"
    assert embedding_text(install) == "docs/guide/README.md\nShop > Install\n## Install\n\nRun `make`."
    assert install.text == "Shop > Install\n## Install\n\nRun `make`."  # its heading trail is its own text
    config = _chunks("src/main/resources/application.yml", "server:\n  port: 8081\n")
    port = next(iter(config.values()))
    assert port.kind == "config"
    assert embedding_text(port) == f"main/resources/application.yml\n{port.text}"


@pytest.mark.parametrize(("fqn", "file", "kind", "name", "expected"), [
    ("r:src/app.Cart.total(1)", "src/app.py", "method", "total", "Cart.total"),
    ("r:src/app.Cart.total(1)#2", "src/app.py", "method", "total", "Cart.total"),  # a redefinition
    ("r:src/foo.ts.Foo.bar(0)", "src/foo.ts", "method", "bar", "Foo.bar"),  # foo.ts beside foo.js: whole path
    ("shop@dev:web/routes.DELETE /x/:id(2)", "web/routes.js", "function", "DELETE /x/:id", "DELETE /x/:id"),
    ("r:a/B.B.put(Map,List)", "a/B.java", "method", "put", "B.put"),
    ("r:elsewhere.Thing", "a/b.py", "class", "Thing", "Thing"),  # an fqn of another shape: the name
])
def test_qualified_name_from_the_fqn(fqn, file, kind, name, expected) -> None:
    chunk = Chunk("c", "r", "p", file, "x", kind, name, fqn, None, 1, 2, "text", "")
    assert qualified_name(chunk) == expected


def test_short_path_and_the_record() -> None:
    assert short_path("django/contrib/admin/views/main.py") == "admin/views/main.py"
    assert short_path("app.py") == "app.py"
    assert embedding_record("m@1") == f"m@1 text={EMBEDDING_TEXT_FORMAT}"


def test_the_checksum_is_the_digest_of_what_is_embedded() -> None:
    source = "class A:\n    def ping(self):\n        return 1\n\n\nclass B:\n    def ping(self):\n        return 1\n"
    chunks = _chunks("m.py", source)
    a, b = chunks[("ping", 2)], chunks[("ping", 7)]
    assert a.text == b.text and a.checksum != b.checksum  # equal source, two classes: two vectors
    assert a.checksum == hashlib.sha1(embedding_text(a).encode()).hexdigest() == chunk_checksum(a)


class _Recorder:
    model_id = "recorder-model"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str], batch_size: int = 16) -> list[list[float]]:
        self.seen.extend(texts)
        return [[1.0] + [0.0] * 383 for _ in texts]


def _repo(tmp: Path) -> Path:
    src = tmp / "src"
    (src / "shop").mkdir(parents=True)
    (src / "shop" / "orders.py").write_text(ORDERS, encoding="utf-8")
    return src


def test_vectors_of_the_bare_text_are_all_dropped_and_computed_again(tmp_path: Path) -> None:
    store = index_fixture(_repo(tmp_path), tmp_path / "index.db", "r")
    n = store.chunk_count()["chunks"]
    # an index embedded before the headers: the bare model id recorded, every chunk with a vector
    store.set_embedding_model(_Recorder.model_id)
    chunks = store.pending_chunks(1000)
    store.set_embeddings({c.id: [0.0, 1.0] + [0.0] * 382 for c in chunks})
    assert store.chunk_count() == {"chunks": n, "embedded": n} and len(chunks) == n
    embedder = _Recorder()
    report = embed_pending(store, embedder)
    assert (report.reembedded, report.embedded) == (True, n)
    # every chunk once, with its header (never the bare text the old vectors were made of)
    assert sorted(embedder.seen) == sorted(embedding_text(c) for c in chunks)
    assert not set(embedder.seen) & {c.text for c in chunks}
    assert any(t.startswith("shop/orders.py\nRepo.find\n    def find(self, order_id):") for t in embedder.seen)
    shown = store.get_chunks(["r:shop/orders.Repo.find(1)"])["r:shop/orders.Repo.find(1)"]
    assert shown.text.startswith("    def find(self, order_id):") and shown.embedding[0] == pytest.approx(1.0)
    embedder.seen.clear()
    again = embed_pending(store, embedder)  # same model, same text format: nothing to do
    assert (again.reembedded, again.embedded, embedder.seen) == (False, 0, [])
    store.close()


def test_ripple_embed_says_it_re_embeds_and_stores_vectors_of_the_header_text(tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    store = index_fixture(_repo(tmp_path), db, "r")
    model = Embedder()
    store.set_embedding_model(model.model_id)  # as an index of the previous release records it
    store.set_embeddings({c.id: [0.0, 1.0] + [0.0] * 382 for c in store.pending_chunks(1000)})
    store.close()
    result = CliRunner().invoke(main, ["embed", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["reembedded"] is True and doc["embedded"] == doc["chunks"]  # every chunk has a vector again
    assert "were dropped and every chunk embedded again" in " ".join(result.stderr.split())
    store = EmbeddedStore(db)
    find = store.get_chunks(["r:shop/orders.Repo.find(1)"])["r:shop/orders.Repo.find(1)"]
    store.close()
    with_header, bare = model.embed([embedding_text(find), find.text])
    stored = list(find.embedding)
    assert sum(a * b for a, b in zip(stored, with_header)) > 0.98  # batches quantise a little differently
    assert sum(a * b for a, b in zip(stored, bare)) < sum(a * b for a, b in zip(stored, with_header)) - 0.01


def test_with_checksum_sets_the_digest_and_keeps_every_other_field() -> None:
    from indexer.chunk_context import with_checksum

    chunk = Chunk("r:app/m.py:f", "r", "p", "app/m.py", "python", "function", "f", "r:app.m.f", "r:app.m", 3, 9,
                  "def f():\n    return 1\n", "stale", (0.5, 0.25))
    done = with_checksum(chunk)
    assert done.checksum == hashlib.sha1(embedding_text(chunk).encode("utf-8")).hexdigest()
    assert (done.id, done.repo, done.product, done.file, done.language, done.kind, done.name, done.fqn, done.parent,
            done.start_line, done.end_line, done.text, done.embedding) == (
        "r:app/m.py:f", "r", "p", "app/m.py", "python", "function", "f", "r:app.m.f", "r:app.m", 3, 9,
        "def f():\n    return 1\n", (0.5, 0.25))
    assert chunk.checksum == "stale" and done is not chunk  # the chunk given is not changed
