"""Go extractor: one ``.go`` file (or ``go.mod``) -> :class:`~indexer.model.FileExtraction`.

The rules live in ``indexer/languages/go/queries/*.scm`` (``definitions``, ``calls``, ``imports``,
``bindings``, ``gomod``); Python assembles the captures. Mapping onto the IR:

* a function is ``function`` (qualname ``F``); a method ``func (s *T) M()`` is ``method`` with
  qualname ``T.M`` and parent ``T`` (its text is not inside ``T``'s: Go methods may live in any file
  of the package); named types are ``class`` (``interface`` for interface types); struct fields are
  ``field`` members, embedded fields go in ``bases`` (and an interface's embedded interfaces: ``type Store
  interface { Querier; ... }``), and so does the type a defined type names
  (``type H decorator.CommandHandler[C]``: base ``decorator.CommandHandler``, modifier ``defined``);
* an import binds the last segment of its path (``u "a/b"`` binds ``u``; ``. "a/b"`` is ``*``;
  ``_`` binds nothing): ``Import(local, module=path, name=None)``;
* type texts drop ``*``, ``[]``, ``...`` and generic arguments (``*pkg.T`` -> ``pkg.T``);
* the caller of a call is the enclosing function or method (function literals belong to it).

``go.mod`` yields a ``gomod`` extraction whose ``package`` is the module path (nothing else).
"""

from __future__ import annotations

import bisect
import re

from tree_sitter import Node

from indexer.frameworks import run_detectors
from indexer.languages.base import SourceText, parse_errors, parser, query, run_query, kept_on_failure
from indexer.languages.go.frameworks import detectors_for
from indexer.model import LONG_RECEIVER, MAX_RECEIVER_LINKS, Binding, CallSite, Definition, FileExtraction, Import, Param

__all__ = ["EXTRACTOR", "GOMOD_EXTRACTOR", "GoExtractor", "GoModExtractor", "package_name", "type_text"]

GRAMMAR = "go"
FOLDER = "go/queries"
_WS = re.compile(r"\s+")
_GENERIC = re.compile(r"\[[^\[\]]*\]")
_NAMED_TYPES = frozenset({"type_identifier", "qualified_type", "generic_type"})
"""The underlying types of a defined type (``type X pkg.Y[T]``) that are another named type: X gets
that type as its base and the modifier ``defined``, so a method X does not declare is looked up on it
(an interface's methods, a struct's promoted ones: valid Go calls no other) and the implicit
interfaces count X's method set as Go does (:mod:`indexer.resolve.structural`)."""
_BUILTIN = re.compile(r"^(?:bool|byte|rune|string|error|any|comparable|u?int(?:8|16|32|64)?|uintptr|float(?:32|64)|complex(?:64|128))$")


def type_text(text: str) -> str:
    """A Go type as the resolver looks it up: ``*pkg.T[int]`` -> ``pkg.T``; ``[]*T`` -> ``T``;
    ``...T`` -> ``T``; ``map[K]V`` -> ``map`` (nothing in the repository)."""
    t = _WS.sub("", text)
    if t.startswith("map["):
        return "map"
    while t.startswith(("*", "[]", "...")) or re.match(r"^\[\w*\]", t):
        t = re.sub(r"^(\*|\[\w*\]|\.\.\.)", "", t)
    prev = None
    while prev != t:
        prev, t = t, _GENERIC.sub("", t)
    return t


_MAJOR = re.compile(r"^v\d+$")


def package_name(path: str) -> str:
    """The name an import without alias binds, as the Go convention makes it from the path: the last
    segment, skipping a major-version segment (``.../echo/v4`` -> ``echo``), without a ``.vN``
    suffix (``gopkg.in/yaml.v3`` -> ``yaml``) or a ``go-`` / ``-go`` affix (``kafka-go`` -> ``kafka``,
    ``go-redis`` -> ``redis``). The package clause may still differ (not known from the importer)."""
    parts = [p for p in path.split("/") if p]
    if len(parts) > 1 and _MAJOR.match(parts[-1]):
        parts.pop()
    last = re.sub(r"\.v\d+$", "", parts[-1] if parts else path)
    last = last.removeprefix("go-").removesuffix("-go")
    return last.replace("-", "_").replace(".", "_")


def _distinct_versioned(imports: list[Import]) -> list[Import]:
    """``imports`` with a ``.../vN`` import bound to ``vN`` when the name the convention gives it
    (``api`` for ``.../api/v1``) is another import's: Go refuses two imports of one name, so that
    package's own name is ``vN`` (go-gin-example imports ``routers/api`` and ``routers/api/v1`` side by
    side and calls ``api.GetAuth`` and ``v1.GetTags``)."""
    taken: dict[str, int] = {}
    for imp in imports:
        taken[imp.local] = taken.get(imp.local, 0) + 1
    out = []
    for imp in imports:
        last = imp.module.rstrip("/").rsplit("/", 1)[-1]
        if taken[imp.local] > 1 and _MAJOR.match(last) and imp.local == package_name(imp.module) != last:
            imp = Import(local=last, module=imp.module, name=imp.name, level=imp.level, line=imp.line)
        out.append(imp)
    return out


class GoExtractor:
    """The Go :class:`~indexer.languages.base.Extractor` for ``.go`` files."""

    language = "go"
    extensions = (".go",)

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """Definitions, calls, imports and bindings of one Go file; never raises on bad source
        (syntax errors go to ``errors``, an unexpected failure to an ``internal error`` entry)."""
        out = FileExtraction(path=path, language=self.language)
        with kept_on_failure(out):
            fx = _FileExtractor(source, out)
            fx.run()
            run_detectors(detectors_for(self.language), fx.root, fx.src, out)
        return out


REPLACE = "replace"
"""The ``name`` of a go.mod extraction's import standing for a ``replace`` directive."""


class GoModExtractor:
    """``go.mod``: its module path in ``package`` and each module a ``require`` names as an
    :class:`~indexer.model.Import` (``local`` and ``module`` the module path): the in-repository
    modules it depends on, whose interfaces its types may satisfy
    (:meth:`indexer.languages.go.modules.GoModuleSystem.structural_reach`); each ``replace`` directive
    as an import named :data:`REPLACE` (``local`` the module replaced, ``module`` what replaces it: a
    folder, ``../common``, or another module path). Any other ``.mod`` file yields an empty extraction."""

    language = "gomod"
    extensions = (".mod",)

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """The module directive's path as ``package``, the required modules as imports; never raises."""
        out = FileExtraction(path=path, language=self.language)
        if path.rsplit("/", 1)[-1] != "go.mod":
            return out
        with kept_on_failure(out):
            src = SourceText(source)
            root = parser("gomod").parse(source).root_node
            out.errors.extend(parse_errors(root, src))
            for _, m in run_query(query("gomod", FOLDER, "gomod"), root):
                if "module" in m and out.package is None:
                    out.package = src.text(m["module"][0]).strip().strip('"')
                elif "require" in m:
                    required = src.text(m["require"][0]).strip().strip('"')
                    out.imports.append(Import(required, module=required, name=None, line=m["require"][0].start_point[0] + 1))
                elif "replace" in m:
                    spec = m["replace"][0]
                    paths = [c for c in spec.named_children if c.type in ("module_path", "file_path")]
                    if len(paths) == 2 and paths[0].type == "module_path":
                        old, new = (src.text(c).strip().strip('"') for c in paths)
                        out.imports.append(Import(old, module=new, name=REPLACE, line=spec.start_point[0] + 1))
        return out


class _FileExtractor:
    """The per-file work of :class:`GoExtractor`."""

    def __init__(self, source: bytes, out: FileExtraction) -> None:
        self.src = SourceText(source)
        self.out = out
        self.root = parser(GRAMMAR).parse(source).root_node
        self.funcs: list[tuple[int, int, str]] = []  # (start byte, end byte, qualname), start-sorted

    def run(self) -> None:
        """Run every query and fill ``self.out``."""
        self.out.errors.extend(parse_errors(self.root, self.src))
        self._imports()
        self._definitions()
        self._calls()
        self._bindings()

    def _text(self, node: Node | None) -> str:
        return _WS.sub("", self.src.text(node))

    def _imports(self) -> None:
        src = self.src
        for _, m in run_query(query(GRAMMAR, FOLDER, "imports"), self.root):
            if "package" in m:
                self.out.package = src.text(m["package"][0])
                continue
            path = src.text(m["path"][0]).strip('"`')
            alias = src.text(m["alias"][0]) if "alias" in m else None
            if alias == "_" or not path:
                continue
            local = "*" if alias == "." else alias or package_name(path)
            self.out.imports.append(Import(local=local, module=path, name=None, line=src.line(m["import"][0])))
        self.out.imports.sort(key=lambda i: i.line)
        self.out.imports = _distinct_versioned(self.out.imports)

    def _new_def(self, kind: str, name: str, parent: str | None, node: Node, name_node: Node) -> Definition:
        src = self.src
        end_row, end_byte_col = node.end_point
        body = node.child_by_field_name("body")
        head_end = body.start_byte if body is not None and kind in ("function", "method") else node.end_byte
        signature = _WS.sub(" ", src.data[node.start_byte:head_end].decode("utf-8", "replace")).strip()
        return Definition(kind=kind, name=name, qualname=f"{parent}.{name}" if parent else name, parent=parent,
                          start_line=src.line(node), start_col=src.col(node), end_line=end_row + 1,
                          end_col=src.point_col(end_row, end_byte_col), name_line=src.line(name_node),
                          name_col=src.col(name_node), signature=signature,
                          exported=name[:1].isupper())  # Go exports by capitalisation

    def _params(self, params: Node | None) -> list[Param]:
        out: list[Param] = []
        for p in params.named_children if params is not None else ():
            tnode = p.child_by_field_name("type")
            ttext = self._text(tnode) or None
            names = p.children_by_field_name("name")
            if p.type == "variadic_parameter_declaration":
                out.append(Param(self.src.text(names[0]) if names else "", ttext, variadic="*"))
            elif p.type == "parameter_declaration":
                out.extend(Param(self.src.text(n), ttext) for n in names) if names else out.append(Param("", ttext))
        return out

    def _callable(self, kind: str, node: Node, name_node: Node) -> Definition:
        parent = None
        if kind == "method":
            recv = node.child_by_field_name("receiver")
            decl = recv.named_children[0] if recv is not None and recv.named_children else None
            rtype = decl.child_by_field_name("type") if decl is not None else None
            parent = type_text(self._text(rtype)) if rtype is not None else None
        d = self._new_def(kind, self.src.text(name_node), parent or None, node, name_node)
        d.params = self._params(node.child_by_field_name("parameters"))
        result = node.child_by_field_name("result")
        if result is not None:
            if result.type == "parameter_list":  # (T, error): the first result stands for the call
                first = result.named_children[0] if result.named_children else None
                result = first.child_by_field_name("type") if first is not None else None
            if result is not None:
                d.return_type = type_text(self._text(result)) or None
        return d

    def _definitions(self) -> None:
        defs: list[tuple[int, Definition]] = []
        for _, m in run_query(query(GRAMMAR, FOLDER, "definitions"), self.root):
            if "field" in m:
                owner = self.src.text(m["owner"][0])
                field = m["field"][0]
                tnode = field.child_by_field_name("type")
                names = field.children_by_field_name("name")
                if not names and tnode is not None:  # embedded: a base
                    continue
                for n in names:
                    d = self._new_def("field", self.src.text(n), owner, field, n)
                    d.field_type = type_text(self._text(tnode)) or None
                    defs.append((field.start_byte, d))
                continue
            if "elem" in m:
                elem = m["elem"][0]
                name_node = elem.child_by_field_name("name")
                if name_node is not None:
                    d = self._callable("method", elem, name_node)
                    d.parent, d.qualname = self.src.text(m["owner"][0]), f"{self.src.text(m['owner'][0])}.{d.name}"
                    d.modifiers.append("abstract")
                    defs.append((elem.start_byte, d))
                continue
            (cap, nodes), = ((k, v) for k, v in m.items() if k.startswith("def."))
            node, name_node, kind = nodes[0], m["name"][0], cap[4:]
            if kind in ("function", "method"):
                d = self._callable(kind, node, name_node)
                self.funcs.append((node.start_byte, node.end_byte, d.qualname))
            else:
                d = self._new_def(kind, self.src.text(name_node), None, node, name_node)
                body = node.child_by_field_name("type")
                if body is not None and body.type == "struct_type":
                    for f in body.named_children[0].named_children if body.named_children else ():
                        if f.type == "field_declaration" and not f.children_by_field_name("name"):
                            d.bases.append(type_text(self._text(f.child_by_field_name("type"))))
                elif body is not None and body.type == "interface_type":  # embedded interfaces: bases
                    for f in body.named_children:
                        t = f.named_children[0] if f.type == "type_elem" and len(f.named_children) == 1 else None
                        if t is not None and t.type in ("type_identifier", "qualified_type", "generic_type"):
                            d.bases.append(type_text(self._text(t)))
                elif body is not None and body.type in _NAMED_TYPES and not _BUILTIN.match(self._text(body)):
                    d.bases.append(type_text(self._text(body)))
                    d.modifiers.append("defined")  # indexer.resolve.structural.DEFINED
            defs.append((node.start_byte, d))
        defs.sort(key=lambda x: x[0])
        self.out.definitions = [d for _, d in defs]
        self.funcs.sort()

    def _owner(self, pos: int) -> str | None:
        """Qualname of the function or method whose text holds byte ``pos`` (top-level only in Go)."""
        i = bisect.bisect_right(self.funcs, (pos, 1 << 62, "")) - 1
        if i >= 0 and self.funcs[i][0] <= pos < self.funcs[i][1]:
            return self.funcs[i][2]
        return None

    def _receiver(self, node: Node) -> str:
        """``a.b().c`` for a selector / call chain; other expressions as written, whitespace dropped."""
        links: list[str] = []
        cur = node
        while len(links) <= MAX_RECEIVER_LINKS:
            if cur.type == "selector_expression":
                links.append(self.src.text(cur.child_by_field_name("field")))
                cur = cur.child_by_field_name("operand")
            elif cur.type == "call_expression" and cur.child_by_field_name("function").type in (
                    "selector_expression", "identifier"):
                fn = cur.child_by_field_name("function")
                if fn.type == "identifier":
                    links.append(self.src.text(fn) + "()")
                    return ".".join(reversed(links))
                links.append(self.src.text(fn.child_by_field_name("field")) + "()")
                cur = fn.child_by_field_name("operand")
            elif cur.type == "parenthesized_expression" and cur.named_children:
                cur = cur.named_children[0]
            elif cur.type == "type_assertion_expression" and cur.child_by_field_name("type") is not None:
                # `x.(T).M()`: an instance of T, written as a cast (model.py's receiver convention)
                links.append(f"({type_text(self._text(cur.child_by_field_name('type')))})")
                return ".".join(reversed(links))
            else:
                links.append(self._text(cur))
                return ".".join(reversed(links))
        return LONG_RECEIVER

    def _calls(self) -> None:
        src = self.src
        found = []
        for _, m in run_query(query(GRAMMAR, FOLDER, "calls"), self.root):
            name = m["name"][0]
            recv = self._receiver(m["receiver"][0]) if "receiver" in m else None
            args = m["args"][0]
            spread = any(c.type == "variadic_argument" for c in args.named_children)
            found.append(CallSite(self._owner(name.start_byte), src.text(name), recv,
                                  -1 if spread else args.named_child_count, src.line(name), src.col(name)))
        found.sort(key=lambda c: (c.line, c.col))
        self.out.calls = found

    @staticmethod
    def _composite(value: Node) -> Node | None:
        """The composite literal ``T{...}`` a value is, through one ``&``; else ``None``."""
        if value.type == "unary_expression" and value.child_by_field_name("operand") is not None:
            value = value.child_by_field_name("operand")
        return value if value.type == "composite_literal" else None

    def _new_type(self, value: Node) -> str | None:
        """``T`` for the builtin ``new(T)``, else ``None``."""
        if value.type != "call_expression":
            return None
        fn, args = value.child_by_field_name("function"), value.child_by_field_name("arguments")
        if fn is None or fn.type != "identifier" or self.src.text(fn) != "new" or args is None:
            return None
        kids = [c for c in args.named_children if c.type != "comment"]
        return type_text(self._text(kids[0])) or None if len(kids) == 1 else None

    def _value_type(self, value: Node) -> str | None:
        """What a binding's value names: ``T`` for ``T{}`` / ``&T{}`` / ``new(T)``, the callee for ``f()``."""
        lit = self._composite(value)
        if lit is not None:
            return type_text(self._text(lit.child_by_field_name("type"))) or None
        made = self._new_type(value)
        if made is not None:
            return made
        if value.type == "call_expression":
            fn = value.child_by_field_name("function")
            if fn.type in ("identifier", "selector_expression"):
                return self._receiver(fn)
        return None

    def _bindings(self) -> None:
        src = self.src
        found: list[tuple[int, Binding]] = []
        for _, m in run_query(query(GRAMMAR, FOLDER, "bindings"), self.root):
            name = m["name"][0]
            scope = self._owner(name.start_byte)
            if scope is None and "var" not in m:
                continue  # a parameter of an interface method or a function type: nothing is bound
            if "range" in m:
                found.append((name.start_byte, Binding(scope, src.text(name), self._receiver(m["value"][0]), "alias",
                                                       src.line(name))))
                continue
            if "constructed" in m:
                value = m["value"][0]
                t = self._value_type(value)
                literal = self._composite(value) is not None or self._new_type(value) is not None
                if t:  # a composite literal writes its type exactly: declared; a call's result is inferred
                    found.append((name.start_byte, Binding(scope, src.text(name), t,
                                                           "declared" if literal else "constructed", src.line(name))))
                continue
            t = type_text(self._text(m["type"][0]))
            if t:
                found.append((name.start_byte, Binding(scope, src.text(name), t, "declared", src.line(name))))
        for d in self.out.definitions:
            if d.kind == "field" and d.field_type:
                # as ``this.<field>`` (the core's instance prefix): Go has no ``this``, so no name of a
                # method body meets it, and a field named like an import (``store store.Store``)
                # does not hide the import in the field's own type
                found.append((0, Binding(d.parent, "this." + d.name, d.field_type, "declared", d.name_line)))
        found.sort(key=lambda b: (b[1].line, b[0]))
        self.out.bindings = [b for _, b in found]


EXTRACTOR = GoExtractor()
GOMOD_EXTRACTOR = GoModExtractor()
