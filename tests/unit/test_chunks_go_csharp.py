"""Search chunks of Go and C# files (issue 21 item 7): one chunk per function / method / type with
its parent, the C# attributes and modifiers inside the chunk text (a definition spans its attribute
lists), the file header (package clause or namespace, imports, top comments) as the first
``file_section`` chunk; the graph node of each definition carries the metadata as properties
(``decorators``, ``modifiers``, ``exported``)."""

from indexer.chunking import chunk_file
from indexer.languages.csharp.extractor import EXTRACTOR as CS
from indexer.languages.go.extractor import EXTRACTOR as GO
from indexer.resolve.output import node_props
from stores.contracts import Node

GO_SRC = '''// Package store keeps stock levels.
package store

import "sync"

type Store struct {
    mu sync.Mutex
}

func (s *Store) Level(sku string) int { return 0 }

func helper() {}
'''

CS_SRC = '''using Microsoft.AspNetCore.Mvc;

namespace Shop.Api;

[ApiController]
[Route("api/[controller]")]
public class OrdersController : ControllerBase
{
    [HttpGet("{id}")]
    public IActionResult Get(int id) => Ok();
}
'''


def test_go_chunks_with_parents_and_the_file_header():
    ex = GO.extract("store/store.go", GO_SRC.encode())
    chunks = chunk_file("r", "p", ex, GO_SRC)
    assert [(c.kind, c.name, c.parent, c.start_line, c.end_line, c.language) for c in chunks] == [
        ("file_section", "store.go", None, 1, 5, "go"),
        ("class", "Store", None, 6, 8, "go"),
        ("method", "Level", chunks[1].id, 10, 10, "go"),  # beside its type, not in a file section
        ("function", "helper", None, 12, 12, "go"),
    ]
    assert chunks[0].text.startswith("// Package store keeps stock levels.\npackage store\n\nimport \"sync\"")
    level = next(d for d in ex.definitions if d.name == "Level")
    helper = next(d for d in ex.definitions if d.name == "helper")
    assert (node_props("go", level).get("exported"), node_props("go", helper).get("exported")) == (True, None)


def test_csharp_chunks_carry_attributes_modifiers_and_parent():
    ex = CS.extract("Api/OrdersController.cs", CS_SRC.encode())
    chunks = chunk_file("r", "p", ex, CS_SRC)
    assert [(c.kind, c.name, c.parent, c.start_line, c.end_line, c.language) for c in chunks] == [
        ("file_section", "OrdersController.cs", None, 1, 4, "csharp"),
        ("class", "OrdersController", None, 5, 11, "csharp"),
        ("method", "Get", chunks[1].id, 9, 10, "csharp"),
    ]
    assert chunks[2].text == '    [HttpGet("{id}")]\n    public IActionResult Get(int id) => Ok();'
    assert chunks[1].text.startswith('[ApiController]\n[Route("api/[controller]")]\npublic class OrdersController')
    get = next(d for d in ex.definitions if d.name == "Get")
    props = node_props("csharp", get)
    assert (props["decorators"], props["modifiers"], props["exported"]) == (['HttpGet("{id}")'], ["public"], True)


def test_search_hit_metadata_for_go_and_csharp_nodes():
    from analysis.retrieval import chunk_metadata

    go = GO.extract("store/store.go", GO_SRC.encode())
    go_chunks = {c.name: c for c in chunk_file("r", "p", go, GO_SRC)}

    def node(ex, name, label, lang):
        d = next(x for x in ex.definitions if x.name == name)
        return Node(f"r:{d.qualname}", label, d.name, d.qualname, "r", ex.path, d.start_line, 0, d.end_line, 0,
                    node_props(lang, d))

    level = chunk_metadata(go_chunks["Level"], node(go, "Level", "Method", "go"))
    helper = chunk_metadata(go_chunks["helper"], node(go, "helper", "Function", "go"))
    assert (level["visibility"], level["parent"], helper["visibility"]) == ("public", "Store", "package")
    cs = CS.extract("Api/OrdersController.cs", CS_SRC.encode())
    cs_chunks = {c.name: c for c in chunk_file("r", "p", cs, CS_SRC)}
    meta = chunk_metadata(cs_chunks["Get"], node(cs, "Get", "Method", "csharp"))
    assert (meta["decorators"], meta["visibility"], meta["modifiers"], meta["parent"]) == (
        ['HttpGet("{id}")'], "public", [], "OrdersController")
    bare = CS.extract("a.cs", b"class A { void M() { } }\n")
    bare_chunks = {c.name: c for c in chunk_file("r", "p", bare, "class A { void M() { } }\n")}
    assert chunk_metadata(bare_chunks["M"], node(bare, "M", "Method", "csharp"))["visibility"] == "private"
    assert chunk_metadata(bare_chunks["A"], node(bare, "A", "Class", "csharp"))["visibility"] == "internal"
