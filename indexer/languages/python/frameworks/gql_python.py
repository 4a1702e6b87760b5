"""Python ``gql`` clients -> :class:`~indexer.model.GraphqlDocument` / :class:`~indexer.model.GraphqlUse`
(framework ``gql``; only in a file importing ``gql``). The linker (:mod:`indexer.frameworks.graphql_clients`)
makes each operation CALL the root fields it selects.

* documents: ``gql('''...''')`` with a string literal (implicit concatenation too); held by a
  module-level ``NAME = gql(...)`` (``name``), or written in a function (``owner``);
* uses: ``client.execute(doc)``, ``session.execute(doc)``, ``execute_async`` / ``execute_sync`` /
  ``subscribe`` / ``subscribe_async``: the first argument or the ``document`` / ``request`` keyword,
  written there (``session.execute(gql("..."))``), a local variable holding a document, or a
  module-level / imported constant (``ref``, followed by the linker). ``strict``: the file imports
  ``gql``, so an argument that resolves to no document is counted unlinked.

Rules in ``indexer/languages/python/queries/gql_python.scm``.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.frameworks import document_of
from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, Context, ref_text, scope_of, string_value
from indexer.model import FileExtraction, GraphqlUse

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "gql"


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's ``gql`` documents and the client calls running them."""
    if b"gql" not in src.data or not Context(src, out).imports.uses("gql"):
        return
    docs: dict[int, int] = {}  # id of the gql(...) call -> index in out.graphql_documents
    local: dict[tuple[str | None, str], int] = {}  # (function, variable) -> document index
    runs: list[dict[str, list[Node]]] = []
    for _, caps in run_query(query("python", "python/queries", "gql_python"), root):
        if "doc_call" in caps:
            call = caps["doc_call"][0]
            if call.id not in docs:
                i = _document(src, call, caps["doc"][0], out, local)
                if i is not None:
                    docs[call.id] = i
        elif "run_call" in caps:
            runs.append(caps)
    for caps in runs:
        call = caps["run_call"][0]
        arg = Args.of(src, caps["args"][0])
        doc = arg.keywords.get("document") or arg.keywords.get("request") or (arg.positional[0] if arg.positional else None)
        if doc is None:
            continue
        scope = scope_of(call, src)
        line, col = src.line(caps["method"][0]), src.col(caps["method"][0])
        if doc.type == "call" and doc.id in docs:
            out.graphql_documents[docs[doc.id]].run = True
            out.graphql_uses.append(GraphqlUse(FRAMEWORK, scope, line, col, document=docs[doc.id]))
            continue
        if doc.type == "identifier":
            i = _local(local, scope, src.text(doc))
            if i is not None:
                out.graphql_documents[i].run = True
                out.graphql_uses.append(GraphqlUse(FRAMEWORK, scope, line, col, document=i))
                continue
        if doc.type in ("identifier", "attribute"):
            out.graphql_uses.append(GraphqlUse(FRAMEWORK, scope, line, col, ref=ref_text(src, doc), scope=scope))


def _document(src: SourceText, call: Node, arg: Node, out: FileExtraction,
              local: dict[tuple[str | None, str], int]) -> int | None:
    text = string_value(src, arg)
    if text is None:
        return None
    content = next((c for c in _strings(arg) if c.type == "string_content"), None)
    at = content or arg
    scope = scope_of(call, src)
    name = None
    holder = call.parent
    if holder is not None and holder.type == "assignment":
        left = holder.child_by_field_name("left")
        if left is not None and left.type == "identifier":
            up = holder.parent
            if up is not None and up.type == "expression_statement":
                up = up.parent
            if scope is None and up is not None and up.type == "module":
                name = src.text(left)
            else:
                local[(scope, src.text(left))] = len(out.graphql_documents)
    out.graphql_documents.append(document_of(FRAMEWORK, text, src.line(at), src.col(at), name, scope))
    return len(out.graphql_documents) - 1


def _strings(node: Node) -> list[Node]:
    """The ``string`` nodes' children of a literal (a concatenation's parts in order)."""
    parts = node.named_children if node.type == "concatenated_string" else [node]
    return [c for p in parts if p.type == "string" for c in p.children]


def _local(local: dict[tuple[str | None, str], int], scope: str | None, name: str) -> int | None:
    s = scope
    while s:
        if (s, name) in local:
            return local[(s, name)]
        s = s.rpartition(".")[0] or None
    return None
