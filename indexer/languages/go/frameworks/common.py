"""What the Go framework detectors share: :class:`GoFile`, one parsed file with its imports by path,
the calls of the file in source order, string templates (literals, ``+`` concatenation,
``fmt.Sprintf``, ``path.Join`` / ``url.JoinPath`` (:meth:`GoFile._joined`), same-file constants inlined, other constants as ``ref`` pieces; a package variable
given by an environment variable with a literal default, :meth:`GoFile.env_default`), enclosing function
qualnames (the extractor's: ``F``, ``T.M``) and inline handlers made definitions of their own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from indexer.frameworks import call_piece
from indexer.languages.base import storable
from indexer.model import FileExtraction, Param, StringConstant, Template
from indexer.symbols import inline_definition, inline_header

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["GoFile", "HTTP_METHOD_CONSTANTS", "STD_ROOTS", "go_file", "receiver_type"]

STD_ROOTS = frozenset((
    "archive", "bufio", "bytes", "cmp", "compress", "container", "context", "crypto", "database", "debug", "embed",
    "encoding", "errors", "expvar", "flag", "fmt", "go", "hash", "html", "image", "index", "io", "iter", "log",
    "maps", "math", "mime", "net", "os", "path", "plugin", "reflect", "regexp", "runtime", "slices", "sort",
    "strconv", "strings", "structs", "sync", "syscall", "testing", "text", "time", "unicode", "unique", "unsafe"))
"""The first elements of the Go standard library's import paths (``net/http`` -> ``net``)."""

HTTP_METHOD_CONSTANTS = {
    "MethodGet": "GET", "MethodPost": "POST", "MethodPut": "PUT", "MethodDelete": "DELETE",
    "MethodPatch": "PATCH", "MethodHead": "HEAD", "MethodOptions": "OPTIONS", "MethodConnect": "CONNECT",
    "MethodTrace": "TRACE",
}
"""``net/http``'s method constants and the verbs they stand for."""

_JOINED = frozenset({"binary_expression", "parenthesized_expression", "identifier"})
"""Constant values read as templates of other names (:attr:`GoFile.constants`)."""
_VERB = re.compile(r"%[-+# 0-9.*]*[a-zA-Z%]")
_JOINS = {("path", "Join"): False, ("net/url", "JoinPath"): True}
"""Standard-library functions joining path elements with ``/``: ``(package path, name)`` -> whether a trailing
``/`` of the last element is kept (``url.JoinPath``'s rule; ``path.Join`` cleans it away)."""
_FIRST_RESULT = frozenset({("net/url", "JoinPath")})
"""Standard-library functions returning ``(string, error)``: ``u, err := url.JoinPath(...)`` gives ``u`` the string."""
_SLASHES = re.compile(r"(?<!:)/{2,}")
_WS = re.compile(r"\s+")


def receiver_type(text: str) -> str:
    """A receiver's type as the extractor qualifies methods: ``*T[K]`` -> ``T``."""
    t = _WS.sub("", text).lstrip("*")
    return t.split("[", 1)[0]


_MAJOR = re.compile(r"^v\d+$")


def _version_named(root: Node, src: SourceText) -> Iterator[tuple[str, str]]:
    """``(vN, path)`` for each import written without a name whose path ends in a ``vN`` segment
    (``"github.com/x/shop/api/catalog/v1"``): the convention binds it to the segment before
    (:func:`indexer.languages.go.extractor.package_name`, right for a module's major version,
    ``.../echo/v4``), but a package whose own clause is ``package v1`` (protoc's ``go_package =
    "api/catalog/v1;v1"``, kratos' layout) is written ``v1.NewCatalogClient(conn)``. A file can
    write ``v1.X`` only for such a package (or a local of that name), so the detectors see both names;
    an import with a name written binds only that name."""
    for decl in root.named_children:
        if decl.type != "import_declaration":
            continue
        specs = [c for c in decl.named_children if c.type == "import_spec"]
        specs += [c for group in decl.named_children if group.type == "import_spec_list"
                  for c in group.named_children if c.type == "import_spec"]
        for spec in specs:
            path_node = spec.child_by_field_name("path")
            if spec.child_by_field_name("name") is not None or path_node is None:
                continue
            path = src.text(path_node).strip('"`')
            last = path.rstrip("/").rsplit("/", 1)[-1]
            if "/" in path and _MAJOR.match(last):
                yield last, path


class GoFile:
    """One Go file as the detectors read it (built once per file, shared through :func:`go_file`)."""

    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.root, self.src, self.out = root, src, out
        self.imports: dict[str, str] = {}
        """Local name -> import path (``*`` for dot imports is left out)."""
        for imp in out.imports:
            if imp.local != "*":
                self.imports[imp.local] = imp.module
        for local, path in _version_named(root, src):
            self.imports.setdefault(local, path)
        self.calls: list[Node] = []
        self.literals: list[Node] = []
        self.constants: dict[str, Template] = {}
        """Package-level ``const`` / ``var`` names of this file bound to a string, as templates: a
        literal, an environment default (:meth:`env_default`), or a concatenation or name of others
        (``basePath = httpURL + "/v1"``), whose names stay ``ref`` pieces the linker resolves in any
        file of the package (:meth:`indexer.frameworks.link.Linker.render`, bounded there), never
        inlined here: constants that each join the one before twice stay the size of their text."""
        self._readers: dict[str, Node] | None = None
        stack = [root]
        while stack:
            n = stack.pop()
            if n.type == "call_expression":
                self.calls.append(n)
            elif n.type == "composite_literal":
                self.literals.append(n)
            stack.extend(reversed(n.children))
        for spec in self._package_specs():
            names = spec.children_by_field_name("name")
            value = spec.child_by_field_name("value")
            if len(names) == 1 and value is not None and value.named_child_count == 1:
                first = value.named_children[0]
                t = self._literal_template(first) if first.type != "call_expression" else self.env_default(first)
                if t is None and first.type in _JOINED:  # `basePath = httpURL + "/v1"`: its names as refs
                    t = self._template(first, 0, inline=False)
                    t = t if any(k != "hole" for k, _ in t.parts) else None
                if t is not None:
                    name = src.text(names[0])
                    self.constants[name] = t
                    out.constants.append(StringConstant(name, t))

    def env_default(self, call: Node) -> Template | None:
        """The literal default of an environment variable read through a function of this file: the
        call ``getTopic()`` or ``getEnv("KAFKA_TOPIC", "orders")`` of a function whose body reads the
        environment (``os.Getenv`` / ``os.LookupEnv``) and whose last statement returns a string
        literal (``return "orders"``) or one of its parameters (then the call's literal argument at that
        parameter's position): opentelemetry-demo's checkout names its Kafka topic
        ``var Topic = getTopic()``. ``None`` for any other call (the value is then unknown)."""
        fn = call.child_by_field_name("function")
        os_name = next((local for local, path in self.imports.items() if path == "os"), None)
        if fn is None or fn.type != "identifier" or os_name is None:
            return None
        decl = self._env_readers(os_name).get(self.text(fn))
        body = decl.child_by_field_name("body") if decl is not None else None
        if decl is None or body is None:
            return None
        statements = next((c for c in body.named_children if c.type == "statement_list"), body)
        last = next((c for c in reversed(statements.named_children) if c.type != "comment"), None)
        if last is None or last.type != "return_statement" or last.named_child_count != 1:
            return None
        returned = last.named_children[0]
        if returned.type == "expression_list":
            if returned.named_child_count != 1:
                return None
            returned = returned.named_children[0]
        if returned.type == "identifier":
            params = [self.text(n) for p in (decl.child_by_field_name("parameters") or body).named_children
                      if p.type == "parameter_declaration" for n in p.children_by_field_name("name")]
            args = self.args(call)
            if self.text(returned) not in params or len(args) != len(params):
                return None
            returned = args[params.index(self.text(returned))]
        return self._literal_template(returned)

    def _env_readers(self, os_name: str) -> dict[str, Node]:
        """The file's top-level functions whose bodies read the environment (``os.Getenv`` /
        ``os.LookupEnv``, ``os`` imported as ``os_name``), by name; found once per file (a file of
        ``n`` package variables each given by a call asked ``n`` times: 8,000 took 23 s scanning
        every declaration and body again)."""
        if self._readers is None:
            reads = re.compile(rf"\b{re.escape(os_name)}\.(?:Getenv|LookupEnv)\(")
            self._readers = {}
            for d in self.root.named_children:
                name, body = d.child_by_field_name("name"), d.child_by_field_name("body")
                if d.type == "function_declaration" and name is not None and body is not None:
                    text = self.text(name)
                    if text not in self._readers and reads.search(self.text(body)):
                        self._readers[text] = d
        return self._readers

    def _package_specs(self) -> Iterator[Node]:
        for decl in self.root.named_children:
            if decl.type in ("const_declaration", "var_declaration"):
                for spec in decl.named_children:
                    if spec.type in ("const_spec", "var_spec"):
                        yield spec
                    elif spec.type == "var_spec_list":
                        yield from (s for s in spec.named_children if s.type == "var_spec")

    def text(self, node: Node | None) -> str:
        """The node's source text (``""`` for ``None``)."""
        return self.src.text(node) if node is not None else ""

    def has_import(self, *prefixes: str) -> str | None:
        """The local name of the first import whose path starts with one of ``prefixes``."""
        for local, path in self.imports.items():
            if any(path == p or path.startswith(p + "/") for p in prefixes):
                return local
        return None

    def pos(self, node: Node) -> tuple[int, int]:
        """1-based line and code-point column of ``node``."""
        return self.src.line(node), self.src.col(node)

    def expr(self, node: Node) -> str:
        """An expression as text without whitespace (``s.homeHandler``)."""
        return _WS.sub("", self.src.text(node))

    def owner(self, node: Node) -> str | None:
        """Qualname of the named function or method around ``node`` (an inline handler made a
        definition counts), ``None`` at package level."""
        line, col = self.pos(node)
        inner = None
        for d in self.out.definitions:
            if d.kind in ("function", "method") and (d.start_line, d.start_col) <= (line, col) <= (d.end_line, d.end_col):
                if inner is None or (d.start_line, d.start_col) >= (inner.start_line, inner.start_col):
                    inner = d
        return inner.qualname if inner is not None else None

    @staticmethod
    def args(call: Node) -> list[Node]:
        """The argument expressions of a call (comments left out)."""
        a = call.child_by_field_name("arguments")
        return [c for c in a.named_children if c.type != "comment"] if a is not None else []

    def selector(self, call: Node) -> tuple[str, str] | None:
        """``(receiver text, name)`` of a call ``recv.Name(...)``, else ``None``."""
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "selector_expression":
            return None
        return self.expr(fn.child_by_field_name("operand")), self.text(fn.child_by_field_name("field"))

    def _literal_template(self, node: Node) -> Template | None:
        if node.type == "interpreted_string_literal":
            raw = self.src.text(node)[1:-1]
            return Template.of(storable(raw.encode("utf-8", "surrogatepass").decode("unicode_escape", "replace"))
                               if "\\" in raw else raw)
        if node.type == "raw_string_literal":
            return Template.of(self.src.text(node)[1:-1])
        return None

    def template(self, node: Node | None, params: frozenset[str] = frozenset(), calls: bool = False) -> Template | None:
        """A string expression as a :class:`Template`: literals, ``a + b``, ``fmt.Sprintf(format,
        args...)`` (a ``%s`` / ``%d`` / ``%v`` of an argument that is no call that argument's template, any
        other verb a hole), constants of this file inlined, other names and selectors
        (``cfg.Base``, ``pkg.Path``) as ``ref`` pieces, a call of a function that is not the standard
        library's, with ``calls`` (a request's URL), a ``call:`` piece (:func:`indexer.frameworks.url_builder_rule.
        call_piece`: the linker folds a URL builder's, :mod:`indexer.languages.go.frameworks.url_builders`),
        anything else a hole; a name
        among ``params`` (the enclosing function's parameters, for a client template's URL) a ``ref`` piece
        too. ``None`` when the expression has no literal part and names no constant nor one of ``params``
        (a plain variable)."""
        if node is None:
            return None
        t = self._template(node, 0, params, calls=calls)
        if t is None or not t.parts or all(k == "hole" for k, _ in t.parts):
            return None
        return t

    def parameters(self, owner: str | None) -> frozenset[str]:
        """The parameter names of the function or method ``owner`` of this file (receiver aside)."""
        if owner is None:
            return frozenset()
        for d in self.out.definitions:
            if d.qualname == owner and d.kind in ("function", "method"):
                return frozenset(p.name for p in d.params if p.name)
        return frozenset()

    def standard_library(self, fn: Node) -> bool:
        """Whether callee ``fn`` is a function of a standard-library package (``http.ListenAndServe``,
        ``fmt.Sprintf``). A module may be named without a dot (``module blog``: ``blog/api``), so the
        first element of the path is checked against :data:`STD_ROOTS`, not for a dot."""
        operand = fn.child_by_field_name("operand") if fn.type == "selector_expression" else None
        path = self.imports.get(self.text(operand)) if operand is not None and operand.type == "identifier" else None
        return path is not None and path.split("/", 1)[0] in STD_ROOTS

    def _template(self, node: Node, depth: int, params: frozenset[str] = frozenset(), inline: bool = True,
                  calls: bool = False) -> Template | None:
        if depth > 16:
            return Template((("hole", self.expr(node)),))
        lit = self._literal_template(node)
        if lit is not None:
            return lit
        if node.type == "parenthesized_expression" and node.named_children:
            return self._template(node.named_children[0], depth + 1, params, inline, calls)
        if node.type == "binary_expression" and self.text(node.child_by_field_name("operator")) == "+":
            left = self._template(node.child_by_field_name("left"), depth + 1, params, inline, calls)
            right = self._template(node.child_by_field_name("right"), depth + 1, params, inline, calls)
            if left is None or right is None:
                return None
            return left + right
        if node.type == "identifier":
            name = self.text(node)
            if name in params:
                return Template((("ref", name),))
            if self.is_local(node):
                return Template((("hole", name),))
            if inline and name in self.constants:
                return self.constants[name]
            return Template((("ref", name),))
        if node.type == "selector_expression":
            operand = node.child_by_field_name("operand")
            if operand is not None and operand.type == "identifier" and self.text(operand) in self.imports:
                return Template((("ref", self.expr(node)),))
            return Template((("hole", self.expr(node)),))
        joined = self._joined(node, depth, params, inline, calls) if node.type == "call_expression" else None
        if joined is not None:
            return joined
        if node.type == "call_expression" and self.selector(node) in (("fmt", "Sprintf"),):
            args = self.args(node)
            fmt = self._literal_template(args[0]) if args else None
            if fmt is None or fmt.literal() is None:
                return Template((("hole", self.expr(node)),))
            parts: list[tuple[str, str]] = []
            rest = args[1:]
            pieces = _VERB.split(fmt.literal() or "")
            verbs = _VERB.findall(fmt.literal() or "")
            for i, piece in enumerate(pieces):
                parts.append(("lit", piece))
                if i < len(verbs):
                    if verbs[i] == "%%":
                        parts.append(("lit", "%"))
                        continue
                    # %s / %d / %v of a string or a name: its template (a constant, a parameter, `base + "/x"`)
                    sub = self._template(rest[0], depth + 1, params, inline, calls) \
                        if rest and verbs[i][-1] in "sdv" and rest[0].type != "call_expression" else None
                    parts.extend(sub.parts if sub is not None else (("hole", self.expr(rest[0]) if rest else "?"),))
                    rest = rest[1:]
            return Template.merged(parts)
        fn = node.child_by_field_name("function") if node.type == "call_expression" else None
        if calls and fn is not None and fn.type in ("identifier", "selector_expression") and not self.standard_library(fn):
            # a call of the application's own function: a URL builder's, folded by the linker (built_urls)
            args = [self._template(a, depth + 1, params, inline, calls) for a in self.args(node)]
            return Template((call_piece(self.expr(fn), args, self.expr(node)),))
        return Template((("hole", self.expr(node)),))

    def std_call(self, call: Node) -> tuple[str, str] | None:
        """``(package path, name)`` of a call of an imported package's function (``url.JoinPath(...)`` ->
        ``("net/url", "JoinPath")``, the import's alias followed), else ``None``."""
        sel = self.selector(call)
        path = self.imports.get(sel[0]) if sel is not None else None
        return (path, sel[1]) if path is not None and sel is not None else None

    def _joined(self, node: Node, depth: int, params: frozenset[str], inline: bool, calls: bool) -> Template | None:
        """``path.Join(a, b, ...)`` / ``url.JoinPath(base, a, ...)`` as one template: the elements' templates
        joined with ``/`` (empty literal elements left out), runs of ``/`` in the literal text made one (not the
        scheme's ``://``), a trailing ``/`` dropped unless ``url.JoinPath``'s last element ends with one (Go's
        ``path.Clean`` and ``url.JoinPath`` rules; ``.`` / ``..`` elements are not resolved). An element that is
        no string expression is a hole. ``None`` for any other call."""
        key = self.std_call(node)
        if key not in _JOINS:
            return None
        elems = [self._template(a, depth + 1, params, inline, calls) or Template((("hole", self.expr(a)),))
                 for a in self.args(node)]
        elems = [e for e in elems if e.parts]
        if not elems:
            return Template()
        parts: list[tuple[str, str]] = []
        for i, e in enumerate(elems):
            if i:
                parts.append(("lit", "/"))
            parts.extend(e.parts)
        merged = [(k, _SLASHES.sub("/", t) if k == "lit" else t) for k, t in Template.merged(parts).parts]
        last = elems[-1].parts[-1]
        keep = _JOINS[key] and last[0] == "lit" and last[1].endswith("/")
        end = merged[-1] if merged else None
        if end is not None and end[0] == "lit" and end[1].endswith("/") and not keep and (len(merged) > 1 or end[1] != "/"):
            merged[-1] = ("lit", end[1].rstrip("/"))  # path.Clean: no trailing '/' but the root's
        return Template.merged(merged)

    def string_value(self, node: Node | None) -> Template | None:
        """A topic or method name: a literal, a constant of this file, ``&name`` of one, or a ``ref``
        to a named constant elsewhere; ``None`` for anything else."""
        if node is None:
            return None
        if node.type == "unary_expression" and node.child_by_field_name("operand") is not None:
            node = node.child_by_field_name("operand")
        if node.type in ("identifier", "selector_expression", "interpreted_string_literal", "raw_string_literal"):
            return self.template(node)
        return None

    def is_local(self, ident: Node) -> bool:
        """Whether an identifier names a parameter, receiver or local of its enclosing function (a
        value, not a package-level constant)."""
        name = self.text(ident)
        fn = ident.parent
        while fn is not None and fn.type not in ("function_declaration", "method_declaration", "func_literal"):
            fn = fn.parent
        while fn is not None:
            stack = [c for c in (fn.child_by_field_name("receiver"), fn.child_by_field_name("parameters"),
                                 fn.child_by_field_name("body")) if c is not None]
            while stack:
                n = stack.pop()
                if n.type in ("parameter_declaration", "variadic_parameter_declaration", "var_spec", "const_spec"):
                    if any(self.text(x) == name for x in n.children_by_field_name("name")):
                        return True
                elif n.type in ("short_var_declaration", "range_clause"):
                    left = n.child_by_field_name("left")
                    if left is not None and any(self.text(x) == name for x in left.named_children):
                        return True
                elif n.type == "func_literal":
                    continue
                stack.extend(n.named_children)
            fn = fn.parent
            while fn is not None and fn.type not in ("function_declaration", "method_declaration", "func_literal"):
                fn = fn.parent
        return False

    def single_value(self, ident: Node) -> Node | None:
        """The expression a local of the innermost function around ``ident`` is given, when the body
        gives it exactly one (``url := c.base + path``, ``var url = ...``; no other ``=`` / ``:=`` to it,
        not a loop variable); ``None`` otherwise (a parameter, a package-level name, several values)."""
        name = self.text(ident)
        fn = ident.parent
        while fn is not None and fn.type not in ("function_declaration", "method_declaration", "func_literal"):
            fn = fn.parent
        body = fn.child_by_field_name("body") if fn is not None else None
        found: list[Node | None] = []
        stack = [body] if body is not None else []
        while stack and len(found) < 2:
            n = stack.pop()
            if n.type in ("short_var_declaration", "assignment_statement", "range_clause"):
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                names = left.named_children if left is not None else []
                values = right.named_children if right is not None and right.type == "expression_list" else [right]
                if len(names) > 1 and len(values) == 1 and values[0] is not None and values[0].type == "call_expression" \
                        and self.std_call(values[0]) in _FIRST_RESULT:
                    values = [values[0]] + [None] * (len(names) - 1)  # `u, err := url.JoinPath(...)`: u is the string
                for i, x in enumerate(names):
                    if self.text(x) == name:
                        ok = n.type != "range_clause" and len(values) == len(names) and values[i] is not None and \
                            (n.type == "short_var_declaration" or self.text(n.child_by_field_name("operator")) == "=")
                        found.append(values[i] if ok else None)
            elif n.type == "var_spec" and any(self.text(x) == name for x in n.children_by_field_name("name")):
                value = n.child_by_field_name("value")
                names = n.children_by_field_name("name")
                vals = value.named_children if value is not None else []
                found.append(vals[[self.text(x) for x in names].index(name)] if len(vals) == len(names) else None)
            elif n.type != "func_literal":
                stack.extend(n.named_children)
        return found[0] if len(found) == 1 else None

    def inline_function(self, node: Node, name: str, scope: str | None) -> str:
        """Make the function literal at ``node`` (a handler passed inline) a function definition of
        its own named ``name`` (unique under ``scope`` with ``#2`` …), whose calls it now owns; returns
        its qualname."""
        line, col = self.pos(node)
        for d in self.out.definitions:
            if d.kind == "function" and (d.name_line, d.name_col) == (line, col):
                return d.qualname
        plist = node.child_by_field_name("parameters")
        params = [Param(self.text(nm)) for p in (plist.named_children if plist is not None else ())
                  for nm in p.children_by_field_name("name")]
        return inline_definition(self.out, self.src, node, name, scope, params, inline_header(self.src, node))


def go_file(root: Node, src: SourceText, out: FileExtraction) -> GoFile:
    """The :class:`GoFile` of this extraction, built on first use and shared by the detectors."""
    cached = getattr(go_file, "_last", None)
    if cached is not None and cached.root is root and cached.out is out:
        return cached
    gf = GoFile(root, src, out)
    go_file._last = gf  # type: ignore[attr-defined]
    return gf
