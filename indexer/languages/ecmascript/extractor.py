"""Extraction shared by the TypeScript and JavaScript extractors.

The tree-sitter grammars for TypeScript, TSX and JavaScript name their nodes alike, so one assembler
serves all three; what differs is data. Rules valid in both grammars live once in
``indexer/languages/ecmascript/queries/`` (``definitions``, ``calls``, ``imports``, ``exports``); each dialect
adds its own in ``indexer/languages/ecmascript/queries/<folder>/`` (``bindings`` for both; TypeScript's interfaces, enums,
abstract members, ``import x = require()``, ``export =`` and ``type_uses``; JavaScript's class
fields). The queries select the records; this module turns their captures into :mod:`indexer.model`
records.

Speed: the query files of a language are compiled once (cached) as *one* query -- the files stay
separate as data, a pattern's byte offset tells which file it came from -- so a file's tree is
traversed once instead of once per file: about 3.5x less time in the query engine on the zod
sources. (This is why :func:`base.query`, which compiles one file, is not used here.)

Python looks at the tree itself only where a query cannot express the rule, each place saying so:

* the enclosing definition of a node (qualnames, ``CallSite.caller``, ``Binding.scope``,
  ``TypeUse.owner``): "innermost enclosing match" is not a query predicate. Definitions are kept as
  nested byte ranges (:class:`ScopeIndex`) and looked up by bisection rather than by walking parents;
* a definition's details (parameters, modifiers, decorators, signature, bases) are read from the
  matched node's own fields and children; its JSDoc and, in TypeScript, a class member's decorators
  from the siblings before it (the grammar puts them there);
* receiver texts are normalised recursively (``a.b<T>().c`` -> ``a.b().c``).

Functions assigned to a property (CommonJS / prototype style, at any level) are definitions too:
``X.prototype.m = function () {}`` is the method ``X.m`` and ``obj.m = function () {}`` the function
``obj.m``; their ``parent`` is the owner's qualname (``X``, ``obj``), whether or not the file defines
it, so ``qualname == parent + "." + name`` holds and the name never lands among the top-level names.
The functions of an object literal bound to a name follow the same rule: ``const api = { list: () =>
..., get() {} }`` defines ``api.list`` and ``api.get`` (parent ``api``); so do those of a literal a
function definition returns (a factory: ``const F = () => ({ get() {} })``, ``return { get() {} }``)
under the object ``F.return`` (``F.return.get``, parent ``F.return``; ``returned_objects.py`` binds
that object; a literal an anonymous callback or a generator returns stays its enclosing definition's).
The owner is the innermost visible definition of that name, else the name under the enclosing
definition. ``exports.m = ...`` / ``module.exports.m = ...`` define the top-level, exported ``m``
(with ``Export("m", local="m")`` from exports.scm). Calls in their bodies have them as caller.
The name of an object literal of definitions is bound ``object`` (``Binding.how``) in its scope.
What is no definition but names one is a binding: a prototype's member bound to a named function
and a constructor's prototype chain (``prototypes.py``), an object literal's property naming a
function (``objects.py``).

Values handed functions (``values.scm``): a module-level ``const X = call(...)`` (``let`` / ``var``,
``export`` too), a property ``key: call(...)`` of a module-level ``const X = {...}``, and of
``module.exports = {...}``, whose call hands over at least one function is a callable definition
``X`` / ``X.key`` (parent ``X``) / the exported ``key`` (kind ``function``, spanning the declaration
or the property) with a :class:`~indexer.model.CallSite` (arity -1: the library calls it) to each
handed name; its scope is the value expression, so the calls written in it (the library call, an
inline function's body) are its own, while the name and a declared type stay the module's.
``auth = { required: jwt({ getToken }) }`` used as route middleware then runs ``getToken``.
What counts as handing a function, decided in this file: an argument (or a value of an object
literal / array / nested call's argument, at most :data:`MAX_VALUE_DEPTH` levels below the
argument list) that is a module-level function of the file (``f``, ``api.list``), a name imported
(plain or dotted: the resolver decides whether the call binds), or an inline arrow, function
expression or object method. The callee must be a plain or dotted name (a builder chain
``Router().use(r)`` builds an object) and no method of module-level data (``nums.map(f)`` of
``const nums = [1, 2]`` yields an array); ``require`` is an import. A name the file already defines
(TypeScript's ``interface X`` merged with ``const X = ...``) is left alone. Nothing else changes:
``const router = express.Router()``, ``const x = foo(1, "a")``, a call in a function body.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import PurePosixPath

from tree_sitter import Node, Query

from indexer.frameworks import run_detectors
from indexer.languages.ecmascript.arguments import handed_arguments
from indexer.languages.ecmascript.bindings import binding_records, type_use_records
from indexer.languages.ecmascript.frameworks import detectors_for
from indexer.languages.ecmascript.containers import container_calls
from indexer.languages.ecmascript.imports import export_records, import_records
from indexer.languages.ecmascript.objects import object_properties
from indexer.languages.ecmascript.prototypes import prototypes
from indexer.languages.ecmascript.reads import member_reads
from indexer.languages.ecmascript.returned_objects import (GENERATORS, RETURNED, destructured, destructured_names,
                                                            exported_results, returned_objects)
from indexer.languages.ecmascript.returns import factories, returned_refs
from indexer.languages.ecmascript.assignments import function_of
from indexer.languages.ecmascript.elements import element_bindings
from indexer.languages.ecmascript.syntax import (
    arity,
    awaited,
    bindable,
    decorator_name,
    decorators_of,
    is_exported,
    leading_decorators,
    literal_data,
    object_pattern_fields,
    own_decorator_ranges,
    plain_name,
    single_declarator,
    statement_of,
)
from indexer.languages.ecmascript.frameworks.common import unwrap
from indexer.languages.ecmascript.scope_index import Scope, ScopeIndex
from indexer.languages import base
from indexer.model import (
    LONG_CHAIN,
    LONG_RECEIVER,
    MAX_RECEIVER_LINKS,
    Binding,
    CallSite,
    Definition,
    Export,
    FileExtraction,
    Injection,
    Param,
    base_type,
)

__all__ = ["EcmaScriptExtractor"]

# Class decorators whose constructor parameters are injected (Angular, NestJS, TypeDI, type-graphql).
_INJECTING_DECORATORS = frozenset({"Injectable", "Controller", "Component", "Service", "Resolver"})
# Keyword tokens kept as modifiers when they are children of a definition node.
_MODIFIER_TOKENS = frozenset({"static", "async", "get", "set", "readonly", "abstract", "declare"})
# What makes a constructor parameter a parameter property (a field of the class).
_PARAMETER_PROPERTY_MARKERS = frozenset({"accessibility_modifier", "override_modifier", "readonly"})
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "generator_function"})
_CALLBACK_THIS = "function.this"
"""Receiver text of ``this`` (``this.x``: ``function.this.x``) inside an anonymous ``function``
callback, whose ``this`` is not the enclosing class's: no name binds it (``function`` is reserved)."""
# How deep below a module-level value's argument list a handed function is still seen: one object,
# array or nested call (`jwt({ getToken: f })`, `compose(a, b(c))`) and one more inside it
# (`compose(cors({ origin: check }))`); deeper, the value is taken to build data, not a function.
MAX_VALUE_DEPTH = 2
# Nodes between a module-level definition and the program (`export const f = ...`, `const api = {...}`).
_MODULE_LEVEL_HOLDERS = frozenset(
    {"export_statement", "lexical_declaration", "variable_declaration", "variable_declarator", "object",
     "pair", "expression_statement", "assignment_expression"}
)
_KIND_CAPTURES = ("class", "interface", "enum", "function", "method", "field")
_TYPE_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
"""A type named by a (dotted) name alone: ``Ctx``, ``ns.Ctx``."""
_WS = re.compile(r"\s+")
_OBJECT_READS = {"Object.values": "$values", "Object.entries": "$entries"}
"""``Object.values(x)`` / ``Object.entries(x)`` in a receiver: written ``x.$values()`` / ``x.$entries()``."""


def _object_call(fn: Node | None) -> bool:
    """Whether the called ``fn`` is a member of the identifier ``Object`` (``Object.values``): only then
    is its text read for :data:`_OBJECT_READS`. The text of a call's function is the whole chain below
    it (``a.pipe(f)...pipe(f)``): read at every link of every call, a chain of 3,000 calls cost 30 s."""
    if fn is None or fn.type != "member_expression":
        return False
    obj = fn.child_by_field_name("object")
    return obj is not None and obj.type == "identifier" and obj.end_byte - obj.start_byte == 6
_JSDOC_LINE = re.compile(r"^\s*\*? ?")


def _combined_query(grammar: str, folder: str, names: tuple[str, ...]) -> tuple[Query, tuple[str, ...]]:
    """The query files ``names`` compiled as one query, and each pattern's file name: each name reads
    ``ecmascript/queries/<name>.scm`` (rules valid in both grammars) and then
    ``<folder>/<name>.scm`` (the dialect's own), whichever exist."""
    return base.combined_query(grammar, (_SHARED_FOLDER, folder), names)


_SHARED_FOLDER = "ecmascript/queries"


class EcmaScriptExtractor:
    """An :class:`~indexer.languages.base.Extractor` for one ECMAScript dialect.

    ``folder`` names the query folder; ``grammars`` maps a file suffix to its tree-sitter grammar
    (``.tsx`` -> ``tsx``), ``default_grammar`` serves every other suffix; ``typed`` enables the
    TypeScript-only ``type_uses`` query.
    """

    def __init__(
        self,
        language: str,
        extensions: tuple[str, ...],
        folder: str,
        default_grammar: str,
        grammars: dict[str, str] | None = None,
        typed: bool = False,
    ) -> None:
        self.language = language
        self.extensions = extensions
        self.folder = folder
        self.default_grammar = default_grammar
        self.grammars = dict(grammars or {})
        self.typed = typed
        names = ("definitions", "values", "calls", "imports", "exports", "bindings", "value_reads", "returns",
                 "prototypes", "objects", "containers", "elements")
        self.query_names = (*names, "type_uses") if typed else names

    def grammar_for(self, path: str) -> str:
        """The tree-sitter grammar that parses ``path``."""
        return self.grammars.get(PurePosixPath(path).suffix.lower(), self.default_grammar)

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """Extract one file. Syntax errors go to ``errors``; this never raises on bad source."""
        result = FileExtraction(path=path, language=self.language)
        grammar = self.grammar_for(path)
        with base.kept_on_failure(result):
            fr = _FileRun(self, grammar, source, result)
            fr.run()
            run_detectors(detectors_for(self.language), fr.root, fr.src, result)
        return result


class _FileRun:
    """The extraction of one file: parse once, run the combined query once, assemble into ``out``."""

    def __init__(self, ex: EcmaScriptExtractor, grammar: str, source: bytes, out: FileExtraction) -> None:
        self.ex = ex
        self.grammar = grammar
        self.src = base.SourceText(source)
        self.out = out
        self.root = base.parser(grammar).parse(source).root_node
        self.index = ScopeIndex()
        self.def_ids: set[int] = set()  # ids of the nodes the definitions query matched
        self.objects: set[tuple[str | None, str]] = set()  # (scope, name) bound as `object`
        self.value_ids: set[int] = set()  # ids of the declarators of values made definitions (values.scm)
        self.qualnames: set[str] = set()  # qualnames defined so far (owners of assigned functions)
        self.injecting_classes: set[str] = set()
        self.type_params: set[str] = set()  # TypeScript type parameter names: never bound, never used
        self.fn_defs: dict[int, Definition] = {}  # function node id -> its callable definition (returns.py)
        self.factories: set[str] = set()  # module-level functions returning a function uncalled (returns.py)

    # -- driver -----------------------------------------------------------------------------------

    def run(self) -> None:
        self.out.errors.extend(base.parse_errors(self.root, self.src))
        q, sections = _combined_query(self.grammar, self.ex.folder, self.ex.query_names)
        matches: dict[str, list[dict[str, list[Node]]]] = {name: [] for name in self.ex.query_names}
        for pattern, caps in base.run_query(q, self.root):
            matches[sections[pattern]].append(caps)
        import_records(self, matches["imports"])  # before definitions: an imported name may be a handed function
        self.factories = factories(self, matches["returns"])  # `const g = f(h)` of these: no value definition
        self._definitions(matches["definitions"], matches["values"])  # everything else is placed in them
        self._calls(matches["calls"])
        container_calls(self, matches["containers"])  # `f[1]()`, `m.get("b")()`, `q.shift()()` (containers.py)
        member_reads(self, matches["value_reads"], self._own_this,  # getters run (ecmascript/reads.py)
                     destructured_names(self, matches["objects"]))
        returned_refs(self, matches["returns"], self.fn_defs)  # functions returned uncalled (returns.py)
        export_records(self, matches["exports"])
        binding_records(self, matches["bindings"])
        prototypes(self, matches["prototypes"])  # what constructor functions' instances inherit
        object_properties(self, matches["objects"])  # `const o = { b: foo }`: o.b() calls foo
        returned_objects(self, matches["returns"])  # `return { a, b: foo }` (returned_objects.py)
        exported_results(self, matches["exports"])  # `export default F()`: F's returned object
        destructured(self, matches["objects"])  # `const { a } = f()`: a is f().a
        if self.ex.typed:
            type_use_records(self, matches["type_uses"])
            if self.type_params:
                self.out.bindings = [
                    b for b in self.out.bindings if b.how != "declared" or b.type not in self.type_params
                ]
        element_bindings(self, matches["elements"])  # `for (const u of users)`, `users.map(u => ...)`

    # -- helpers ----------------------------------------------------------------------------------

    def text(self, node: Node | None) -> str:
        return self.src.text(node)

    def flat(self, node: Node | None) -> str:
        """The node's text with whitespace runs collapsed to one space."""
        return _WS.sub(" ", self.text(node)).strip()

    def scope_of(self, node: Node) -> Scope | None:
        """The innermost definition around ``node``'s start (a definition added later: not itself)."""
        i = self.index.find(node.start_byte)
        return self.index.scopes[i] if i >= 0 else None

    def code_scope(self, node: Node) -> str | None:
        """Caller / binding scope of code at ``node``: a field initialiser's code is its class's."""
        scope = self.scope_of(node)
        return scope.code_scope if scope else None

    def decorator_text(self, decorator: Node) -> str:
        """``@Get(":id")`` -> ``Get(":id")`` (whitespace collapsed)."""
        return self.flat(decorator).lstrip("@").strip()

    def type_text(self, annotation: Node | None) -> str | None:
        """``: Foo<Bar>`` -> ``Foo<Bar>`` (the annotation as written, whitespace collapsed)."""
        if annotation is None:
            return None
        inner = annotation.named_children
        return self.flat(inner[0] if len(inner) == 1 else annotation).lstrip(":").strip() or None

    # -- definitions ------------------------------------------------------------------------------

    def _definitions(self, matches: list[dict[str, list[Node]]], values: list[dict[str, list[Node]]]) -> None:
        found: list[tuple[Node, str, dict[str, list[Node]]]] = []
        for caps in matches:
            kind = next(k for k in _KIND_CAPTURES if k in caps)
            found.append((caps[kind][0], kind, caps))
        found.extend(self._values(values, found))
        # Parents before children, so that a definition's scope is known when its members come.
        found.sort(key=lambda f: (f[0].start_byte, -f[0].end_byte))
        for node, kind, caps in found:
            if node.id not in self.def_ids:
                self.def_ids.add(node.id)
                if kind == "value":
                    self.value_ids.add(node.id)
                    self._value_definition(node, caps)
                elif "_named_expression" in caps and not self._own_named_expression(node, caps["name"][0]):
                    continue
                else:
                    self._definition(node, kind, caps)

    def _own_named_expression(self, fn: Node, name: Node) -> bool:
        """Whether the named function expression ``fn`` (``return function inner() {}``) is a
        definition of its own: it is written inside a definition (at module level its name would
        become one of the file's top-level names, which JavaScript does not bind: express's
        ``defineGetter(req, 'hostname', function hostname() {})`` beside a local ``var hostname``),
        no definition made so far holds it as its function (``const f = function g() {}`` is ``f``),
        and the file gives its qualname no other meaning: no import of the name, no other definition
        of that qualname."""
        scope = self.scope_of(fn)
        if fn.id in self.fn_defs or scope is None:
            return False
        text = self.text(name)
        if any(i.local == text for i in self.out.imports):
            return False
        return f"{scope.qualname}.{text}" not in self.qualnames

    def _definition(self, node: Node, kind: str, caps: dict[str, list[Node]]) -> None:
        """Emit the definition matched at ``node`` (its ``kind`` capture) and register its scope."""
        parent_index = self.index.find(node.start_byte)
        if node.type == "assignment_expression" and node.parent is not None and node.parent.type == node.type \
                and parent_index >= 0 and self.index.starts[parent_index] == node.parent.start_byte:
            parent_index = self.index.parents[parent_index]  # `res.header` of `res.set = res.header = f`: a sibling
        parent = self.index.scopes[parent_index] if parent_index >= 0 else None
        name_node = caps["name"][0] if "name" in caps else None
        name = self.text(name_node) if name_node is not None else "default"
        parent_qualname = parent.qualname if parent else None
        fn = node  # the node holding parameters / body / return type
        if node.type == "assignment_expression":  # `X.prototype.m = ...`, `obj.m = ...`, `exports.m = ...`
            fn = node.child_by_field_name("right") or node
            if fn.type == "assignment_expression":  # `res.set = res.header = function () {}`: the function
                fn = fn.child_by_field_name("right") or fn
            owner = caps.get("owner")
            parent_qualname = self._owner_qualname(self.text(owner[0]), parent_index) if owner else None
        elif node.type in ("pair", "method_definition") and ("exports" in caps or "_bundle" in caps):  # `module.exports = { f() {} }`, `({ f() {} })`
            fn = (node.child_by_field_name("value") if node.type == "pair" else node) or node
            parent_qualname = None
        elif "_default_object" in caps:  # `export default { get() {} }`: default.get, of the object `default`
            if self.out.path.endswith(".vue"):  # a Vue component's options: its methods (vue.py)
                return
            fn = (node.child_by_field_name("value") if node.type == "pair" else node) or node
            parent_qualname = self.text(caps["_default_object"][0])
            self._object_binding(caps["_default_object"][0], None)
        elif "_returned" in caps:  # `const F = () => ({ get() {} })`: F.return.get (returned_objects.py)
            returner = caps["_returned"][0]
            owner_fn = returner if returner.type == "arrow_function" else function_of(returner)
            made = self.fn_defs.get(owner_fn.id) if owner_fn is not None else None
            if made is None or owner_fn.type in GENERATORS:  # no definition returns it: calls stay the enclosing one's
                return
            fn = (node.child_by_field_name("value") if node.type == "pair" else node) or node
            parent_qualname = f"{made.qualname}.{RETURNED}"
        elif node.type in ("pair", "method_definition") and "owner" in caps:  # `const api = { list: () => ... }`
            fn = node.child_by_field_name("value") if node.type == "pair" else node
            fn = fn or node
            parent_qualname = self._owner_qualname(self.text(caps["owner"][0]), parent_index)
            if "_prototype" not in caps:  # `X.prototype = { m() {} }`: X is the constructor, no object
                self._object_binding(caps["owner"][0], parent)
        elif node.type in ("variable_declarator", "public_field_definition", "field_definition"):
            value = node.child_by_field_name("value")
            if value is not None and value.type in _FUNCTION_VALUES:
                fn = value
                if kind == "field":
                    kind = "method"
        if kind == "method" and name == "constructor" and node.type == "method_definition" and "_prototype" not in caps:
            kind = "constructor"
        qualname = f"{parent_qualname}.{name}" if parent_qualname else name
        outer = statement_of(node)
        member_decorators = leading_decorators(node)
        start = member_decorators[0] if member_decorators else outer
        decorators = [self.decorator_text(x) for x in (*member_decorators, *decorators_of(outer, node))]

        d = Definition(
            kind=kind,
            name=name,
            qualname=qualname,
            parent=parent_qualname,
            start_line=self.src.line(start),
            start_col=self.src.col(start),
            end_line=outer.end_point[0] + 1,
            end_col=self.src.end_col(outer),
            name_line=self.src.line(name_node or node),
            name_col=self.src.col(name_node or node),
            signature=self._signature(node, fn),
            modifiers=self._modifiers(node, fn, kind),
            decorators=decorators,
            docstring=self._jsdoc(start),
            exported=is_exported(node) or "exports" in caps,
        )
        if node.type in ("internal_module", "module"):  # a TypeScript namespace (queries/typescript)
            d.modifiers.append("namespace")
        if kind in ("class", "interface", "enum"):
            self._heritage(node, d)
            class_qualname: str | None = qualname
            if any(decorator_name(x) in _INJECTING_DECORATORS for x in decorators):
                self.injecting_classes.add(qualname)
        elif "_prototype" in caps:  # `this` in `X.prototype.m` is an X
            class_qualname = parent_qualname
        else:
            class_qualname = parent.class_qualname if parent else None
        code_scope = parent.code_scope if (kind == "field" and parent) else qualname
        scope = Scope(qualname, kind, code_scope, class_qualname)
        self.index.add(node, scope, parent_index, own_decorator_ranges(node, fn))
        self.qualnames.add(qualname)
        self.out.definitions.append(d)
        # `res.set = res.header = function header() {}`: the body is res.header's; calling res.set runs it
        inner = node.child_by_field_name("right") if node.type == "assignment_expression" else None
        target = inner.child_by_field_name("left") if inner is not None and inner.type == node.type else None
        if target is not None and target.type == "member_expression":
            prop, obj = target.child_by_field_name("property"), target.child_by_field_name("object")
            receiver = "this" if "owner" in caps and self.text(obj) == self.text(caps["owner"][0]) else self.text(obj)
            self.out.calls.append(CallSite(qualname, self.text(prop), receiver, -1, self.src.line(prop), self.src.col(prop)))

        if kind == "field":
            d.field_type = self.type_text(node.child_by_field_name("type"))
            if parent is not None and parent.kind == "class":
                self._field_bindings(parent.qualname, name, d.field_type, node)
        elif kind in ("function", "method", "constructor"):
            self.fn_defs[fn.id] = d
            d.params = self._params(fn, qualname, kind == "constructor", parent)
            d.return_type = awaited(self.type_text(fn.child_by_field_name("return_type")))

    # -- values made by a call that is handed functions ----------------------------------------------

    def _values(
        self, values: list[dict[str, list[Node]]], found: list[tuple[Node, str, dict[str, list[Node]]]]
    ) -> list[tuple[Node, str, dict[str, list[Node]]]]:
        """The module-level values (values.scm) whose call hands over functions, as ``found`` entries
        of kind ``"value"`` (``caps["handed"]``: the name nodes of the handed functions). See the
        module docstring for the rules; ``found`` (the other definitions) says which names of this
        file are functions, the imports (already read) which names are imported."""
        if not values:
            return []
        functions = {q for node, kind, caps in found if kind == "function" and (q := self._module_function(node, caps))}
        imported = {i.local for i in self.out.imports}
        taken = {id(node) for node, _, _ in found}
        data = literal_data(self.root, self.src)
        out: list[tuple[Node, str, dict[str, list[Node]]]] = []
        for caps in values:
            node = caps["value"][0]
            call = unwrap(caps["call"][0])
            if id(node) in taken or call is None or call.type != "call_expression":
                continue
            callee = call.child_by_field_name("function")
            if callee is None or not plain_name(callee) or self.text(callee) == "require":
                continue  # `Router().use(r)`: a builder chain's value is the object built, not a function
            if self.text(callee) in self.factories:
                continue  # `const g = outer(h)`, `outer` returning `function inner() {}`: g is inner
            if callee.type == "member_expression" and self.text(callee).split(".", 1)[0] in data:
                continue  # `arr.map(f)` of `const arr = [1, 2]`: a method of data yields data
            handed: list[Node] = []
            inline = self._handed(call.child_by_field_name("arguments"), 0, functions, imported, handed)
            if handed or inline:
                taken.add(id(node))
                out.append((node, "value", {**caps, "handed": handed}))
        return out

    def _module_function(self, node: Node, caps: dict[str, list[Node]]) -> str | None:
        """The name by which module-level code names the function definition matched at ``node``
        (``f``, ``api.list``, ``obj.m``), or ``None`` when it is not at module level."""
        n = node.parent
        while n is not None and n.type != "program":
            if n.type not in _MODULE_LEVEL_HOLDERS:
                return None
            n = n.parent
        if "name" not in caps:
            return None
        name = self.text(caps["name"][0])
        if "owner" in caps and "_prototype" not in caps:
            return f"{self.text(caps['owner'][0])}.{name}"
        return None if "_prototype" in caps else name

    def _handed(self, node: Node | None, depth: int, functions: set[str], imported: set[str],
                handed: list[Node]) -> bool:
        """Collect into ``handed`` the names of functions found in ``node`` (an argument list or an
        argument), looking through object literals, arrays and nested calls' arguments at most
        :data:`MAX_VALUE_DEPTH` levels below the value's own argument list; return whether an inline
        function (arrow, function expression, object method) was found."""
        node = unwrap(node)
        if node is None:
            return False
        t = node.type
        if t in _FUNCTION_VALUES or t == "method_definition":
            return True
        if t in ("identifier", "shorthand_property_identifier"):
            if self.text(node) in functions or self.text(node) in imported:
                handed.append(node)
            return False
        if t == "member_expression":
            text = self.text(node)
            if plain_name(node) and (text in functions or text.split(".", 1)[0] in imported):
                handed.append(node)
            return False
        inline = False
        if t in ("arguments", "call_expression", "new_expression", "object", "array", "pair"):
            inner = depth
            if t in ("call_expression", "new_expression"):
                node = node.child_by_field_name("arguments")
                inner = depth + 1
            elif t in ("object", "array"):
                inner = depth + 1
            elif t == "pair":
                node = node.child_by_field_name("value")
                return self._handed(node, depth, functions, imported, handed)
            if node is None or inner > MAX_VALUE_DEPTH:
                return False
            for child in node.named_children:
                inline = self._handed(child, inner, functions, imported, handed) or inline
        return inline

    def _value_definition(self, node: Node, caps: dict[str, list[Node]]) -> None:
        """The callable definition of a value made by a call that is handed functions: ``X`` for
        ``const X = call(...)``, ``X.key`` for a property of ``const X = {...}``, the exported ``key``
        for ``module.exports = { key: call(...) }``; a call site (arity unknown) to each handed name."""
        name_node = caps["name"][0]
        name = self.text(name_node)
        parent_qualname = None
        exported = is_exported(node)
        if "owner" in caps:
            parent_qualname = self._owner_qualname(self.text(caps["owner"][0]), -1)
            self._object_binding(caps["owner"][0], None)
        elif "exports" in caps:
            if name in self.qualnames:
                return
            exported = True
            self.out.exports.append(Export(name, local=name))
        qualname = f"{parent_qualname}.{name}" if parent_qualname else name
        if qualname in self.qualnames:
            return
        outer = statement_of(node)
        callee = self.flat(unwrap(caps["call"][0]).child_by_field_name("function"))  # type: ignore[union-attr]
        head = self._signature(node, node) if node.type == "variable_declarator" else f"{name}:"
        self.out.definitions.append(
            Definition(
                kind="function",
                name=name,
                qualname=qualname,
                parent=parent_qualname,
                start_line=self.src.line(outer),
                start_col=self.src.col(outer),
                end_line=outer.end_point[0] + 1,
                end_col=self.src.end_col(outer),
                name_line=self.src.line(name_node),
                name_col=self.src.col(name_node),
                signature=f"{head.removesuffix(':')}: {callee}(...)" if head.endswith(":") else f"{head} = {callee}(...)",
                docstring=self._jsdoc(outer),
                exported=exported,
            )
        )
        # Its scope is the value expression: the name and a declared type stay at module level (a
        # binding `X: T` of the declarator is the module's, as before).
        value = caps["call"][0]
        self.index.add(value, Scope(qualname, "function", qualname, None), self.index.find(value.start_byte), ())
        self.qualnames.add(qualname)
        for h in caps["handed"]:
            if h.type == "member_expression":
                prop, obj = h.child_by_field_name("property"), h.child_by_field_name("object")
                called, receiver = self.text(prop), self.receiver(obj)  # type: ignore[arg-type]
                at = prop
            else:
                called, receiver, at = self.text(h), None, h
            self.out.calls.append(CallSite(qualname, called, receiver, -1, self.src.line(at), self.src.col(at)))

    def bind_object(self, owner: Node) -> None:
        """Bind ``owner`` as an ``object`` in the scope around it, once (:meth:`_object_binding`)."""
        self._object_binding(owner, self.scope_of(owner))

    def _object_binding(self, owner: Node, scope: Scope | None) -> None:
        """Bind ``owner`` (the name of an object literal whose properties are definitions) as an
        ``object`` in the scope around it, once: the resolver's :class:`~indexer.resolve.values.ObjV`."""
        scope_name = scope.code_scope if scope else None
        key = (scope_name, self.text(owner))
        if key not in self.objects:
            self.objects.add(key)
            self.out.bindings.append(Binding(scope_name, key[1], key[1], "object", self.src.line(owner)))

    def owner_qualname(self, owner: Node) -> str:
        """The qualname the name ``owner`` (the ``X`` of ``X.prototype...``) stands for where it is
        written (:meth:`_owner_qualname` from the definition around it)."""
        return self._owner_qualname(self.text(owner), self.index.find(owner.start_byte))

    def _owner_qualname(self, owner: str, scope_index: int) -> str:
        """The qualname of ``owner`` (the ``X`` of ``X.prototype.m = ...`` / ``X.m = ...``) seen from
        scope ``scope_index``: the innermost definition of that name visible there (defined earlier
        in the file), else ``owner`` under the innermost enclosing definition (bare at top level)."""
        i = scope_index
        while i >= 0:
            candidate = f"{self.index.scopes[i].qualname}.{owner}"
            if candidate in self.qualnames:
                return candidate
            i = self.index.parents[i]
        if owner in self.qualnames or scope_index < 0:
            return owner
        return f"{self.index.scopes[scope_index].qualname}.{owner}"

    def _signature(self, node: Node, fn: Node) -> str:
        """The header as written up to the body (decorators and ``export`` left out)."""
        header = node
        if node.type == "variable_declarator" and single_declarator(node):
            header = node.parent  # `const f = () =>`: the keyword is part of the header
        start = next((c for c in header.children if c.type != "decorator"), header)
        body = fn.child_by_field_name("body")
        if body is not None:
            end = body.start_byte
        elif (value := node.child_by_field_name("value")) is not None:
            end = value.start_byte  # a field: `private x: number`, initialiser left out
        else:
            end = header.end_byte
        raw = self.src.data[start.start_byte : end].decode("utf-8", "replace")
        return _WS.sub(" ", raw).strip().rstrip(";=").strip()

    def _modifiers(self, node: Node, fn: Node, kind: str) -> list[str]:
        mods: list[str] = []
        for holder in (node, fn) if fn is not node else (node,):
            for c in holder.children:
                if c.type == "accessibility_modifier":
                    mods.append(self.text(c))
                elif c.type == "override_modifier":
                    mods.append("override")
                elif c.type in _MODIFIER_TOKENS and not c.is_named:
                    mods.append(c.type)
        if node.type == "method_signature" and kind == "method" and "abstract" not in mods:
            mods.append("abstract")  # an interface method is abstract
        if node.type == "abstract_class_declaration" and "abstract" not in mods:
            mods.append("abstract")
        return list(dict.fromkeys(mods))

    def _heritage(self, node: Node, d: Definition) -> None:
        for c in node.named_children:
            if c.type == "class_heritage":
                for clause in c.named_children:
                    if clause.type == "extends_clause":  # TypeScript: value (+ type_arguments)
                        d.bases.extend(self._type_name(v) for v in clause.children_by_field_name("value"))
                    elif clause.type == "implements_clause":
                        d.implements.extend(self._type_name(t) for t in clause.named_children)
                    elif clause.type != "comment":  # JavaScript: `extends <expression>`
                        d.bases.append(self._type_name(clause))
            elif c.type == "extends_type_clause":  # an interface's extends list
                d.bases.extend(self._type_name(t) for t in c.children_by_field_name("type"))

    def _type_name(self, node: Node) -> str:
        text = self.flat(node)
        return base_type(text) or text

    def _params(self, fn: Node, qualname: str, is_ctor: bool, parent: Scope | None) -> list[Param]:
        params_node = fn.child_by_field_name("parameters")
        if params_node is None:
            single = fn.child_by_field_name("parameter")  # `x => ...`
            return [Param(self.text(single))] if single is not None else []
        out: list[Param] = []
        class_qualname = parent.qualname if (is_ctor and parent) else None
        for p in params_node.named_children:
            if p.type in ("comment", "decorator"):
                continue
            pattern, annotation, has_default = p, None, False
            if p.type in ("required_parameter", "optional_parameter"):
                pattern = p.child_by_field_name("pattern") or p
                annotation = p.child_by_field_name("type")
                has_default = p.type == "optional_parameter" or p.child_by_field_name("value") is not None
            elif p.type == "assignment_pattern":  # JavaScript `x = 1`
                pattern, has_default = p.child_by_field_name("left") or p, True
            if pattern.type == "this":
                continue  # TypeScript's `this: Foo` parameter types `this`; it is not passed
            variadic = None
            if pattern.type == "rest_pattern":
                variadic = "*"
                inner = pattern.named_children
                pattern = inner[0] if inner else pattern
            ptype = self.type_text(annotation)
            param = Param(self.flat(pattern), ptype, has_default, variadic, object_pattern_fields(pattern, self.text))
            out.append(param)
            if pattern.type == "object_pattern" and param.fields:
                self._typed_fields(qualname, pattern, ptype, param.fields)
            if pattern.type != "identifier":
                continue
            bound = bindable(ptype)
            line = self.src.line(pattern)
            if bound:
                self.out.bindings.append(Binding(qualname, param.name, bound, "declared", line))
            if class_qualname is None:
                continue
            if any(c.type in _PARAMETER_PROPERTY_MARKERS for c in p.children):
                self._parameter_property(p, pattern, param, class_qualname)
            if class_qualname in self.injecting_classes and bound:
                col = self.src.col(pattern)
                self.out.injections.append(Injection(class_qualname, bound, "constructor", line, col))
        return out

    def _typed_fields(self, qualname: str, pattern: Node, ptype: str | None, fields: tuple[tuple[str, str], ...]) -> None:
        """A destructured parameter with a declared type (``({ dataSources, user: u }: Ctx) => ...``): each name it
        binds is an alias of that member of the type (``dataSources`` -> ``Ctx.dataSources``, ``u`` ->
        ``Ctx.user``), so ``dataSources.launchAPI.getAll()`` resolves as ``ctx.dataSources.launchAPI.getAll()``
        does on a ``ctx: Ctx``. No binding when the type names no one type (a union, an inline object type, an
        array, a generic)."""
        bound = bindable(ptype)
        if not bound or not _TYPE_NAME.fullmatch(bound):
            return
        line = self.src.line(pattern)
        for key, local in fields:
            self.out.bindings.append(Binding(qualname, local, f"{bound}.{key}", "alias", line))

    def _parameter_property(self, p: Node, pattern: Node, param: Param, class_qualname: str) -> None:
        """``constructor(private repo: Repo)`` declares the field ``repo`` of the class."""
        mods = [
            self.text(c) if c.type == "accessibility_modifier" else c.type.removesuffix("_modifier")
            for c in p.children
            if c.type in _PARAMETER_PROPERTY_MARKERS
        ]
        self.out.definitions.append(
            Definition(
                kind="field",
                name=param.name,
                qualname=f"{class_qualname}.{param.name}",
                parent=class_qualname,
                start_line=self.src.line(p),
                start_col=self.src.col(p),
                end_line=p.end_point[0] + 1,
                end_col=self.src.end_col(p),
                name_line=self.src.line(pattern),
                name_col=self.src.col(pattern),
                signature=_WS.sub(" ", self.text(p).split("=", 1)[0]).strip(),
                modifiers=mods,
                field_type=param.type,
            )
        )
        self._field_bindings(class_qualname, param.name, param.type, pattern)

    def _field_bindings(self, class_qualname: str, name: str, ftype: str | None, node: Node) -> None:
        """A typed field is bound as ``this.x`` and ``x`` in its class; one set to ``new X()`` / ``inject(X)`` too."""
        bound, how = bindable(ftype), "declared"
        value = node.child_by_field_name("value") if not bound else None
        if value is not None:
            bound, how = self._field_value_type(value)
        if bound:
            line = self.src.line(node)
            self.out.bindings.append(Binding(class_qualname, f"this.{name}", bound, how, line))
            self.out.bindings.append(Binding(class_qualname, name, bound, how, line))

    def _field_value_type(self, value: Node) -> tuple[str | None, str]:
        """``new X()`` -> (X, constructed); ``inject(X)`` (``@angular/``'s) -> (X, declared); else (None, declared)."""
        if value.type == "new_expression":
            ctor = value.child_by_field_name("constructor")
            if ctor is not None and ctor.type in ("identifier", "member_expression"):
                return _WS.sub("", self.text(ctor)), "constructed"
        elif value.type == "call_expression":
            fn, args = value.child_by_field_name("function"), value.child_by_field_name("arguments")
            if fn is not None and fn.type == "identifier" and args is not None and args.named_child_count >= 1 and any(
                    i.local == self.text(fn) and i.name == "inject" and i.module.startswith("@angular/")
                    for i in self.out.imports):
                first = args.named_children[0]
                if first.type in ("identifier", "member_expression"):
                    return _WS.sub("", self.text(first)), "declared"
        return None, "declared"

    def _jsdoc(self, start: Node) -> str | None:
        """The ``/** ... */`` comment right above a definition (a sibling, so read directly)."""
        prev = start.prev_sibling
        if prev is None or prev.type != "comment" or prev.end_point[0] + 1 < start.start_point[0]:
            return None
        raw = self.text(prev)
        if not raw.startswith("/**"):
            return None
        lines = [_JSDOC_LINE.sub("", ln).rstrip() for ln in raw[3:-2].splitlines()]
        return "\n".join(lines).strip() or None

    # -- calls ------------------------------------------------------------------------------------

    def _own_this(self, node: Node) -> bool:
        """Whether ``this`` at ``node`` is the ``this`` of the definition around it: not when an
        anonymous ``function`` (no arrow, no definition of its own: a callback) lies in between, whose
        ``this`` is whatever its caller binds (the walk out stops at the first function)."""
        around = self._around(node)
        for cur in around:
            if cur.type in ("function_expression", "generator_function"):
                parent = next(around, None)
                return cur.id in self.def_ids or (parent is not None and parent.id in self.def_ids)
            if cur.type in ("method_definition", "function_declaration", "generator_function_declaration",
                            "class_body", "program") or cur.id in self.def_ids:
                return True
        return True

    def _around(self, node: Node) -> Iterator[Node]:
        """The nodes holding ``node``, innermost first (:func:`~indexer.languages.base.around`)."""
        return base.around(self.root, node)

    def _calls(self, matches: list[dict[str, list[Node]]]) -> None:
        calls = self.out.calls
        for caps in matches:
            if "chain" in caps:  # `f()()...()` past the receiver bound: no name to bind, not kept (LONG_CHAIN)
                site = self._chain_call(caps["chain"][0], caps["args"][0], caps["result"][0])
                calls.extend([site] if site.name != LONG_RECEIVER else ())
                self.out.partial = self.out.partial or (LONG_CHAIN if site.name == LONG_RECEIVER else None)
                continue
            name = caps["name"][0]
            receiver = caps.get("receiver")
            args = caps.get("args")
            call = (caps.get("call") or caps.get("result") or caps["new"])[0]
            text = self.receiver(receiver[0]) if receiver else None
            if text is not None and (text == "this" or text.startswith("this.")) and not self._own_this(call):
                text = _CALLBACK_THIS + text[4:]
            calls.append(
                CallSite(
                    caller=self.code_scope(call),
                    name=self.text(name),
                    receiver=text,
                    arity=arity(args[0]) if args else 0,
                    line=self.src.line(name),
                    col=self.src.col(name),
                    is_new="new" in caps,
                    via="result" if "result" in caps else None,
                    handed=handed_arguments(self.src, args[0] if args else None, functools.partial(self._own_this, call)),
                )
            )
        calls.sort(key=lambda c: (c.line, c.col))

    def _chain_call(self, chain: Node, args: Node, call: Node) -> CallSite:
        """``f()()(x)``: a ``via="result"`` site calling what the result of ``chain`` (``f()``, whose
        own result is called) returns, named by ``chain``'s normalised text (``f()``, ``a.make()``:
        the last dotted part the name, the rest the receiver), at the outer call's arguments."""
        text = self.receiver(chain)
        receiver, _, name = text.rpartition(".")  # arguments are dropped: no dot inside parentheses
        return CallSite(caller=self.code_scope(call), name=name, receiver=receiver or None, arity=arity(args),
                        line=self.src.line(args), col=self.src.col(args), via="result",
                        handed=handed_arguments(self.src, args, functools.partial(self._own_this, call)))

    def receiver(self, node: Node) -> str:
        """Normalised receiver text: no whitespace, no generic arguments, calls written ``()``.

        Walks down the receiver's chain of members and calls (a query cannot rewrite text), at most
        MAX_RECEIVER_LINKS links: a longer chain is written LONG_RECEIVER.
        """
        parts: list[str] = []
        for _ in range(MAX_RECEIVER_LINKS + 1):
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
                if (injected := self._field_value_type(node)[0]) is not None:  # Angular `inject(X).m()`: an X
                    return f"new {injected}()" + "".join(reversed(parts))
                spread = _OBJECT_READS.get(_WS.sub("", self.text(fn))) if _object_call(fn) else None
                args = node.child_by_field_name("arguments")
                if spread is not None and args is not None and args.named_child_count == 1:
                    parts.append(f".{spread}()")  # `Object.values(rec)`: `rec.$values()` (elements.query_call)
                    node = args.named_children[0]
                    continue
                if fn is not None:
                    parts.append("()")
                    node = fn
                    continue
            elif t == "non_null_expression" and node.named_children:
                node = node.named_children[0]
                continue
            elif t in ("parenthesized_expression", "await_expression") and node.named_child_count == 1:
                node = node.named_children[0]  # `(new A()).m()`, `(await this.find()).m()`: what is awaited
                continue
            elif t == "subscript_expression" and (obj := node.child_by_field_name("object")) is not None:
                index = node.child_by_field_name("index")
                parts.append(f"[{_WS.sub('', self.text(index)) if index is not None else ''}]")
                node = obj  # `Object.values(rec)[0]`: the subscript of what the walk writes
                continue
            elif t == "binary_expression" and self.text(node.child_by_field_name("operator")) in ("??", "||") \
                    and _WS.sub("", self.text(node.child_by_field_name("right"))) == "[]":
                node = node.child_by_field_name("left")  # `m.get(k) ?? []`: the array, or none
                continue
            elif t == "new_expression":  # `new A(x).m()`: written `new A()`, as Java does
                ctor = node.child_by_field_name("constructor")
                if ctor is not None and ctor.type in ("identifier", "member_expression"):
                    return f"new {_WS.sub('', self.text(ctor))}()" + "".join(reversed(parts))
            return _WS.sub("", self.text(node)) + "".join(reversed(parts))
        return LONG_RECEIVER
