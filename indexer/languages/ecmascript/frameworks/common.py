"""What the JavaScript / TypeScript framework detectors share: one query run per file, scopes, values.

Each detector keeps its rules as data in its own query file, ``indexer/languages/ecmascript/queries/<name>.scm``
(rules valid in both grammars) plus ``indexer/languages/ecmascript/queries/<dialect>/<name>.scm`` where a dialect adds its
own. The files of every section are compiled as *one* query per grammar, as the extractor does with
its own files, so a file's tree is traversed once for all the detectors: the first detector to ask
runs it, the others reuse the matches (:func:`js_file` keeps the last file's :class:`JsFile`).

Python looks at the tree itself only where a query cannot express the rule:

* the enclosing definition of a node (``HttpCall.caller``, ``TopicUse.owner``, an inline route
  handler): "innermost enclosing match" is not a query predicate. The ancestors of the node are
  walked and each one that can be a definition is looked up, by the position of its name, among the
  definitions the extractor already reported; so the answer follows the extractor's own rules
  (``CallSite.caller``: anonymous callbacks belong to the enclosing named function, a field
  initialiser to its class, module-level code to ``None``);
* a value as the code builds it (:meth:`JsFile.template`): string and template literals, ``+``
  concatenation, names, a local variable's initialiser (found by walking up the enclosing blocks);
  a query cannot rebuild text;
* receiver texts, normalised as the extractor writes them (``this.http``, ``a.b()``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from tree_sitter import Node, Query

from indexer.languages import base
from indexer.languages.ecmascript.local_scopes import ScopeTables
from indexer.model import CALLABLE_KINDS, TYPE_KINDS, Definition, FileExtraction, Param, Template, call_ref, is_call_ref
from indexer.symbols import CONFIG_KEY

if TYPE_CHECKING:
    from indexer.languages.base import SourceText

__all__ = ["SECTIONS", "FUNCTION_TYPES", "ENV_HEADS", "MAX_ALTERNATIVES", "MAX_CALL_ARGUMENTS", "JsFile", "js_file", "merge_parts", "join_paths", "unwrap", "arguments",
           "enclosing_class"]

SECTIONS = ("express", "fastify", "hono", "nest", "http_clients", "kafkajs", "amqplib", "aws_messaging", "listeners",
            "constants", "apollo", "nest_graphql", "schedulers", "http_wrappers", "base_urls", "graphql_clients",
            "test_callbacks", "express_errors", "nest_cqrs", "nest_microservices", "url_builders")
"""The query files of the ECMAScript detectors, one per detector module."""
_QUERY_FILES = (*SECTIONS, "local_names")  # and the names declared and written, for ScopeTables

_SHARED_FOLDER = "ecmascript/queries"
_WS = re.compile(r"\s+")
_MAX_DEPTH = 48  # nesting bound for values and receivers (minified or generated code)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])")
# Nodes whose definition the extractor reports under the position of their ``name`` field.
_NAMED_DEFINITIONS = frozenset(
    {
        "class_declaration", "abstract_class_declaration", "class", "function_declaration",
        "generator_function_declaration", "method_definition", "variable_declarator",
        "public_field_definition", "abstract_method_signature", "interface_declaration",
        "enum_declaration",
    }
)  # fmt: skip
_ANONYMOUS_DEFINITIONS = frozenset({"function_expression", "generator_function", "class", "arrow_function"})
_JOINABLE = frozenset({"string", "template_string", "binary_expression", "identifier", "member_expression",
                       "ternary_expression", "number"})
"""Values of a local a URL may be joined from (:meth:`JsFile._assigned_value`): text and names, not calls."""
FUNCTION_NODES = frozenset(
    {"function_declaration", "function_expression", "arrow_function", "method_definition", "generator_function",
     "generator_function_declaration"}
)  # fmt: skip
"""Node types of a function, declared or inline (parameters and a body of its own)."""
_CLASS_NODES = frozenset({"class_declaration", "abstract_class_declaration", "class"})
T = TypeVar("T")
_UNKNOWN = object()

MAX_ALTERNATIVES = 4
MAX_CALL_ARGUMENTS = 4
"""The most arguments of a call in a string kept as a call (:meth:`JsFile._call_piece`); more: a hole."""
"""The most values :meth:`JsFile.alternatives` gives one expression (two conditionals' worth)."""

_WRAPPERS = frozenset(
    {"parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression", "type_assertion"}
)
_ENV_HEADS = ("process.env.", "import.meta.env.")
_CONFIG_RECEIVER = re.compile(r"config", re.IGNORECASE)
"""The last name of a receiver read as ``@nestjs/config``'s ``ConfigService`` (``this.configService``, ``config``)."""
_CONFIG_GETTERS = frozenset({"get", "getOrThrow"})
ENV_HEADS = _ENV_HEADS
"""How a reference to an environment variable starts (Node / Create React App, Vite)."""


def _combined_query(grammar: str, folder: str) -> tuple[Query, tuple[str, ...]]:
    """Every section's query files compiled as one query for ``grammar``, and each pattern's section."""
    return base.combined_query(grammar, (_SHARED_FOLDER, folder), _QUERY_FILES)


def _grammar(out: FileExtraction) -> tuple[str, str]:
    """(grammar, query folder) of a file, as the extractors choose them (``.tsx`` parses as tsx)."""
    if out.language == "javascript":
        return "javascript", "ecmascript/queries/javascript"
    return ("tsx" if out.path.lower().endswith(".tsx") else "typescript"), "ecmascript/queries/typescript"


_last: list[JsFile] = []


def js_file(root: Node, src: SourceText, out: FileExtraction) -> JsFile:
    """The :class:`JsFile` of this file: built (and the combined query run) once per file.

    Detectors of one file run one after the other with the same ``src`` object; the last file's
    :class:`JsFile` is kept (a one-entry cache keyed by that object's identity, which it holds)."""
    if _last and _last[0].src is src and _last[0].out is out:
        return _last[0]
    jf = JsFile(root, src, out)
    _last[:] = [jf]
    return jf


def merge_parts(parts: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Adjacent literal pieces joined into one; empty literal pieces dropped (:meth:`Template.merged`)."""
    return Template.merged(parts).parts


def join_paths(*pieces: Template) -> Template:
    """URL path pieces joined with exactly one ``/`` between non-empty pieces where their literal ends
    show it, and a leading ``/`` (Nest: ``@Controller("cats")`` + ``@Get(":id")`` -> ``/cats/:id``)."""
    parts: list[tuple[str, str]] = [("lit", "/")]
    for piece in pieces:
        if not piece.parts:
            continue
        p = list(piece.parts)
        if p[0][0] == "lit":
            p[0] = ("lit", p[0][1].lstrip("/"))
        if parts[-1][0] == "lit":
            parts[-1] = ("lit", parts[-1][1].rstrip("/") + "/")
        else:
            parts.append(("lit", "/"))
        parts.extend(p)
    merged = list(merge_parts(parts))
    if merged[-1][0] == "lit" and merged != [("lit", "/")]:
        merged[-1] = ("lit", merged[-1][1].rstrip("/"))  # no trailing slash: `@Get()` adds nothing
    return Template(merge_parts(merged))


FUNCTION_TYPES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
"""Node types of a function written inline (an arrow, a function expression)."""


class _Indexed:
    """The file's definitions and calls indexed for :meth:`JsFile.inline_function`, which scanned both
    lists whole per inline function and tried every ``#n`` suffix from 2 up: quadratic in the file
    (10,000 ``app.use(function m(req, res, next) {...})`` lines: 88 s of extraction, brk49). Both lists only grow while the detectors run;
    what was appended since the last look is indexed then (the calls' list again whole if it was
    replaced or shrank)."""

    def __init__(self, out: FileExtraction) -> None:
        self.out = out
        self.names: dict[str | None, set[str]] = {}  # parent qualname -> the names of its definitions
        self.params: dict[str, int] = {}  # callable qualname -> its parameter count (the first such)
        self.suffix: dict[tuple[str | None, str], int] = {}  # (parent, name) -> the last ``#n`` given
        self._defs = 0
        self._calls: list | None = None
        self._at: list[tuple[int, int, int]] = []  # (line, col, index) of every call, sorted

    def definitions(self) -> _Indexed:
        """Bring the definition tables up to date; returns ``self``."""
        defs = self.out.definitions
        for d in defs[self._defs:]:
            self.names.setdefault(d.parent, set()).add(d.name)
            if d.kind in CALLABLE_KINDS:
                self.params.setdefault(d.qualname, len(d.params))
        self._defs = len(defs)
        return self

    def calls_within(self, start: tuple[int, int], end: tuple[int, int]) -> list[int]:
        """Indexes into ``out.calls`` of the calls at ``start <= (line, col) < end``."""
        calls = self.out.calls
        if calls is not self._calls or len(calls) < len(self._at):
            self._calls, self._at = calls, sorted((c.line, c.col, i) for i, c in enumerate(calls))
        for i in range(len(self._at), len(calls)):
            bisect.insort(self._at, (calls[i].line, calls[i].col, i))
        lo = bisect.bisect_left(self._at, (start[0], start[1], -1))
        hi = bisect.bisect_left(self._at, (end[0], end[1], -1))
        return [i for _, _, i in self._at[lo:hi]]


class JsFile:
    """One JavaScript / TypeScript file as the detectors see it: its matches per section, the
    extractor's definitions by name position, and helpers for texts, scopes and values."""

    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.root = root
        self.src = src
        self.out = out
        grammar, folder = _grammar(out)
        self.grammar = grammar
        q, sections = _combined_query(grammar, folder)
        self._matches: dict[str, list[dict[str, list[Node]]]] = {s: [] for s in _QUERY_FILES}
        for pattern, caps in base.run_query(q, root):  # within the file's extraction budget
            self._matches[sections[pattern]].append(caps)
        self._defs = {(d.name_line, d.name_col): d for d in out.definitions}
        self._callables = {d.qualname for d in out.definitions if d.kind in CALLABLE_KINDS}
        self._indexed = _Indexed(out)
        self._choice: dict[int, int] | None = None  # ternary node id -> branch taken (alternatives())
        self._met: list[tuple[int, int]] = []  # the choices a template met that the choice did not fix, with their ways
        self._scopes = ScopeTables(src.text, self._matches["local_names"])
        self._templates: dict[int, Template] = {}  # node id -> its template, when no choice can change it
        self._choices = 0  # how many choice points (a conditional, `||`, a reassigned local) templates met
        self._parameters: dict[int, frozenset[str]] = {}  # function node id -> parameters()
        self._functions = base.Innermost(root, FUNCTION_NODES, ("program",))  # function_around()
        self._code_scopes: dict[int, str | None] = {}  # node id -> code_scope() of a node directly inside it
        # (forgotten when inline_function() adds a definition)
        self._module_values: dict[str, list[Node | None]] | None = None  # module_values(), by name

    # -- basics -------------------------------------------------------------------------------------

    def matches(self, section: str) -> list[dict[str, list[Node]]]:
        """The combined query's matches of one section, in document order."""
        return self._matches[section]

    def text(self, node: Node | None) -> str:
        """The node's source text."""
        return self.src.text(node)

    def flat(self, node: Node | None) -> str:
        """The node's text with whitespace runs collapsed to one space."""
        return _WS.sub(" ", self.src.text(node)).strip()

    def pos(self, node: Node) -> tuple[int, int]:
        """(1-based line, 0-based code-point column) of the node's start."""
        return self.src.line(node), self.src.col(node)

    def has(self, *needles: bytes) -> bool:
        """Whether the file's bytes contain any of ``needles`` (a cheap gate before any work)."""
        data = self.src.data
        return any(n in data for n in needles)

    def import_locals(self, *modules: str) -> dict[str, str | None]:
        """Local names bound by imports of any of ``modules``: local -> imported member (``None``:
        the module itself, ``"default"``: its default export)."""
        return {i.local: i.name for i in self.out.imports if i.module in modules}

    def imported(self, name: str) -> str | None:
        """The module a local name is imported from, or ``None``."""
        for i in self.out.imports:
            if i.local == name:
                return i.module
        return None

    # -- receivers ----------------------------------------------------------------------------------

    def receiver(self, node: Node) -> str:
        """Normalised receiver text as the extractor writes it: no whitespace, generic arguments
        dropped, calls written ``()`` (``this.http``, ``axios.create().get`` -> ``axios.create()``)."""
        parts: list[str] = []
        for _ in range(_MAX_DEPTH):
            t = node.type
            if t == "member_expression":
                obj = node.child_by_field_name("object")
                prop = node.child_by_field_name("property")
                if obj is not None and prop is not None:
                    parts.append("." + self.text(prop))
                    node = obj
                    continue
            elif t == "call_expression":
                fn = node.child_by_field_name("function")
                if fn is not None:
                    parts.append("()")
                    node = fn
                    continue
            elif t in ("non_null_expression", "parenthesized_expression") and node.named_children:
                node = node.named_children[0]
                continue
            return _WS.sub("", self.text(node)) + "".join(reversed(parts))
        return "…"

    def name_ref(self, node: Node) -> str | None:
        """The dotted name an identifier or a chain of property accesses spells (``a``,
        ``config.api.base``), ``this.x`` as ``<enclosing class>.x``; ``None`` for anything else
        (calls, subscripts, ``this`` outside a class)."""
        names: list[str] = []
        for _ in range(_MAX_DEPTH):
            t = node.type
            if t == "member_expression":
                prop = node.child_by_field_name("property")
                obj = node.child_by_field_name("object")
                if (
                    prop is None
                    or obj is None
                    or prop.type not in ("property_identifier", "private_property_identifier")
                ):
                    return None
                names.append(self.text(prop))
                node = obj
                continue
            if t in _WRAPPERS and node.named_children:
                node = node.named_children[0]
                continue
            if t in ("identifier", "shorthand_property_identifier"):
                head = self.text(node)
                if head == "undefined" and not names:
                    return None
            elif t == "meta_property" and names and self.text(node) == "import.meta":
                head = "import.meta"  # Vite's import.meta.env.VITE_X: a ref the linker reads from .env files
            elif t == "this" and names:
                cls = self.class_of(node)
                if cls is None:
                    return None
                head = cls
            else:
                return None
            return ".".join([head, *reversed(names)])
        return None

    # -- scopes -------------------------------------------------------------------------------------

    def _definition(self, node: Node) -> Definition | None:
        """The extractor's definition for ``node`` when ``node`` is a definition node."""
        t = node.type
        name: Node | None = None
        if t in _NAMED_DEFINITIONS:
            name = node.child_by_field_name("name")
        elif t == "field_definition":
            name = node.child_by_field_name("property")
        elif t == "pair":  # `const auth = { required: jwt(...) }`: a value the extractor made a definition
            name = node.child_by_field_name("key")
        elif t == "assignment_expression":
            left = node.child_by_field_name("left")
            name = (
                left.child_by_field_name("property") if left is not None and left.type == "member_expression" else None
            )
        if name is None and t in _ANONYMOUS_DEFINITIONS:
            named = node.child_by_field_name("name") if t != "class" else None  # `function inner() {}`
            found = self._defs.get(self.pos(named)) if named is not None else None
            if found is not None:
                return found
            name = node
        if name is None:
            return None
        return self._defs.get(self.pos(name))

    def code_scope(self, node: Node) -> str | None:
        """The qualname code at ``node`` belongs to, by the extractor's ``CallSite.caller`` rule: the
        innermost enclosing named function / method / constructor; a class for its fields'
        initialisers and its body; ``None`` at module level."""
        walked: list[int] = []  # ids of the nodes passed: the walk from each of them ends where this one does
        scopes = self._code_scopes
        found: str | None = None
        for n in base.around(self.root, node):
            known = scopes.get(n.id, _UNKNOWN)
            if known is not _UNKNOWN:
                found = known  # type: ignore[assignment]
                break
            walked.append(n.id)
            d = self._definition(n)
            if d is not None:
                found = d.parent if d.kind == "field" else d.qualname
                break
        for i in walked:
            scopes[i] = found
        return found

    def function_definition(self, fn: Node) -> Definition | None:
        """The callable definition the function node ``fn`` is (``function f() {}``, ``const f = () =>
        ...``, ``exports.f = function () {}``, ``module.exports = (app) => {...}`` (``default``), a
        method), or ``None`` (an anonymous callback)."""
        d = self._definition(fn)
        if d is None and fn.parent is not None and fn.parent.type in ("variable_declarator", "assignment_expression",
                                                                        "pair"):
            d = self._definition(fn.parent)
        return d if d is not None and d.kind in CALLABLE_KINDS else None

    def handler(self, node: Node, call: Node, name: str) -> tuple[str | None, str | None] | None:
        """What a registration's handler expression ``node`` (in the call ``call``) names, as
        ``(handler, handler_ref)``: an inline function becomes the definition ``name``
        (:meth:`inline_function`); a name is the local callable it binds, else a reference to
        resolve; ``this.x`` a method of the class when it is callable. ``None`` when ``node`` is none
        of these (a call, a literal: the caller decides)."""
        t = node.type
        if t in FUNCTION_TYPES:
            return self.inline_function(node, name), None
        if t == "identifier":
            text = self.text(node)
            local = self.local_callable(text, self.code_scope(call))
            return (local, None) if local else (None, text)
        if t == "member_expression":
            ref = self.name_ref(node)
            if ref is None:
                return None, self.receiver(node)
            if node.child_by_field_name("object").type == "this":  # type: ignore[union-attr]
                return (ref, None) if self.is_callable(ref) else (None, ref)
            return None, ref
        return None

    def runs(self, node: Node, call: Node, name: str) -> tuple[str | None, str | None] | None:
        """What a middleware / guard / hook expression ``node`` (an argument of ``call``) names as the
        code that runs, as ``(owner, owner_ref)``: what :meth:`handler` gives, and for a call
        (``cors()``, ``passport.authenticate("jwt")``, ``AuthGuard("jwt")``) or ``new X()`` its callee
        (the factory whose returned function runs: calls in that function belong to the factory by
        the ``CallSite.caller`` rule). ``None`` for anything else (a literal, an object)."""
        node = unwrap(node) or node
        found = self.handler(node, call, name)
        if found is not None:
            return found
        if node.type in ("call_expression", "new_expression"):
            fn = node.child_by_field_name("function") or node.child_by_field_name("constructor")
            if fn is None or fn.type not in ("identifier", "member_expression"):
                return None
            ref = self.name_ref(fn)
            return (None, ref) if ref is not None else (None, self.receiver(fn))
        return None

    def param_count(self, owner: str | None) -> int | None:
        """The number of parameters of the function ``owner`` of this file (an inline function made a
        definition too); ``None`` when the file defines no such callable."""
        return self._indexed.definitions().params.get(owner) if owner is not None else None

    def inline_function(self, fn: Node, name: str) -> str:
        """Make the anonymous function ``fn`` (an arrow or function expression passed to a route or
        event registration) a definition of its own and return its qualname (the convention is in
        :mod:`indexer.symbols`): kind ``function``, named ``name`` (made unique in its scope with
        ``#2`` …), under the definition whose code holds it, spanning the function, its name position
        the function's start. The calls in its body that belonged to the enclosing scope (the
        extractor's ``CallSite.caller`` rule) now belong to it, and so do the bindings written on the lines
        inside it (its locals); calls inside named functions nested in it keep theirs. Asked twice for one function (one handler for several routes), it returns the
        first answer. A named function expression (``function list(req, res) {}``) is already the
        extractor's definition of that name: its qualname is returned."""
        named = fn.child_by_field_name("name") if fn.type != "arrow_function" else None
        own = self._defs.get(self.pos(named)) if named is not None else None
        if own is not None and own.kind in CALLABLE_KINDS:
            return own.qualname
        known = self._defs.get(self.pos(fn))
        if known is not None:
            return known.qualname
        parent = self.code_scope(fn)
        taken = self._indexed.definitions().names.get(parent, set())
        unique = name
        n = self._indexed.suffix.get((parent, name), 1)  # the suffixes below it are taken
        if n > 1:
            unique = f"{name} #{n}"
        while unique in taken:
            n += 1
            unique = f"{name} #{n}"
        self._indexed.suffix[(parent, name)] = n
        qualname = f"{parent}.{unique}" if parent else unique
        line, col = self.pos(fn)
        end = (fn.end_point[0] + 1, self.src.end_col(fn))
        params_node = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
        params: list[Param] = []
        if params_node is not None:
            plist = [params_node] if params_node.type == "identifier" else params_node.named_children
            for p in plist:
                if p.type == "comment":
                    continue
                pattern = p.child_by_field_name("pattern") if p.type != "identifier" else p
                rest = pattern is not None and pattern.type == "rest_pattern"
                params.append(Param(self.text(pattern or p), variadic="*" if rest else None,
                                    has_default=p.type == "optional_parameter"
                                    or (p.child_by_field_name("value") is not None)))
        body = fn.child_by_field_name("body")
        header = self.src.data[fn.start_byte : body.start_byte] if body is not None else b""
        d = Definition(
            kind="function",
            name=unique,
            qualname=qualname,
            parent=parent,
            start_line=line,
            start_col=col,
            end_line=end[0],
            end_col=end[1],
            name_line=line,
            name_col=col,
            signature=_WS.sub(" ", header.decode("utf-8", "replace")).strip().removesuffix("=>").strip(),
            params=params,
            modifiers=["async"] if any(c.type == "async" for c in fn.children) else [],
        )
        self.out.definitions.append(d)
        self._defs[(line, col)] = d
        self._code_scopes.clear()  # a new scope: what code_scope() remembered may lie inside it
        self._callables.add(qualname)
        for i in self._indexed.calls_within((line, col), end):
            c = self.out.calls[i]
            if c.caller == parent:
                c.caller = qualname
        for b in self.out.bindings:  # its locals (`const app = express()`: one per test), lines inside its body
            if b.scope == parent and line < b.line < end[0]:
                b.scope = qualname
        return qualname

    def class_of(self, node: Node) -> str | None:
        """The qualname of the innermost class around ``node`` (for ``this.x``), or ``None`` when a
        function that is not a method or an arrow function inside one comes first."""
        for n in base.around(self.root, node):
            t = n.type
            if t in _CLASS_NODES:
                d = self._definition(n)
                return d.qualname if d is not None and d.kind in TYPE_KINDS else None
            if t in ("function_declaration", "function_expression", "generator_function_declaration",
                     "generator_function"):  # fmt: skip
                return None  # `this` is the function's own
        return None

    def definition_named(self, name_node: Node | None) -> Definition | None:
        """The definition whose name is written at ``name_node``."""
        return self._defs.get(self.pos(name_node)) if name_node is not None else None

    def is_callable(self, qualname: str) -> bool:
        """Whether this file defines a function, method or constructor with that qualname."""
        return qualname in self._callables

    def local_callable(self, name: str, scope: str | None) -> str | None:
        """The qualname of the function ``name`` visible from ``scope`` in this file (defined in
        ``scope`` or one of its enclosing definitions, else at top level), or ``None``."""
        s = scope
        while s:
            if f"{s}.{name}" in self._callables:
                return f"{s}.{name}"
            s = s.rpartition(".")[0]
        return name if name in self._callables else None

    # -- values -------------------------------------------------------------------------------------

    def string(self, node: Node | None) -> str | None:
        """The value of a string literal or of a template literal without substitutions."""
        node = unwrap(node)
        if node is None:
            return None
        if node.type == "string":
            return _unescape(self.text(node)[1:-1])
        if node.type == "template_string" and not any(c.type == "template_substitution" for c in node.children):
            return _unescape(self.text(node)[1:-1])
        return None

    def alternatives(self, build: Callable[[], T], limit: int = MAX_ALTERNATIVES) -> list[T]:
        """What ``build`` returns for each way the conditional expressions (``c ? a : b``) met by the
        :meth:`template` calls it makes can go (``"/articles" + (feed ? "/feed" : "")`` is
        ``/articles/feed`` and ``/articles``), distinct, consequence first, at most ``limit`` (the
        first ones); outside this a conditional expression is a ``hole``. ``None`` results are dropped."""
        out: list[T] = []
        todo: list[dict[int, int]] = [{}]
        runs = 0
        while todo and len(out) < limit and runs < 2 * limit:
            choice = todo.pop(0)
            runs += 1
            self._choice, self._met = choice, []
            try:
                found = build()
            finally:
                met, self._choice, self._met = self._met, None, []
            if found is not None and found not in out:
                out.append(found)
            for i, (tid, ways) in enumerate(met):  # each other way of a choice, in order (`a || b || c`: b, c)
                fixed = {**choice, **dict.fromkeys((m for m, _ in met[:i]), 0)}
                todo.extend({**fixed, tid: k} for k in range(1, min(ways, 2 * limit + 1)))
        return out

    def template(self, node: Node) -> Template:
        """The value of an expression as a :class:`Template`: string / number literals and template
        literal text are ``lit``; a local variable of an enclosing function is its initialiser's
        pieces (:meth:`_local_value`); other names and property chains (:meth:`name_ref`) are
        ``ref``; ``a + b`` is both sides' pieces; ``process.env.X || "lit"`` (and ``??``) is the
        literal fallback; ``c ? a : b`` one branch under :meth:`alternatives`; any other expression
        (and a ``${...}`` substitution of one) is a ``hole`` with its text."""
        found = self._templates.get(node.id)
        if found is not None:
            return found
        choices = self._choices
        parts: list[tuple[str, str]] = []
        self._template(node, parts, 0)
        found = Template(merge_parts(parts))
        if self._choices == choices:  # no choice point below: the same under every run of alternatives()
            self._templates[node.id] = found
        return found

    def _chosen(self, node: Node, first: str, second: str, parts: list[tuple[str, str]], depth: int) -> None:
        """The template of the side of ``node`` this run of :meth:`alternatives` takes: field ``first``
        (the first run, recording ``node`` as met) or ``second``; a hole when that side is missing."""
        k = self._choice.get(node.id) if self._choice is not None else 0
        if k is None:
            self._met.append((node.id, 2))
            k = 0
        side = node.child_by_field_name(first if k == 0 else second)
        if side is None:
            parts.append(("hole", self.flat(node)))
        else:
            self._template(side, parts, depth + 1)

    def _either(self, node: Node, parts: list[tuple[str, str]], depth: int) -> None:
        """The operand of the ``||`` / ``??`` chain ``node`` this run of :meth:`alternatives` takes, the
        chain read as one choice of its operands in order (``a || b || c`` nests on the left: read in a
        loop, a chain of 10,000 neither recursed nor kept its last operands before its first; brk53). An
        operand that always holds ends the chain (ECMAScript's short circuit: a non-empty string for
        ``||``, any literal for ``??``): ``url || "/api/x" || "/api/y"`` never sends ``/api/y``."""
        op = self._operator(node)
        rights: list[Node] = []
        n: Node | None = node
        inner = node
        while n is not None and n.type == "binary_expression" and self._operator(n) == op:
            right = n.child_by_field_name("right")
            if right is None:
                break
            rights.append(right)
            inner, n = n, n.child_by_field_name("left")
        # the first two as one default (`process.env.X || "/api" || y`, `opts.base ?? "/api" ?? y`): its default
        operands = ([] if n is None or self._env_default(inner) else [n]) + rights[::-1]
        for i, o in enumerate(operands):
            if self._always(o, op):
                del operands[i + 1:]
                break
        k = self._choice.get(node.id) if self._choice is not None else 0
        if k is None:
            self._met.append((node.id, len(operands)))
            k = 0
        if k >= len(operands) or operands[k] is None:
            parts.append(("hole", self.flat(node)))
        else:
            self._template(operands[k], parts, depth + 1)

    def _always(self, node: Node, op: str) -> bool:
        """Whether an operand of ``op`` (``||`` / ``??``) is always taken when reached: a non-empty string
        literal (truthy) for ``||``; a string, template or number literal (never nullish) for ``??``."""
        node = unwrap(node) or node
        if op == "??":
            return node.type in ("string", "template_string", "number")
        return bool(self.string(node))

    def _template(self, node: Node, parts: list[tuple[str, str]], depth: int) -> None:
        t = node.type
        if depth > _MAX_DEPTH:
            parts.append(("hole", self.flat(node)))
        elif t == "string":
            parts.append(("lit", _unescape(self.text(node)[1:-1])))
        elif t == "number":
            parts.append(("lit", self.text(node)))
        elif t == "template_string":
            for c in node.named_children:
                if c.type == "template_substitution":
                    inner = [x for x in c.named_children if x.type != "comment"]
                    if len(inner) == 1:
                        self._template(inner[0], parts, depth + 1)
                    else:
                        parts.append(("hole", self.flat(c)[2:-1].strip()))
                elif c.type in ("string_fragment", "escape_sequence"):
                    parts.append(("lit", _unescape(self.text(c))))
        elif t == "binary_expression" and self._operator(node) == "+":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None:
                parts.append(("hole", self.flat(node)))
                return
            self._template(left, parts, depth + 1)
            self._template(right, parts, depth + 1)
        elif t == "binary_expression" and self._operator(node) in ("||", "??") and self._env_default(node):
            self._template(node.child_by_field_name("right"), parts, depth + 1)  # type: ignore[arg-type]
        elif t == "binary_expression" and self._operator(node) in ("||", "??") and self._chose():
            self._either(node, parts, depth)  # `a || b || c` is a, then b, then c, as `c ? a : b`
        elif t in _WRAPPERS and len(node.named_children) >= 1:
            self._template(node.named_children[0], parts, depth + 1)
        elif t == "ternary_expression" and self._chose():  # alternatives(): one branch per run
            self._chosen(node, "consequence", "alternative", parts, depth)
        elif t == "call_expression":
            key = self.config_read(node)
            parts.append(("ref", key) if key is not None else self._call_piece(node, depth))
        else:
            local = self._local_value(node) if t == "identifier" else None
            if local is not None:
                self._template(local, parts, depth + 1)
                return
            ref = self.name_ref(node)
            parts.append(("ref", ref) if ref is not None else ("hole", self.flat(node)))

    def config_read(self, node: Node) -> str | None:
        """The ``ref`` a ``ConfigService`` read stands for: ``configService.get("kafka.topic")`` /
        ``get<string>(...)`` / ``getOrThrow(...)`` with a literal key reads the configuration key
        ``config:kafka.topic`` (:data:`~indexer.symbols.CONFIG_KEY`: a ``registerAs("kafka", ...)``
        namespace's value), a key without a dot (``get("KAFKA_TOPIC")``) the environment variable
        ``process.env.KAFKA_TOPIC``, which is what ``@nestjs/config`` reads then (the package's ``.env``
        files). The receiver is a name or property whose last name holds ``config`` (any case); a default
        argument is not read. ``None`` for any other call."""
        fn = node.child_by_field_name("function")
        if fn is None or fn.type != "member_expression":
            return None
        prop, obj = fn.child_by_field_name("property"), fn.child_by_field_name("object")
        if prop is None or obj is None or self.text(prop) not in _CONFIG_GETTERS:
            return None
        last = obj.child_by_field_name("property") if obj.type == "member_expression" else obj
        if last is None or last.type not in ("identifier", "property_identifier") \
                or not _CONFIG_RECEIVER.search(self.text(last)):
            return None
        args = arguments(node.child_by_field_name("arguments"))
        key = self.string(args[0]) if args and args[0].type == "string" and len(args) <= 2 else None
        if not key:
            return None
        return (CONFIG_KEY if "." in key else "process.env.") + key

    def _call_piece(self, node: Node, depth: int) -> tuple[str, str]:
        """A call in a string: a ``ref`` to the call (:func:`~indexer.string_templates.call_ref`) when its callee
        is a name or property chain (:meth:`name_ref`) and it passes 1 to :data:`MAX_CALL_ARGUMENTS` plain
        arguments, each a string or name, not itself holding a call (``this.config.getEndpointFor('api/x')``:
        the linker folds it when the callee is the application's :class:`~indexer.model.UrlBuilder`); a
        ``hole`` otherwise."""
        callee = node.child_by_field_name("function")
        args = arguments(node.child_by_field_name("arguments"))
        name = self.name_ref(callee) if callee is not None and callee.type in ("identifier", "member_expression") \
            else None
        if name is None or not 1 <= len(args) <= MAX_CALL_ARGUMENTS:
            return ("hole", self.flat(node))
        built: list[Template | None] = []
        for a in args:
            inner = unwrap(a) or a
            if inner.type not in _JOINABLE or inner.type == "ternary_expression":
                built.append(None)
                continue
            sub: list[tuple[str, str]] = []
            self._template(inner, sub, depth + 1)
            if any(k == "ref" and is_call_ref(x) for k, x in sub):
                return ("hole", self.flat(node))  # one level: a call of a call is unknown
            built.append(Template(merge_parts(sub)))
        if all(b is None for b in built):
            return ("hole", self.flat(node))  # nothing of a string passed
        return ("ref", call_ref(name, built))

    def _chose(self) -> bool:
        """Whether this run of :meth:`template` chooses at choice points (under :meth:`alternatives`);
        counts the choice point met, so that a template meeting none is kept (:meth:`template`)."""
        self._choices += 1
        return self._choice is not None

    def local_value(self, ident: Node) -> Node | None:
        """The initialiser of the local variable the identifier ``ident`` names (:meth:`_local_value`:
        not reassigned, declared before the use in a block around it), whatever its kind (an object
        literal too); ``None`` for a module-level name, a parameter or a local changed after."""
        return self._local_value(ident) if ident.type == "identifier" else None

    def module_values(self, name: str) -> list[Node | None]:
        """The initialisers of the program-level ``const`` / ``let`` / ``var`` declarators of ``name``
        (exported or not), in file order (``None`` for a declarator without one); ``[]`` when none."""
        if self._module_values is None:  # one pass over the program, not one per name asked (a file of
            # 16,000 `app.listen(PORT)` asked it 16,000 times: 26 s)
            self._module_values = {}
            for stmt in self.root.named_children:
                decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
                if decl is None or decl.type not in ("lexical_declaration", "variable_declaration"):
                    continue
                for d in decl.named_children:
                    if d.type == "variable_declarator":
                        self._module_values.setdefault(self.text(d.child_by_field_name("name")), []).append(
                            d.child_by_field_name("value"))
        return list(self._module_values.get(name, ()))

    def _local_value(self, ident: Node) -> Node | None:
        """The initialiser of the local variable an identifier names inside a function (``const url =
        base + "/x"; fetch(url)``): the last declarator of that name in an enclosing block, written
        before the use, when no assignment in that block changes it and no function in between has a
        parameter of that name. Module-level names are left to :class:`StringConstant` (``None``)."""
        name = self.text(ident)
        pos = ident.start_byte
        scopes = self._scopes
        if not scopes.declared(name):
            return None  # declared nowhere in the file: no block below has a declarator of it
        for n in base.around(self.root, ident):
            if n.type == "program":
                break
            if n.type in FUNCTION_NODES:
                params = n.child_by_field_name("parameters") or n.child_by_field_name("parameter")
                if params is not None and scopes.parameter_word(params, n, name):
                    return None  # shadowed by a parameter
            elif n.type == "statement_block":
                found = scopes.declarator_before(n, name, pos)
                if found is not None:
                    value = found.child_by_field_name("value")
                    if not scopes.reassigned(n, name):
                        return value
                    return self._assigned_value(n, found, name, pos) if self._chose() else None
        return None

    def _assigned_value(self, block: Node, declarator: Node, name: str, pos: int) -> Node | None:
        """Under :meth:`alternatives`, one of the values a local declared in ``block`` may hold at ``pos``
        (``let url; if (abs) url = path; else url = base + path;``): its initialiser and each ``name =
        value`` before ``pos`` outside nested functions, one per run; a plain assignment that is a
        statement of ``block`` itself replaces the values before it. ``None`` when ``+=`` / ``++``
        changes it."""
        values: list[Node] = []
        init = declarator.child_by_field_name("value")
        if init is not None:
            values.append(init)
        stack = [c for c in block.named_children if c.start_byte >= declarator.end_byte and c.start_byte < pos]
        stack.reverse()
        while stack:
            n = stack.pop()
            if n.type in FUNCTION_NODES:
                continue
            if n.type in ("augmented_assignment_expression", "update_expression") and name in self.text(n):
                left = n.child_by_field_name("left") or n.child_by_field_name("argument")
                if left is not None and self.text(left) == name:
                    return None
            if n.type == "assignment_expression" and n.end_byte <= pos:
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                if left is not None and right is not None and left.type == "identifier" and self.text(left) == name:
                    if n.parent is not None and n.parent.type == "expression_statement" and n.parent.parent == block:
                        values.clear()  # straight-line: replaces what came before
                    values.append(right)
            stack.extend(reversed(n.named_children))
        if not values or len(values) > MAX_ALTERNATIVES or any((unwrap(v) or v).type not in _JOINABLE for v in values):
            return None  # one value computed (`url.toString()`): the local may be anything
        for v in values[:-1]:  # one per run, as the branches of `c ? a : b`
            k = self._choice.get(v.id) if self._choice is not None else 0
            if k is None:
                self._met.append((v.id, 2))
                k = 0
            if k == 0:
                return v
        return values[-1]

    def parameters(self, node: Node) -> frozenset[str]:
        """The parameter names of the function around ``node`` (``path``, ``method`` in ``send(path: string,
        method = "GET", { body })``; a destructured one's names too): what a call there may hand on as a
        layer of a client (:mod:`indexer.frameworks.client_chains`). Empty at module level."""
        fn = self.function_around(node)
        if fn is None:
            return frozenset()
        found = self._parameters.get(fn.id)
        if found is None:
            found = self._parameters[fn.id] = self._parameter_names(fn)
        return found

    def function_around(self, node: Node) -> Node | None:
        """The innermost function node (:data:`FUNCTION_NODES`) holding ``node``; ``None`` at module level
        (:class:`~indexer.languages.base.Innermost`: linear along a chain)."""
        return self._functions.of(node)

    def _parameter_names(self, n: Node) -> frozenset[str]:
        """The names :meth:`parameters` gives for the function node ``n``."""
        params = n.child_by_field_name("parameters") or n.child_by_field_name("parameter")
        if params is None:
            return frozenset()
        if params.type == "identifier":  # `path => ...`
            return frozenset({self.text(params)})
        names: set[str] = set()
        stack = list(params.named_children)
        while stack:
            p = stack.pop()
            if p.type in ("identifier", "shorthand_property_identifier_pattern"):
                names.add(self.text(p))
            elif p.type in ("required_parameter", "optional_parameter"):
                stack.extend(x for x in (p.child_by_field_name("pattern"),) if x is not None)
            elif p.type in ("assignment_pattern", "object_assignment_pattern"):
                stack.extend(x for x in (p.child_by_field_name("left"),) if x is not None)
            elif p.type in ("object_pattern", "array_pattern", "rest_pattern", "pair_pattern"):
                stack.extend(p.child_by_field_name("value") and [p.child_by_field_name("value")] or
                             [c for c in p.named_children if c.type != "property_identifier"])
        return frozenset(names)

    def parameter_defaults(self, node: Node) -> tuple[tuple[str, str], ...]:
        """``(name, text)`` of each parameter of the function around ``node`` whose default is a string
        literal (``get(resource, slug = "")``), and of each name a destructured object parameter binds
        with one (``({ url, method = "POST" }) => ...``, ``{ verb: v = "PUT" }``: ``("method", "POST")``,
        ``("v", "PUT")``): what the name holds when a call leaves it out."""
        n = self.function_around(node)
        params = n.child_by_field_name("parameters") if n is not None else None
        out: list[tuple[str, str]] = []
        for p in params.named_children if params is not None else ():
            if p.type == "assignment_pattern":
                name, value = p.child_by_field_name("left"), p.child_by_field_name("right")
            elif p.type in ("required_parameter", "optional_parameter"):
                name, value = p.child_by_field_name("pattern"), p.child_by_field_name("value")
            else:
                name, value = p, None
            if name is not None and name.type == "object_pattern":
                out += self._pattern_defaults(name)
                continue
            text = self.string(value) if value is not None and value.type == "string" else None
            if name is not None and name.type == "identifier" and text is not None:
                out.append((self.text(name), text))
        return tuple(out)

    def _pattern_defaults(self, pattern: Node) -> list[tuple[str, str]]:
        """``(local, text)`` of each name of the object pattern ``pattern`` whose default is a string
        literal (``{ method = "GET" }``, ``{ verb: v = "GET" }``); nested patterns are not read."""
        out: list[tuple[str, str]] = []
        for c in pattern.named_children:
            if c.type == "object_assignment_pattern":
                name, value = c.child_by_field_name("left"), c.child_by_field_name("right")
            elif c.type == "pair_pattern" and (v := c.child_by_field_name("value")) is not None \
                    and v.type == "assignment_pattern":
                name, value = v.child_by_field_name("left"), v.child_by_field_name("right")
            else:
                continue
            text = self.string(value) if value is not None and value.type == "string" else None
            if name is not None and name.type in ("identifier", "shorthand_property_identifier_pattern") \
                    and text is not None:
                out.append((self.text(name), text))
        return out

    def _operator(self, node: Node) -> str:
        op = node.child_by_field_name("operator")
        return op.type if op is not None else ""

    def _env_default(self, node: Node) -> bool:
        """``process.env.X || "/api"``: an environment variable with a literal default; or an option with a
        default, ``options.baseUrl || "/api"`` / ``opts.base ?? this.base`` (a property of a parameter of the
        function around it, the default what a caller not giving the option gets)."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return False
        left = unwrap(left) or left
        obj = left.child_by_field_name("object") if left.type == "member_expression" else None
        if obj is not None and obj.type == "identifier" and self.text(obj) in self.parameters(node):
            return right.type in ("string", "template_string", "member_expression", "identifier", "binary_expression")
        return self.string(right) is not None and self.receiver(left).startswith(_ENV_HEADS)

    def object_pairs(self, node: Node | None) -> dict[str, Node]:
        """``{a: 1, "b": x, c}`` -> ``{"a": <1>, "b": <x>, "c": <c>}`` (a shorthand property's value is
        its identifier); ``{}`` when ``node`` is not an object literal."""
        node = unwrap(node)
        if node is None or node.type != "object":
            return {}
        out: dict[str, Node] = {}
        for c in node.named_children:
            if c.type == "pair":
                key, value = c.child_by_field_name("key"), c.child_by_field_name("value")
                if key is None or value is None:
                    continue
                k = self.string(key) if key.type == "string" else self.text(key)
                if k is not None:
                    out[k] = value
            elif c.type == "shorthand_property_identifier":
                out[self.text(c)] = c
        return out


def unwrap(node: Node | None) -> Node | None:
    """The expression inside parentheses, ``as`` / ``satisfies`` casts and ``!``."""
    for _ in range(_MAX_DEPTH):
        if node is None or node.type not in _WRAPPERS or not node.named_children:
            return node
        node = node.named_children[0]
    return node


def enclosing_class(node: Node, src: SourceText) -> str | None:
    """The name of the class declaration whose body holds ``node`` (its nearest enclosing class);
    ``None`` outside any class or for an anonymous class expression."""
    cur = node.parent
    while cur is not None:
        if cur.type in ("class_declaration", "class"):
            name = cur.child_by_field_name("name")
            return src.text(name) if name is not None else None
        cur = cur.parent
    return None


def arguments(args: Node | None) -> list[Node]:
    """The argument expressions of an ``arguments`` node (comments left out)."""
    if args is None:
        return []
    return [a for a in args.named_children if a.type != "comment"]


def _unescape(text: str) -> str:
    """JavaScript string escapes decoded (``\\n``, ``\\x41``, ``\\u{1F600}``, line continuations)."""
    if "\\" not in text:
        return text

    def one(m: re.Match[str]) -> str:
        s = m.group(1)
        if s[0] == "u" and len(s) > 1:
            hexa = s[2:-1] if s[1] == "{" else s[1:]
            try:
                return chr(int(hexa, 16))
            except (ValueError, OverflowError):
                return s
        if s[0] == "x" and len(s) == 3:
            return chr(int(s[1:], 16))
        if s in ("\n", "\r\n", "\r", "\u2028", "\u2029"):
            return ""
        return _ESCAPES.get(s, s)

    return base.storable(_ESCAPE.sub(one, text))
