"""What the C# framework detectors share: :class:`CsFile`, one parsed file with its ``using``
namespaces, its invocations and classes in source order, string templates (literals, verbatim and
interpolated strings, ``+``, ``const`` and ``readonly`` strings of the file and a local's one
initializer inlined, other constants as ``ref`` pieces, an environment variable read with a literal
default as that default), the qualname of the member around a node, and inline handlers (lambdas) made definitions of
their own."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from indexer.languages import base
from indexer.frameworks import ENV_READ, call_piece
from indexer.model import Binding, Definition, FileExtraction, Param, StringConstant, Template, drop_generics, is_call_ref
from indexer.symbols import CONFIG_DEFAULT, CONFIG_KEY, CONFIG_OPTIONS, inline_definition, inline_header

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["OPTIONS_KEY", "CsFile", "attribute_args", "attribute_name", "cs_file"]

OPTIONS_KEY = CONFIG_OPTIONS
"""``config:@T``: the configuration section bound to the options class ``T`` (a constant,
:mod:`indexer.languages.csharp.frameworks.options_binding`); ``config:@T:Name`` in a template: a read of
``IOptions<T>``'s ``Name`` (:meth:`CsFile.options_read`), rendered by the linker from that section's key."""
_OPTIONS_DECL = re.compile(r"\bIOptions(?:Monitor|Snapshot)?\s*<\s*([\w.]+)\s*>\s+(\w+)")
"""A field, property, parameter or local declared ``IOptions<T> name`` (also ``IOptionsMonitor`` /
``IOptionsSnapshot``)."""
_OPTIONS_VALUE = re.compile(r"\b(\w+)\s*=\s*(\w+)\s*\.\s*(?:Value|CurrentValue)\s*;")
"""``_urls = config.Value;``: a name given an options instance's value."""
_OPTIONS_VALUES = frozenset({"Value", "CurrentValue"})

_WS = re.compile(r"\s+")
_FUNCTION_NODES = ("method_declaration", "constructor_declaration", "local_function_statement", "lambda_expression",
                   "anonymous_method_expression", "accessor_declaration", "operator_declaration")
_ATTR = re.compile(r"^(?:[\w.]+\.)?(\w+?)(?:Attribute)?\s*(?:\((.*)\))?$", re.S)
_CONFIG_NAME = re.compile(r"config", re.IGNORECASE)
"""The last name of a receiver read as an ``IConfiguration`` (``configuration``, ``_config``,
``builder.Configuration``)."""
_SECTIONS = frozenset({"GetSection", "GetRequiredSection"})
_STRING_ARG = re.compile(r'^\s*(?:(?:Template|template|Name|name)\s*[=:]\s*)?@?"((?:[^"\\]|\\.)*)"')


def attribute_name(text: str) -> str:
    """An attribute's short name: ``HttpGet("{id}")`` -> ``HttpGet``; ``Microsoft.AspNetCore.Mvc.Route``
    -> ``Route``; ``ApiControllerAttribute`` -> ``ApiController``."""
    m = _ATTR.match(text.strip())
    return m.group(1) if m else text


def attribute_args(text: str) -> str | None:
    """The first string argument of an attribute (``HttpGet("{id}", Name = "x")`` -> ``{id}``), ``""``
    for an attribute without one, ``None`` for an argument that is no literal string."""
    m = _ATTR.match(text.strip())
    if m is None or not m.group(2) or not m.group(2).strip():
        return ""
    s = _STRING_ARG.match(m.group(2))
    return s.group(1) if s else None


_TYPE_KINDS = frozenset(("class", "interface", "enum"))
_CALLABLE_KINDS = frozenset(("method", "constructor", "function"))


def _nesting(defs: list[Definition]) -> tuple[list[tuple[int, int]], list[Definition], list[int]]:
    """``defs`` ordered by start (a longer span first, then list order: the later of two equal spans
    is the inner one), their starts, and each one's parent: the index of the innermost earlier
    span holding its start (-1: none)."""
    order = sorted(range(len(defs)), key=lambda i: (defs[i].start_line, defs[i].start_col,
                                                    -defs[i].end_line, -defs[i].end_col, i))
    ordered = [defs[i] for i in order]
    parents: list[int] = []
    stack: list[int] = []
    for j, d in enumerate(ordered):
        start = (d.start_line, d.start_col)
        while stack and (ordered[stack[-1]].end_line, ordered[stack[-1]].end_col) < start:
            stack.pop()
        parents.append(stack[-1] if stack else -1)
        stack.append(j)
    return [(d.start_line, d.start_col) for d in ordered], ordered, parents


@dataclass(slots=True)
class _LocalFacts:
    """What a function does with one name: its declarations (start byte, initializer or ``None``),
    its assignments (operator, right side), whether a parameter or an ``out`` / ``ref`` argument is named so."""

    declared: list[tuple[int, Node | None]] = field(default_factory=list)
    assigned: list[tuple[str, Node | None]] = field(default_factory=list)
    parameter: bool = False
    by_reference: bool = False


class CsFile:
    """One C# file as the detectors read it (built once per file, shared through :func:`cs_file`)."""

    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.root, self.src, self.out = root, src, out
        self._functions: base.Innermost | None = None
        self.usings = {imp.module for imp in out.imports if imp.local == "*"}
        self.calls: list[Node] = []
        self.classes: list[Node] = []
        self.constants: dict[str, Template] = {}
        self._locals: dict[int, dict[str, _LocalFacts]] = {}  # a function node's id -> its names (_walk_locals)
        self._generic_bases: dict[str, list[tuple[str, str]]] | None = None
        self._spans: dict[frozenset[str], tuple] = {}  # kinds -> (key, starts, definitions, parents): _innermost
        self._options: tuple[dict[str, str], dict[str, str]] | None = None  # options_read's names
        stack = [root]
        while stack:
            n = stack.pop()
            if n.type == "invocation_expression":
                self.calls.append(n)
            elif n.type in ("class_declaration", "interface_declaration", "record_declaration", "struct_declaration"):
                self.classes.append(n)
            elif n.type == "field_declaration" and any(self.text(c) in ("const", "readonly") for c in n.named_children
                                                       if c.type == "modifier"):
                self._constant(n)
            stack.extend(reversed(n.children))

    def _constant(self, node: Node) -> None:
        decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        owner = self.owner_type(node)
        for v in decl.named_children if decl is not None else ():
            if v.type != "variable_declarator" or len(v.named_children) < 2:
                continue
            value = v.named_children[-1]
            if value.type == "equals_value_clause" and value.named_children:
                value = value.named_children[0]
            t = self.template(value)
            if t is not None and t.literal() is not None:
                name = self.text(v.named_children[0])
                self.constants[name] = t
                if owner:
                    self.constants[f"{owner}.{name}"] = t
                self.out.constants.append(StringConstant(f"{owner}.{name}" if owner else name, t))

    def text(self, node: Node | None) -> str:
        """The node's source text (``""`` for ``None``)."""
        return self.src.text(node) if node is not None else ""

    def expr(self, node: Node) -> str:
        """An expression as text without whitespace."""
        return _WS.sub("", self.src.text(node))

    def pos(self, node: Node) -> tuple[int, int]:
        """1-based line and code-point column of ``node``."""
        return self.src.line(node), self.src.col(node)

    def uses(self, *namespaces: str) -> bool:
        """Whether the file has a ``using`` of one of ``namespaces`` (or a namespace under one)."""
        return any(u == n or u.startswith(n + ".") for u in self.usings for n in namespaces)

    def owner_type(self, node: Node) -> str | None:
        """Qualname of the type around ``node``."""
        return self._innermost(node, _TYPE_KINDS)

    def owner(self, node: Node) -> str | None:
        """Qualname of the method, constructor, local function or inline handler around ``node``,
        else of the type around it, else ``None`` (top-level statements)."""
        return self._innermost(node, _CALLABLE_KINDS) or self.owner_type(node)

    def _innermost(self, node: Node, kinds: frozenset[str]) -> str | None:
        """Qualname of the definition of one of ``kinds`` whose span holds ``node`` and starts last
        (the later one in the file's list on a tie). Definitions come from syntax nodes, so their
        spans nest: the innermost holding a position is the first ancestor, in the nesting of the
        spans, of the last one starting at or before it that reaches it. The nesting is worked out
        once per kinds and definition count (a detector adds inline handlers): a lookup costs the
        depth, not a scan of every definition (brk45: 5,000 methods with two calls each took 58 s)."""
        key = (kinds, len(self.out.definitions))
        spans = self._spans.get(kinds)
        if spans is None or spans[0] != key:
            spans = self._spans[kinds] = (key, *_nesting([d for d in self.out.definitions if d.kind in kinds]))
        _, starts, defs, parents = spans
        at = self.pos(node)
        i = bisect_right(starts, at) - 1
        while i >= 0 and (defs[i].end_line, defs[i].end_col) < at:
            i = parents[i]
        return defs[i].qualname if i >= 0 else None

    @staticmethod
    def args(call: Node) -> list[Node]:
        """The argument expressions of an invocation or object creation (named arguments' values)."""
        a = call.child_by_field_name("arguments") or next(
            (c for c in call.named_children if c.type == "argument_list"), None)
        out = []
        for arg in a.named_children if a is not None else ():
            if arg.type == "argument" and arg.named_children:
                out.append(arg.named_children[-1])
        return out

    def member(self, call: Node) -> tuple[str, str] | None:
        """``(receiver text, name)`` of ``recv.Name(...)`` / ``recv.Name<T>(...)``, else ``None``."""
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "member_access_expression":
            return None
        nm = fn.child_by_field_name("name")
        if nm is not None and nm.type == "generic_name" and nm.named_children:
            nm = nm.named_children[0]
        return self.expr(fn.child_by_field_name("expression")), self.text(nm)

    def type_args(self, call: Node) -> list[str]:
        """The generic arguments written on an invocation's name (``MapGrpcService<CartService>`` ->
        ``["CartService"]``)."""
        fn = call.child_by_field_name("function")
        nm = fn.child_by_field_name("name") if fn is not None and fn.type == "member_access_expression" else fn
        if nm is None or nm.type != "generic_name":
            return []
        targs = next((c for c in nm.named_children if c.type == "type_argument_list"), None)
        return [self.expr(t) for t in targs.named_children] if targs is not None else []

    def template(self, node: Node | None, params: frozenset[str] = frozenset()) -> Template | None:
        """A string expression as a :class:`Template` (``None``: no literal part and no constant). A name among
        ``params`` (a URL builder's parameters, :mod:`indexer.languages.csharp.frameworks.url_builders`) is a
        ``ref`` piece; a call ``F(a, b)`` / ``X.F(a)`` a ``call:`` piece
        (:func:`indexer.frameworks.url_builder_rule.call_piece`), which the linker folds when ``F`` is a builder."""
        if node is None:
            return None
        t = self._template(node, 0, params)
        if t is None or not t.parts or all(k == "hole" for k, _ in t.parts):
            return None
        return t

    def name_template(self, node: Node | None, params: frozenset[str] = frozenset()) -> Template | None:
        """:meth:`template` for a route or a topic: ``None`` also when nothing but calls and holes make it (a call is
        no more known there than before calls were pieces: only a URL's is folded, by a builder). A name among
        ``params`` (the parameters of the method around a topic use: a topic wrapper,
        :mod:`indexer.frameworks.topic_wrappers`) is a ``ref`` piece."""
        t = self.template(node, params)
        if t is None or not any(k == "lit" or (k == "ref" and not is_call_ref(x)) for k, x in t.parts):
            return None
        return t

    def _template(self, node: Node, depth: int, params: frozenset[str] = frozenset()) -> Template | None:
        if depth > 16:
            return Template((("hole", self.expr(node)),))
        t = node.type
        if t in ("string_literal", "verbatim_string_literal", "raw_string_literal"):
            raw = self.text(node)
            body = raw[2:-1] if raw.startswith("@") else raw.strip('"')
            return Template.of(body)
        if t == "interpolated_string_expression":
            parts: list[tuple[str, str]] = []
            for c in node.named_children:
                if c.type in ("string_content", "escape_sequence"):
                    parts.append(("lit", self.text(c)))
                elif c.type == "interpolation":
                    inner = [x for x in c.named_children if x.type not in ("interpolation_brace",
                                                                             "interpolation_format_clause",
                                                                             "interpolation_alignment_clause")]
                    sub = self._template(inner[0], depth + 1, params) if inner else None
                    parts.extend(sub.parts if sub is not None else (("hole", "?"),))
            return Template.merged(parts)
        if t == "parenthesized_expression" and node.named_children:
            return self._template(node.named_children[0], depth + 1, params)
        if t == "binary_expression" and self.text(node.child_by_field_name("operator")) == "??":
            # Environment.GetEnvironmentVariable("KAFKA_TOPIC") ?? "orders": the value a deployment that
            # sets nothing sees (opentelemetry-demo's accounting consumer names its topic so).
            left = node.child_by_field_name("left")
            if left is not None and ENV_READ.match(self.expr(left)):
                return self._template(node.child_by_field_name("right"), depth + 1)
            key = self.config_key(left) if left is not None else None
            default = self._literal_arg([node.child_by_field_name("right")]) if key is not None else None
            if key is not None and default is not None:  # configuration["Kafka:Topic"] ?? "orders"
                return Template((("ref", CONFIG_KEY + key + CONFIG_DEFAULT + default),))
            return Template((("hole", self.expr(node)),))
        if t == "binary_expression" and self.text(node.child_by_field_name("operator")) == "+":
            left = self._template(node.child_by_field_name("left"), depth + 1, params)
            right = self._template(node.child_by_field_name("right"), depth + 1, params)
            return left + right if left is not None and right is not None else None
        if t == "identifier":
            name = self.text(node)
            if name in params:
                return Template((("ref", name),))
            value = self.local_value(node)
            if value is not None:
                return self._template(value, depth + 1)
            if name in self.constants:
                return self.constants[name]
            return Template((("hole", name),))
        if t in ("element_access_expression", "invocation_expression", "member_access_expression"):
            key = self.config_key(node)
            if key is not None:  # configuration["EventBus:Queue"]: the project's appsettings (the linker)
                args = self.args(node) if t == "invocation_expression" else []
                default = self._literal_arg(args[1:2]) if len(args) == 2 else None  # GetValue("K", "d")
                return Template((("ref", CONFIG_KEY + key + (CONFIG_DEFAULT + default if default else "")),))
        if t == "member_access_expression":
            text = self.expr(node)
            read = self.options_read(text)
            if read is not None:  # _settings.Value.PurchaseUrl: the bound section's key (the linker)
                return Template((("ref", OPTIONS_KEY + read),))
            if text in self.constants:
                return self.constants[text]
            head = text.split(".", 1)[0]
            if head[:1].isupper():  # Routes.Orders: a class's constant
                return Template((("ref", text),))
            return Template((("hole", text),))
        if t == "invocation_expression" and depth < 16:
            callee = node.child_by_field_name("function")
            args = self.args(node)
            if callee is not None and self.text(callee) == "nameof" and len(args) == 1:  # a compile-time name
                return Template.of(drop_generics(self.expr(args[0])).rsplit(".", 1)[-1])
            if callee is not None and callee.type in ("identifier", "member_access_expression"):
                args = [self._template(a, depth + 1, params) for a in self.args(node)]
                return Template((call_piece(self.expr(callee).removeprefix("this."), args, self.expr(node)),))
        return Template((("hole", self.expr(node)),))

    def config_key(self, node: Node) -> str | None:
        """The configuration key an ``IConfiguration`` read names: ``configuration["A:B"]``,
        ``config.GetValue<string>("A:B")`` (a literal default argument is kept by the template beside the key,
        :data:`~indexer.symbols.CONFIG_DEFAULT`), ``GetSection("A")["B"]``,
        ``GetSection("A").GetValue<T>("B")``, ``GetSection("A:B").Value`` -> ``"A:B"``; the receiver is a
        name or property whose last name holds ``config`` (any case). ``None`` for anything else."""
        t = node.type
        if t == "element_access_expression":
            prefix = self._section(node.child_by_field_name("expression"))
            sub = node.child_by_field_name("subscript")
            key = self._literal_arg(sub.named_children if sub is not None else [])
        elif t == "invocation_expression":
            sel = self.member(node)
            fn = node.child_by_field_name("function")
            if sel is None or sel[1] != "GetValue" or fn is None:
                return None
            prefix = self._section(fn.child_by_field_name("expression"))
            key = self._literal_arg(self.args(node)[:1], whole=True)
        elif t == "member_access_expression":
            name = node.child_by_field_name("name")
            obj = node.child_by_field_name("expression")
            if name is None or self.text(name) != "Value" or obj is None or obj.type != "invocation_expression":
                return None
            sel = self.member(obj)
            fn = obj.child_by_field_name("function")
            if sel is None or sel[1] not in _SECTIONS or fn is None:
                return None
            prefix = self._section(fn.child_by_field_name("expression"))
            key = self._literal_arg(self.args(obj))
        else:
            return None
        return prefix + key if prefix is not None and key else None

    def options_read(self, text: str) -> str | None:
        """``T:Name`` for a read of an options class's property: ``x.Value.Name`` / ``x.CurrentValue.Name`` where
        the file declares ``IOptions<T> x`` (``IOptionsMonitor`` / ``IOptionsSnapshot``), or ``y.Name`` where the
        file sets ``y = x.Value;`` (``this.`` dropped); ``None`` otherwise, and for a name the file declares with
        two option types. ``text``: the expression without spaces (:meth:`expr`)."""
        if b"IOptions" not in self.src.data:
            return None
        if self._options is None:
            source = self.src.data.decode("utf-8", errors="replace")
            declared: dict[str, str] = {}
            for m in _OPTIONS_DECL.finditer(source):
                declared[m.group(2)] = m.group(1) if declared.get(m.group(2), m.group(1)) == m.group(1) else ""
            values: dict[str, str] = {}
            for m in _OPTIONS_VALUE.finditer(source):
                kind = declared.get(m.group(2), "")
                values[m.group(1)] = kind if values.get(m.group(1), kind) == kind else ""
            self._options = declared, values
        declared, values = self._options
        parts = text.removeprefix("this.").split(".")
        if len(parts) == 3 and parts[1] in _OPTIONS_VALUES:
            kind = declared.get(parts[0])
        elif len(parts) == 2:
            kind = values.get(parts[0])
        else:
            return None
        return f"{kind.rsplit('.', 1)[-1]}:{parts[-1]}" if kind else None

    def _literal_arg(self, args: list[Node], whole: bool = False) -> str | None:
        nodes = [a.named_children[0] if a.type == "argument" and a.named_children else a for a in args]
        if not nodes or (len(nodes) != 1 and not whole):
            return None
        t = self.template(nodes[0]) if nodes[0].type in ("string_literal", "verbatim_string_literal") else None
        return t.literal() if t is not None else None

    def _section(self, node: Node | None) -> str | None:
        """The key prefix a configuration receiver stands for: ``""`` for the configuration itself,
        ``"A:"`` for ``X.GetSection("A")``; ``None`` when ``node`` is neither."""
        if node is None:
            return None
        if node.type in ("identifier", "member_access_expression"):
            last = self.expr(node).rsplit(".", 1)[-1]
            return "" if _CONFIG_NAME.search(last) else None
        sel = self.member(node) if node.type == "invocation_expression" else None
        fn = node.child_by_field_name("function") if sel is not None else None
        if sel is None or sel[1] not in _SECTIONS or fn is None:
            return None
        outer = self._section(fn.child_by_field_name("expression"))
        key = self._literal_arg(self.args(node))
        return outer + key + ":" if outer is not None and key else None

    def enclosing_function(self, node: Node) -> Node | None:
        """The innermost method, constructor, local function or lambda holding ``node`` (``None``
        at type or file level; :class:`~indexer.languages.base.Innermost`: a walk out of each link of a
        chain by ``Node.parent``, each step costing the node's depth, took 18 s for 800 links)."""
        if self._functions is None:
            self._functions = base.Innermost(self.root, _FUNCTION_NODES)
        return self._functions.of(node)

    def local_value(self, node: Node) -> Node | None:
        """The value a local variable named by the identifier ``node`` holds: the initializer of its
        one declaration in the enclosing function, declared before ``node`` and never assigned again
        (``var uri = $"{baseUrl}items/{id}"; client.GetAsync(uri)``); ``None`` otherwise (a
        parameter, a field, a variable assigned twice)."""
        facts = self._local(node)
        if facts is None or facts.parameter or facts.assigned:
            return None
        if any(value is None or at > node.start_byte for at, value in facts.declared):
            return None
        return facts.declared[0][1] if len(facts.declared) == 1 else None

    def local_values(self, node: Node) -> list[Node] | None:
        """Every value the local variable named by the identifier ``node`` is given in the enclosing
        function: its initializer and the right side of each plain ``=`` assignment, in source
        order (``IntegrationEvent e; if (ok) e = new A(); else e = new B();`` -> both creations);
        ``None`` for a name that is no local of the function (a parameter, a field) or that is
        changed otherwise (``+=``, ``out``, ``ref``)."""
        facts = self._local(node)
        if facts is None or not facts.declared or facts.parameter or facts.by_reference or \
                any(op != "=" for op, _ in facts.assigned):
            return None
        values = [v for _, v in facts.declared if v is not None] + [v for _, v in facts.assigned if v is not None]
        return sorted(values, key=lambda v: v.start_byte)

    def generic_bases(self) -> dict[str, list[tuple[str, str]]]:
        """Each type of the file (by qualname) -> the generic types of its base list, as ``(name,
        the first type argument as written, generics dropped)``: ``class H : IRequestHandler<Q, int>`` ->
        ``{"H": [("IRequestHandler", "Q")]}``, ``IRequestHandler<Create.Command, E>`` -> ``"Create.Command"``. Read once per file (brk45: looked up per class and
        interface by reading every class, each placed by scanning every definition, 250 handler
        classes took 163 s)."""
        if self._generic_bases is None:
            types = {(d.name_line, d.name_col): d.qualname for d in self.out.definitions
                     if d.kind in ("class", "interface", "enum")}
            self._generic_bases = {}
            for cls in self.classes:
                name = cls.child_by_field_name("name")
                if name is None:
                    continue
                qualname = types.get(self.pos(name)) or self.owner_type(name)
                found = [(self.text(b.named_children[0]), drop_generics(self.expr(targs.named_children[0])))
                         for c in cls.named_children if c.type == "base_list" for b in c.named_children
                         if b.type == "generic_name"
                         for targs in [next((x for x in b.named_children if x.type == "type_argument_list"), None)]
                         if targs is not None and targs.named_children]
                if found and qualname is not None:
                    self._generic_bases.setdefault(qualname, []).extend(found)
        return self._generic_bases

    def _local(self, node: Node) -> _LocalFacts | None:
        """What the function around ``node`` does with the name ``node`` spells (``None``: nothing,
        or no function around it). Every name of a function is read in one walk of it, remembered
        per function: a use costs a lookup, not a walk (brk45: a 500-statement method took 63 s)."""
        fn = self.enclosing_function(node)
        if fn is None:
            return None
        names = self._locals.get(fn.id)
        if names is None:
            names = self._locals[fn.id] = self._walk_locals(fn)
        return names.get(self.text(node))

    def _walk_locals(self, fn: Node) -> dict[str, _LocalFacts]:
        """Each name's declarations, assignments, parameters and ``out`` / ``ref`` arguments in
        ``fn`` (nested lambdas and local functions included)."""
        names: dict[str, _LocalFacts] = {}

        def facts(name: str) -> _LocalFacts:
            f = names.get(name)
            if f is None:
                f = names[name] = _LocalFacts()
            return f

        stack = [fn]
        while stack:
            n = stack.pop()
            t = n.type
            if t == "variable_declarator" and n.named_children:
                value = n.named_children[-1] if len(n.named_children) >= 2 else None
                if value is not None and value.type == "equals_value_clause" and value.named_children:
                    value = value.named_children[0]
                facts(self.text(n.named_children[0])).declared.append((n.start_byte, value))
            elif t == "assignment_expression":
                facts(self.text(n.child_by_field_name("left"))).assigned.append(
                    (self.text(n.child_by_field_name("operator")), n.child_by_field_name("right")))
            elif t == "parameter":
                facts(self.text(n.child_by_field_name("name"))).parameter = True
            elif t == "argument" and n.named_children and any(c.type in ("out", "ref") for c in n.children):
                facts(self.text(n.named_children[-1])).by_reference = True
            stack.extend(n.named_children)
        return names

    def inline_function(self, node: Node, name: str, scope: str | None) -> str:
        """Make the lambda at ``node`` (a handler passed inline) a function definition of its own
        named ``name`` (unique under ``scope``), owning the calls in its body, its typed parameters
        declared bindings of it (``(WebhooksContext context) => ...``); returns its qualname."""
        line, col = self.pos(node)
        for d in self.out.definitions:
            if d.kind == "function" and (d.name_line, d.name_col) == (line, col):
                return d.qualname
        params: list[Param] = []
        typed: list[tuple[str, str, int]] = []
        plist = node.child_by_field_name("parameters")
        for p in plist.named_children if plist is not None else ():
            nm = p.child_by_field_name("name") if p.type == "parameter" else p if p.type == "identifier" else None
            tn = p.child_by_field_name("type") if p.type == "parameter" else None
            t = drop_generics(self.expr(tn)).removeprefix("global::").rstrip("?") if tn is not None else None
            if nm is not None:  # a typed parameter is a declared binding of the function, as a method's is
                params.append(Param(self.text(nm), t or None))
                if t and t != "var":
                    typed.append((self.text(nm), t, self.src.line(nm)))
        qualname = inline_definition(self.out, self.src, node, name, scope, params, inline_header(self.src, node))
        self.out.bindings.extend(Binding(qualname, nm, t, "declared", ln) for nm, t, ln in typed)
        self.out.bindings.sort(key=lambda b: b.line)  # the extractor's order (stable: same line kept)
        return qualname


def cs_file(root: Node, src: SourceText, out: FileExtraction) -> CsFile:
    """The :class:`CsFile` of this extraction, built on first use and shared by the detectors."""
    cached = getattr(cs_file, "_last", None)
    if cached is not None and cached.root is root and cached.out is out:
        return cached
    cf = CsFile(root, src, out)
    cs_file._last = cf  # type: ignore[attr-defined]
    return cf
