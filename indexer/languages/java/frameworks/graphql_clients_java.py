"""Java GraphQL clients -> :class:`~indexer.model.GraphqlDocument` / :class:`~indexer.model.GraphqlUse`
(the linker, :mod:`indexer.frameworks.graphql_clients`, makes each operation CALL the root fields it
selects). Uses only in a file naming a GraphQL client type (``GraphQlClient``, ``HttpGraphQlClient``,
``GraphQLClient``, ``MonoGraphQLClient``, ``DgsGraphQLClient``, ``GraphQLQueryRequest``); documents
held in ``String`` constants in any file whose text says ``query`` / ``mutation`` / ``subscription``.

* Spring for GraphQL (framework ``spring-graphql-client``): ``client.document(doc)``: a literal or text
  block (a document written there), a local variable holding one, or a constant (``ref``: a
  ``String`` field whose literal reads as GraphQL is a document named by the field, ``Queries.ORDERS``);
  ``client.documentName("orderDetails")``: the document file ``graphql-documents/orderDetails.graphql``
  (or ``.gql``) under the resources (``path``, matched by its end).
* Netflix DGS client (framework ``dgs-client``): ``executeQuery(doc, ...)`` / ``reactiveExecuteQuery``
  with a literal or constant as above; a codegen request class, ``new ShowsGraphQLQuery()``,
  ``new ShowsGraphQLQuery.Builder()``, ``ShowsGraphQLQuery.newRequest()`` (handed to
  ``GraphQLQueryRequest`` or ``DgsGraphQLClient.request``): the root field ``shows`` (the class name
  without ``GraphQLQuery``, first letter lower-cased, the codegen's rule), whose operation type the
  repository's schema says (``root_field``).

The running code is the enclosing method. Rules in ``indexer/languages/java/queries/graphql_clients.scm``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.frameworks import LOOKS_LIKE_GRAPHQL, document_of
from indexer.languages.base import query, run_query
from indexer.languages.java.frameworks.common import GRAMMAR, JavaFile, compact, string_value
from indexer.model import FileExtraction, GraphqlUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)
_GATE = (b"GraphQlClient", b"GraphQLClient", b"GraphQLQueryRequest")
_KEYWORDS = re.compile(rb"\b(?:query|mutation|subscription)\b")
"""A file without a client type may still hold documents in constants (``Queries.ORDERS``)."""
_GENERATED = re.compile(r"(\w+)GraphQLQuery(?:\.Builder)?$")
_DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's GraphQL client documents and the calls running them."""
    clients = any(g in src.data for g in _GATE)
    if not clients and not _KEYWORDS.search(src.data):
        return
    jf = JavaFile.of(root, src, out)
    spring = b"GraphQlClient" in src.data
    runs: list[dict[str, list[Node]]] = []
    for _, caps in run_query(query(GRAMMAR, "java/queries", "graphql_clients"), root):
        if "const" in caps:
            _constant(jf, caps["const"][0], caps["value"][0], out)
        elif not clients:
            continue
        elif "run_call" in caps:
            runs.append(caps)
        elif "new" in caps:
            m = _GENERATED.search(compact(src, caps["gen"][0]))
            if m is not None and m.group(1):
                node = caps["new"][0]
                line, col = jf.src.line(node), jf.src.col(node)
                name = m.group(1)
                out.graphql_uses.append(GraphqlUse("dgs-client", jf.enclosing(node), line, col,
                                                   root_field=name[:1].lower() + name[1:]))
    for caps in runs:
        _run(jf, caps["run_call"][0], src.text(caps["method"][0]), caps["args"][0], out, spring)


def _constant(jf: JavaFile, name: Node, value: Node, out: FileExtraction) -> None:
    d = jf.field(name)
    text = string_value(jf.src, value)
    if d is None or not LOOKS_LIKE_GRAPHQL.search(text):
        return
    line, col = _text_start(jf, value)
    framework = "dgs-client" if b"GraphQLClient" in jf.src.data else "spring-graphql-client"
    out.graphql_documents.append(document_of(framework, text, line, col, d.qualname, None))


def _text_start(jf: JavaFile, lit: Node) -> tuple[int, int]:
    """Where a literal's text starts: after its quote, or on the line after a text block's ``\"\"\"``."""
    line, col = jf.src.line(lit), jf.src.col(lit)
    return (line + 1, 0) if jf.src.text(lit).startswith('"""') else (line, col + 1)


def _run(jf: JavaFile, call: Node, method: str, args_node: Node, out: FileExtraction, spring: bool) -> None:
    args = [a for a in args_node.named_children if a.type not in ("line_comment", "block_comment")]
    if not args:
        return
    framework = "spring-graphql-client" if method in ("document", "documentName") else "dgs-client"
    if framework == "spring-graphql-client" and not spring:
        return
    owner = jf.enclosing(call)
    name_node = call.child_by_field_name("name")
    line, col = jf.src.line(name_node), jf.src.col(name_node)
    arg = args[0]
    if method == "documentName":
        if arg.type == "string_literal":
            out.graphql_uses.append(GraphqlUse(framework, owner, line, col,
                                               path=f"graphql-documents/{string_value(jf.src, arg)}"))
        else:
            out.graphql_uses.append(GraphqlUse(framework, owner, line, col, ref=compact(jf.src, arg), scope=owner))
        return
    if arg.type == "identifier":
        is_local, value = jf.local(arg)
        if value is not None and value.type == "string_literal":
            arg = value
        elif is_local:
            out.graphql_uses.append(GraphqlUse(framework, owner, line, col, ref=jf.src.text(arg), scope=owner))
            return
    if arg.type == "string_literal":
        text = string_value(jf.src, arg)
        if not LOOKS_LIKE_GRAPHQL.search(text):
            return
        tline, tcol = _text_start(jf, arg)
        out.graphql_documents.append(document_of(framework, text, tline, tcol, None, owner, run=True))
        out.graphql_uses.append(GraphqlUse(framework, owner, line, col, document=len(out.graphql_documents) - 1))
        return
    ref = compact(jf.src, arg).removeprefix("this.")
    if _DOTTED.fullmatch(ref):
        out.graphql_uses.append(GraphqlUse(framework, owner, line, col, ref=ref, scope=owner))
    elif method in ("executeQuery", "reactiveExecuteQuery"):
        return  # request.serialize(): the codegen request class is the use
    else:
        out.graphql_uses.append(GraphqlUse(framework, owner, line, col, ref=ref, scope=owner))
