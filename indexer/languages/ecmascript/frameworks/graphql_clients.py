"""GraphQL client operations in JavaScript / TypeScript -> :class:`~indexer.model.GraphqlDocument` /
:class:`~indexer.model.GraphqlUse` (the linker, :mod:`indexer.frameworks.graphql_clients`, makes each
operation CALL the root fields it selects).

Rules (``indexer/languages/ecmascript/queries/graphql_clients.scm``, read here):

* documents: ``gql`...``` / ``graphql`...``` tagged templates (Apollo Client, urql, graphql-tag, Relay)
  and ``gql(...)`` / ``graphql(...)`` calls whose first argument is a string or template (graphql-request,
  gql.tada, codegen's ``graphql()``). ``${X}`` substitutions are blanked before parsing and listed in
  ``includes`` (their fragments are added by the linker; gql.tada's second argument ``[Fragment]``
  too). A document that is the value of a module-level ``const X`` is held by ``X`` (``name``);
  one written in a function belongs to it (``owner``).
* uses: a call of a GraphQL hook or client method (``useQuery``, ``useLazyQuery``, ``useMutation``,
  ``useSubscription``, ``useSuspenseQuery``, ``useBackgroundQuery``, Relay ``useLazyLoadQuery`` /
  ``useQueryLoader`` / ``usePreloadedQuery`` / ``fetchQuery`` / ``loadQuery`` / ``commitMutation`` /
  ``requestSubscription``, ``client.query`` / ``mutate`` / ``subscribe`` / ``watchQuery`` (Apollo,
  apollo-angular), urql ``client.query`` / ``mutation`` / ``subscription``, graphql-request
  ``request`` / ``rawRequest``). The document is the value of a ``query`` / ``mutation`` /
  ``subscription`` / ``document`` property of an object argument (also of Apollo Server's testing
  ``server.executeOperation({query})``, apollo-link ``execute(link, {query})`` and graphql-js
  ``graphql({source})`` runs), else the first argument (the
  second too for ``request(url, doc)`` and Relay's ``fetchQuery(env, q)`` family). It may be written
  there (``useQuery(gql`...`)``), be a local variable holding one, a plain string that reads as
  GraphQL, a module-level or imported constant (``ref``, followed by the linker), or a name imported
  from a ``.graphql`` / ``.gql`` file (webpack / Vite loaders: ``path``, and ``operation`` for a named
  import). ``strict`` (an unresolvable document is counted) for hooks, object properties, and any
  call in a file importing a GraphQL client package; generic names (``query``, ``request``,
  ``subscribe``: :data:`_GENERIC`) in other files only link when their argument, or their object
  argument's ``query`` property, turns out to be a document (a generated REST client's
  ``this.request({path, method, query})`` is no GraphQL operation).
* an HTTP request posted to a GraphQL path, as tests of a GraphQL server write it (supertest / chai-http
  ``request(app.getHttpServer()).post("/graphql").send({ query: "..." })``, any chain whose ``post``
  path's last segment is ``graphql``): the ``query`` property of ``send``'s object argument.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from indexer.frameworks import LOOKS_LIKE_GRAPHQL, document_of
from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.model import FileExtraction, GraphqlUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")
_CLIENT_PACKAGES = re.compile(
    r"^(@apollo/client(/.*)?|apollo-client|apollo-boost|@apollo/react-hooks|react-apollo|apollo-angular|urql|@urql/[\w-]+"
    r"|graphql-request|graphql-tag|react-relay(/.*)?|relay-runtime|gql\.tada|@graphql-typed-document-node/core)$")
_FRAMEWORKS = (("apollo", "apollo-client"), ("urql", "urql"), ("graphql-request", "graphql-request"),
               ("relay", "relay"))
_DOC_KEYS = ("query", "mutation", "subscription", "document", "source")
_GENERIC = frozenset({"query", "request", "subscribe"})
"""Runner names other libraries use too (an HTTP client's ``request({path, query})``, RxJS's ``subscribe``):
outside a file importing a GraphQL client, what they are given is a document only when it reads as one."""
_OBJECT_ONLY = frozenset({"execute", "executeOperation", "graphql"})
"""Runners whose document is only ever an object argument's property (their first argument is a
link, a schema or a request object)."""
_SECOND = frozenset({"request", "rawRequest", "fetchQuery", "loadQuery"})
_DOC_FILE = re.compile(r"\.(graphql|gql)$")
_GRAPHQL_PATH = re.compile(r"(^|/)graphql/?$")
"""The path a request posts a GraphQL document to (NestJS / Apollo Server / express-graphql default)."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's GraphQL documents and the calls running them."""
    if b"gql" not in src.data and b"graphql" not in src.data and b"Query" not in src.data \
            and b"Mutation" not in src.data and b"request" not in src.data:
        return
    jf = js_file(root, src, out)
    matches = jf.matches("graphql_clients")
    if not matches:
        return
    strict_file = any(_CLIENT_PACKAGES.match(i.module) for i in out.imports)
    framework = next((f for key, f in _FRAMEWORKS for i in out.imports
                      if key in i.module and _CLIENT_PACKAGES.match(i.module)), "graphql-js")
    docs: dict[int, int] = {}  # id of the @doc_call node -> index in out.graphql_documents
    locals_: dict[tuple[str | None, str], int] = {}  # (scope, local const) -> document index
    for caps in matches:
        if "doc_call" in caps:
            call, lit = caps["doc_call"][0], caps["doc"][0]
            if call.id in docs:
                continue
            docs[call.id] = _document(jf, call, lit, out, locals_, framework)
    for caps in matches:
        if "run_call" in caps:
            if jf.text(caps["runner"][0]) == "send" and not _posted_to_graphql(jf, caps["run_call"][0]):
                continue
            _use(jf, caps["run_call"][0], jf.text(caps["runner"][0]), caps["args"][0], out, docs, locals_,
                 strict_file, framework)


def _document(jf: JsFile, call: Node, lit: Node, out: FileExtraction, locals_: dict[tuple[str | None, str], int],
              framework: str) -> int:
    text, includes = _text(jf, lit)
    args = call.child_by_field_name("arguments")
    if args is not None and args.type == "arguments":  # gql.tada: graphql(`...`, [OrderFields])
        rest = arguments(args)[1:2]
        if rest and rest[0].type == "array":
            includes += [r for r in (jf.name_ref(e) for e in rest[0].named_children) if r]
    scope = jf.code_scope(call)
    holder = call.parent
    while holder is not None and holder.type in ("parenthesized_expression", "as_expression", "satisfies_expression",
                                                 "non_null_expression"):
        holder = holder.parent
    name = None
    if holder is not None and holder.type == "variable_declarator":
        target = holder.child_by_field_name("name")
        if target is not None and target.type == "identifier":
            if scope is None and _module_level(holder):
                name = jf.text(target)
            else:
                locals_[(scope, jf.text(target))] = len(out.graphql_documents)
    line, col = jf.pos(lit)
    out.graphql_documents.append(document_of(framework, text, line, col + 1, name, scope, includes))
    return len(out.graphql_documents) - 1


def _module_level(declarator: Node) -> bool:
    decl = declarator.parent
    up = decl.parent if decl is not None else None
    if up is not None and up.type == "export_statement":
        up = up.parent
    return up is not None and up.type == "program"


def _text(jf: JsFile, lit: Node) -> tuple[str, list[str]]:
    """The document's text (substitutions blanked, so positions stay) and the interpolated names."""
    if lit.type == "string":
        return jf.string(lit) or "", []
    raw = jf.text(lit)[1:-1]
    base = lit.start_byte + 1
    data = jf.src.data
    pieces: list[str] = []
    includes: list[str] = []
    pos = base
    for c in lit.named_children:
        if c.type != "template_substitution":
            continue
        pieces.append(data[pos:c.start_byte].decode("utf-8", "replace"))
        sub = data[c.start_byte:c.end_byte].decode("utf-8", "replace")
        pieces.append("".join(ch if ch == "\n" else " " for ch in sub))
        inner = [x for x in c.named_children if x.type != "comment"]
        ref = jf.name_ref(inner[0]) if len(inner) == 1 else None
        if ref:
            includes.append(ref)
        pos = c.end_byte
    if not pieces:
        return raw, []
    pieces.append(data[pos:lit.end_byte - 1].decode("utf-8", "replace"))
    return "".join(pieces), includes


def _use(jf: JsFile, call: Node, runner: str, args_node: Node, out: FileExtraction, docs: dict[int, int],
         locals_: dict[tuple[str | None, str], int], strict_file: bool, framework: str) -> None:
    args = arguments(args_node)
    scope = jf.code_scope(call)
    line, col = jf.pos(call)
    candidates: list[tuple[Node, bool]] = []  # (expression, surely a document)
    # `{query: q}` is surely a document for a GraphQL runner; for a generic name in a file importing no GraphQL
    # client it may be an HTTP request's query string (`this.request({path: "/articles", query})`)
    surely = strict_file or runner not in _GENERIC
    for a in args:
        pairs = jf.object_pairs(a)
        candidates += [(pairs[k], surely) for k in _DOC_KEYS if k in pairs]
    if not candidates and args and runner not in _OBJECT_ONLY and runner != "send":
        hook = runner.startswith("use")
        candidates.append((args[0], hook or strict_file))
        if runner in _SECOND and len(args) > 1:
            first = unwrap(args[0])
            if first is not None and (first.type != "call_expression" or first.id not in docs):
                candidates = [(args[0], False), (args[1], strict_file)]
    refs: list[GraphqlUse] = []  # candidates naming a constant, used when none is a document itself
    for expr, strict in candidates:
        node = unwrap(expr)
        if node is None:
            continue
        if node.type == "call_expression" and node.id in docs:
            i = docs[node.id]
            out.graphql_documents[i].run = True
            out.graphql_uses.append(GraphqlUse(framework, scope, line, col, document=i))
            return
        if node.type in ("string", "template_string"):
            text = jf.string(node)
            if text is not None and LOOKS_LIKE_GRAPHQL.search(text):
                nline, ncol = jf.pos(node)
                out.graphql_documents.append(document_of(framework, text, nline, ncol + 1, None, scope, run=True))
                out.graphql_uses.append(GraphqlUse(framework, scope, line, col,
                                                   document=len(out.graphql_documents) - 1))
                return
            continue
        if node.type == "identifier":
            name = jf.text(node)
            i = _local_document(locals_, scope, name)
            if i is not None:
                out.graphql_documents[i].run = True
                out.graphql_uses.append(GraphqlUse(framework, scope, line, col, document=i))
                return
            imp = next((m for m in out.imports if m.local == name), None)
            if imp is not None and _DOC_FILE.search(imp.module):
                path = posixpath.normpath(posixpath.join(posixpath.dirname(out.path), imp.module)) \
                    if imp.module.startswith(".") else imp.module
                op = imp.name if imp.name not in (None, "default", "*") else None
                out.graphql_uses.append(GraphqlUse(framework, scope, line, col, path=path, operation=op))
                return
        ref = jf.name_ref(node)
        if ref is not None:
            refs.append(GraphqlUse(framework, scope, line, col, ref=ref, scope=scope, strict=strict))
    out.graphql_uses.extend(refs)


def _posted_to_graphql(jf: JsFile, call: Node) -> bool:
    """Whether a ``X.send(...)`` call sends the body of a request posted to a GraphQL path: a link of
    its chain is ``.post(path)`` with ``path`` a string whose last segment is ``graphql``
    (``request(app).post("/graphql").set(h).send(...)``), or a module-level ``const`` of this file
    holding one (``const gql = "/graphql"; ....post(gql)``)."""
    node = call
    for _ in range(16):
        fn = node.child_by_field_name("function") if node.type == "call_expression" else None
        if fn is None or fn.type != "member_expression":
            return False
        if node is not call and jf.text(fn.child_by_field_name("property")) == "post":
            args = arguments(node.child_by_field_name("arguments"))
            path = _path_value(jf, args[0]) if args else None
            return path is not None and _GRAPHQL_PATH.search(path.split("?", 1)[0]) is not None
        node = unwrap(fn.child_by_field_name("object")) or fn.child_by_field_name("object")
    return False


def _path_value(jf: JsFile, node: Node) -> str | None:
    """A string literal's value, or that of the module-level ``const`` an identifier names."""
    node = unwrap(node) or node
    if node.type != "identifier":
        return jf.string(node)
    name = jf.text(node)
    for stmt in jf.root.named_children:
        decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        if decl is None or decl.type != "lexical_declaration":
            continue
        for d in decl.named_children:
            if d.type == "variable_declarator" and jf.text(d.child_by_field_name("name")) == name:
                value = d.child_by_field_name("value")
                return jf.string(value) if value is not None else None
    return None


def _local_document(locals_: dict[tuple[str | None, str], int], scope: str | None, name: str) -> int | None:
    s = scope
    while s:
        if (s, name) in locals_:
            return locals_[(s, name)]
        s = s.rpartition(".")[0] or None
    return None
