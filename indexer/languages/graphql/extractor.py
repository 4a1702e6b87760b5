"""The GraphQL schema extractor: one ``.graphql`` / ``.graphqls`` file -> :class:`~indexer.model.FileExtraction`.

Rules (``queries/schema.scm``):

* every object or interface type, and every ``extend type``, is a ``class`` (``interface``)
  definition named after the type; a type defined and extended in one file is one definition per
  declaration (ids ``Query``, ``Query#2``: :func:`indexer.symbols.definition_ids`);
* every field of one is a ``field`` definition ``Type.field`` whose ``field_type`` is the field's
  named type (``[Owner!]!`` -> ``Owner``);
* every field of ``type Query`` / ``Mutation`` / ``Subscription`` (their extensions too) is a
  :class:`~indexer.model.Route` of framework :data:`~indexer.model.GRAPHQL_SCHEMA`, method the
  operation type, path ``Type.field``, handler the field's qualname: the linker makes it the Endpoint
  resolvers expose (DECLARES edge), so a declared operation no resolver answers is a node too.

Operations (``.graphql`` / ``.gql`` documents of a client, read by
:func:`indexer.frameworks.graphql_documents.parse_tree`): each operation is a ``function``
definition of its own, named after the operation (``GetOrders``; an anonymous one ``query`` /
``mutation`` / ``subscription``, :func:`indexer.frameworks.graphql_documents.operation_qualname`), and
the file's operations and fragments are one :class:`~indexer.model.GraphqlDocument` (framework
``graphql-documents``): the linker makes each operation CALL the root fields it selects. A schema
and operations may share a file; type definitions are never operations.

Not followed: a ``schema { query: RootQuery }`` block renaming the root types (their fields are
``FIELD`` endpoints of ``RootQuery``), directives, unions, inputs and enums (no operations). Syntax
errors are listed in ``errors``; what parsed is still extracted.

A schema extension made of directives only (``extend schema @link(url: "...", import: ["@key"])``, the
header of every Apollo Federation 2 subgraph; GraphQL spec, section 3.3.2 *Schema Extension*) is valid
GraphQL the tree-sitter grammar cannot parse: its error recovery swallowed the types after it. It is
blanked (same bytes, newlines kept, so every position stays) before parsing: :func:`blank_schema_directives`.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.frameworks import DOCUMENTS_FRAMEWORK, operation_qualname, parse_tree
from indexer.languages.base import SourceText, parse_errors, parser, query, run_query, kept_on_failure
from indexer.model import GRAPHQL_SCHEMA, Definition, FileExtraction, GraphqlDocument, Route, Template

__all__ = ["EXTRACTOR", "GraphQLExtractor", "blank_schema_directives"]

GRAMMAR = "graphql"
_OPERATIONS = {"Query": "QUERY", "Mutation": "MUTATION", "Subscription": "SUBSCRIPTION"}
_INTERFACES = frozenset({"interface_type_definition", "interface_type_extension"})


class GraphQLExtractor:
    """The :class:`~indexer.languages.base.Extractor` of GraphQL schema files."""

    language = "graphql"
    extensions = (".graphql", ".graphqls", ".gql")

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """Types, fields and root operations of one schema file; never raises on bad input (syntax
        errors in ``errors``, an unexpected failure as an ``internal error`` entry)."""
        out = FileExtraction(path=path, language=self.language)
        with kept_on_failure(out):
            src = SourceText(source)
            root = parser(GRAMMAR).parse(blank_schema_directives(source)).root_node
            out.errors.extend(parse_errors(root, src))
            _extract(root, src, out)
            _operations(root, src, out)
        return out


def _extract(root: Node, src: SourceText, out: FileExtraction) -> None:
    types: dict[int, Definition] = {}
    for _, caps in run_query(query(GRAMMAR, "graphql/queries", "schema"), root):
        decl, type_node, field_node, fdef = caps["decl"][0], caps["type"][0], caps["field"][0], caps["def"][0]
        type_name = src.text(type_node)
        owner = types.get(decl.id)
        if owner is None:
            owner = _definition(src, "interface" if decl.type in _INTERFACES else "class", type_name, type_name,
                                None, decl, type_node)
            types[decl.id] = owner
            out.definitions.append(owner)
        name = src.text(field_node)
        d = _definition(src, "field", name, f"{type_name}.{name}", type_name, fdef, field_node)
        d.field_type = _named_type(src, fdef)
        out.definitions.append(d)
        op = _OPERATIONS.get(type_name)
        if op is not None and decl.type not in _INTERFACES:
            out.routes.append(Route(GRAPHQL_SCHEMA, [op], Template.of(d.qualname), d.qualname,
                                    d.name_line, d.name_col))


def _operations(root: Node, src: SourceText, out: FileExtraction) -> None:
    """The file's client operations: a definition each, and one document holding them and the
    file's fragments (none when the file has neither)."""
    doc = parse_tree(root, src.data)
    if not doc.operations and not doc.fragments:
        return
    nodes = sorted(_operation_nodes(root), key=lambda n: n.start_byte)  # parse_tree's order
    for op, node in zip(doc.operations, nodes, strict=False):
        name = next((c for c in node.named_children if c.type == "name"), None)
        qualname = operation_qualname(op)
        d = _definition(src, "function", qualname, qualname, None, node, name or node)
        d.signature = " ".join(src.text(node).split("{", 1)[0].split()) or op.operation.lower()
        out.definitions.append(d)
    out.graphql_documents.append(GraphqlDocument(DOCUMENTS_FRAMEWORK, None, None, doc.operations, doc.fragments,
                                                 1, 0, errors=doc.errors))


def _operation_nodes(root: Node) -> list[Node]:
    found: list[Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "operation_definition":
            found.append(n)
        elif n.type in ("source_file", "document", "definition", "executable_definition", "ERROR"):
            stack.extend(n.named_children)
    return found


def _definition(src: SourceText, kind: str, name: str, qualname: str, parent: str | None, node: Node,
                name_node: Node) -> Definition:
    return Definition(
        kind=kind, name=name, qualname=qualname, parent=parent,
        start_line=src.line(node), start_col=src.col(node), end_line=node.end_point[0] + 1,
        end_col=src.end_col(node), name_line=src.line(name_node), name_col=src.col(name_node),
        signature=" ".join(src.text(node).split("{", 1)[0].split()),
    )  # fmt: skip


def _named_type(src: SourceText, field_def: Node) -> str | None:
    """The named type at the core of a field's type (``[Owner!]!`` -> ``Owner``)."""
    t = next((c for c in field_def.named_children if c.type == "type"), None)
    for _ in range(64):
        if t is None:
            return None
        if t.type == "named_type":
            return src.text(t)
        t = next((c for c in t.named_children if c.type in ("type", "named_type", "list_type", "non_null_type")), None)
    return None


_NAME_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_IGNORED = frozenset(b" \t\r\n,")


def blank_schema_directives(source: bytes) -> bytes:
    """``source`` with each ``extend schema`` made of directives only (no ``{ ... }`` operation types
    after them) replaced by spaces, byte for byte, line ends kept: the same length and positions.

    The GraphQL grammar of tree-sitter parses ``extend schema @d { query: Q }`` but not the
    directives-only form the spec allows (``SchemaExtension: extend schema Directives[Const]``), which
    Apollo Federation 2 puts at the top of every subgraph (``extend schema @link(url: ..., import: [...])``).
    Strings (``"..."``, block strings), comments and a directive's arguments (parentheses balanced outside
    strings) are skipped, so a ``extend schema`` inside a description is left alone. Linear in the size of
    ``source``; never raises (an extension whose arguments are never closed is left to the parser).
    """
    if b"extend" not in source or b"schema" not in source:
        return source
    out: bytearray | None = None
    n = len(source)
    i = 0
    while i < n:
        c = source[i]
        if c == 0x23:  # '#': a comment to the end of the line
            i = _line_end(source, i)
        elif c == 0x22:  # '"'
            i = _string_end(source, i)
        elif c in _NAME_BYTES:
            j = _name_end(source, i)
            if source[i:j] == b"extend":
                k = _skip_ignored(source, j)
                if source[k:_name_end(source, k)] == b"schema":
                    end = _directives_end(source, k + 6)
                    after = _skip_ignored(source, end)
                    if end > k + 6 and (after >= n or source[after] != 0x7B):  # not '{'
                        out = out if out is not None else bytearray(source)
                        for p in range(i, end):
                            if source[p] not in (0x0A, 0x0D):
                                out[p] = 0x20
                    j = max(j, end)
            i = j
        else:
            i += 1
    return bytes(out) if out is not None else source


def _line_end(s: bytes, i: int) -> int:
    j = s.find(b"\n", i)
    return len(s) if j < 0 else j


def _string_end(s: bytes, i: int) -> int:
    """The index after the string starting at ``s[i] == '"'`` (a block string ``\"\"\"`` too); the end
    of the line (a plain string) or of ``s`` (a block string) when it is not closed."""
    if s.startswith(b'"""', i):
        j = i + 3
        while True:
            j = s.find(b'"""', j)
            if j < 0:
                return len(s)
            if s[j - 1] != 0x5C:  # not an escaped \"""
                return j + 3
            j += 3
    j = i + 1
    while j < len(s):
        c = s[j]
        if c == 0x5C:
            j += 2
        elif c == 0x22:
            return j + 1
        elif c == 0x0A:
            return j
        else:
            j += 1
    return len(s)


def _name_end(s: bytes, i: int) -> int:
    while i < len(s) and s[i] in _NAME_BYTES:
        i += 1
    return i


def _skip_ignored(s: bytes, i: int) -> int:
    """The index of the next token at or after ``i`` (white space, commas and comments skipped)."""
    while i < len(s):
        if s[i] in _IGNORED:
            i += 1
        elif s[i] == 0x23:
            i = _line_end(s, i)
        else:
            break
    return i


def _directives_end(s: bytes, i: int) -> int:
    """The index after the directives (``@name`` with optional balanced arguments) starting at or
    after ``i``; ``i`` when there are none or one's arguments are never closed."""
    end = i
    k = _skip_ignored(s, i)
    while k < len(s) and s[k] == 0x40:  # '@'
        k = _name_end(s, k + 1)
        end = k
        a = _skip_ignored(s, k)
        if a < len(s) and s[a] == 0x28:  # '('
            k = _arguments_end(s, a)
            if k < 0:
                return i  # arguments never closed: a syntax error the parser reports
            end = k
        k = _skip_ignored(s, end)
    return end


def _arguments_end(s: bytes, i: int) -> int:
    """The index after the parenthesised arguments starting at ``s[i] == '('`` (strings and comments
    skipped), or -1 when they are not closed."""
    depth = 0
    while i < len(s):
        c = s[i]
        if c == 0x22:
            i = _string_end(s, i)
            continue
        if c == 0x23:
            i = _line_end(s, i)
            continue
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


EXTRACTOR = GraphQLExtractor()
