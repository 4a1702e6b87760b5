"""String constants of JavaScript / TypeScript files, for URLs and topics built from them.

Facts (:class:`~indexer.model.StringConstant`), from ``indexer/languages/ecmascript/queries/constants.scm`` and
the dialects' ``constants.scm``:

* ``const NAME = value`` / ``export const NAME = value`` at module level -> ``NAME``;
* properties of a module-level ``const`` object literal (also ``{...} as const`` and
  ``Object.freeze({...})``), nested up to four levels -> ``NAME.key`` / ``NAME.a.b``: the
  ``environment.apiUrl`` of an Angular ``environment.ts``, a ``ROUTES.USERS`` table;
* class fields with an initialiser -> ``Class.X``: ``static readonly X = "..."``, and also instance
  fields (``private heroesUrl = "api/heroes"``, which a URL names as ``this.heroesUrl``, written
  ``Class.heroesUrl`` in templates) -- unless the file assigns ``this.X = ...`` / ``Foo.X = ...``
  anywhere, so a field that changes is not taken for a constant;
* a field the file writes once, in its class's constructor, ``this.baseUrl = options.baseUrl || "/api"``
  (an option's default is what a caller not giving it gets: ``JsFile.template``) -> ``Class.baseUrl``;
* TypeScript string enum members at module level -> ``Enum.MEMBER``.

A value counts when it is built only from string / number / template literal text and names (a
``+`` concatenation, a template literal whose substitutions are names, ``process.env.X || "lit"``
taken as the literal) with at least one literal piece, an empty string (``const BASE_URL = ''``: an empty base,
the page's own origin, not an unknown one), or a bare environment variable
(``const API = import.meta.env.VITE_API_URL``, ``process.env.REACT_APP_API``: a ``ref`` the linker
reads from the package's ``.env`` files, :mod:`indexer.frameworks.env_config`); anything computed (a call, ``a ? b : c``)
disqualifies it, but for a class field's call of one name or property chain with plain arguments (``resourceUrl =
this.applicationConfigService.getEndpointFor('api/users')``: a :func:`~indexer.string_templates.call_ref`
the linker folds when the callee builds a URL), or a ``ConfigService`` read (``this.topic =
this.configService.get("KAFKA_TOPIC")``: the ``ref`` :meth:`JsFile.config_read` makes). Names stay ``ref`` pieces
the linker resolves across files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import ENV_HEADS, JsFile, arguments, js_file, unwrap
from indexer.model import FileExtraction, StringConstant, Template, is_call_ref, read_call_ref

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "constants_of", "detect"]

LANGUAGES = ("javascript", "typescript")

_MAX_OBJECT_DEPTH = 4
_VALUE_NODES = frozenset(
    {"string", "template_string", "binary_expression", "parenthesized_expression", "as_expression",
     "satisfies_expression"}
)  # fmt: skip


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's string constants to ``out``."""
    jf = js_file(root, src, out)
    matches = jf.matches("constants")
    if not matches:
        return
    writes = [c["assigned"][0] for c in matches if "assigned" in c]
    assigned = {jf.text(n) for n in writes}
    found: list[StringConstant] = []
    _constructor_fields(jf, writes, found)
    names = frozenset({jf.text(c["name"][0]) for c in matches if "name" in c} |
                      {i.local for i in out.imports if i.local != "*"})
    for caps in matches:
        if "name" in caps:
            _value(jf, jf.text(caps["name"][0]), caps["value"][0], found, 0, names)
        elif "field" in caps:
            name = jf.text(caps["field"][0])
            body = caps["field"][0].parent.parent  # type: ignore[union-attr]
            cls = body.parent if body is not None else None
            d = jf.definition_named(cls.child_by_field_name("name")) if cls is not None else None
            if d is None or name in assigned:
                continue
            template = _constant(jf, caps["value"][0], field=True)
            if template is not None:
                found.append(StringConstant(f"{d.qualname}.{name}", template))
        elif "enum" in caps:
            template = _constant(jf, caps["value"][0])
            if template is not None:
                found.append(StringConstant(f"{jf.text(caps['enum'][0])}.{jf.text(caps['member'][0])}", template))
    out.constants.extend(found)


def constants_of(jf: JsFile, qualname: str, node: Node) -> list[StringConstant]:
    """The constants a value gives under the name ``qualname`` by this module's rule: one for a
    string-like value, one per property (``qualname.key``, nested) for an object literal; ``[]``
    for anything computed."""
    found: list[StringConstant] = []
    _value(jf, qualname, node, found, 0)
    return found


def _value(jf: JsFile, qualname: str, node: Node, found: list[StringConstant], depth: int,
           names: frozenset[str] = frozenset()) -> None:
    """A constant's value: a string-like value, or an object literal's properties. A property (or a
    constant) whose value is only a name, ``version: v1`` / ``{ usersRoot }`` / ``const API = BASE``, is
    that name's value (a ``ref``) when ``names`` holds it: the file's other module-level constants and
    its imports (domain-driven-hexagon's ``routesV1 = { version: v1, user: { root: usersRoot } }``)."""
    inner = unwrap(node) or node
    if inner.type == "call_expression" and jf.receiver(inner.child_by_field_name("function")) == "Object.freeze":  # type: ignore[arg-type]
        args = arguments(inner.child_by_field_name("arguments"))
        inner = unwrap(args[0]) or args[0] if args else inner
    if inner.type == "object":
        if depth < _MAX_OBJECT_DEPTH:
            for key, value in jf.object_pairs(inner).items():
                _value(jf, f"{qualname}.{key}", value, found, depth + 1, names)
        return
    if inner.type in ("identifier", "shorthand_property_identifier"):
        name = jf.text(inner)
        if name in names and name != qualname:
            found.append(StringConstant(qualname, Template((("ref", name),))))
        return
    template = _constant(jf, node)
    if template is not None:
        found.append(StringConstant(qualname, template))


def _constant(jf: JsFile, node: Node, field: bool = False) -> Template | None:
    """The value as a template when it is a constant string (see the module's rule), else ``None``; a call
    only for a class field (``field``)."""
    if node.type == "member_expression":  # const API = import.meta.env.VITE_API_URL
        ref = jf.name_ref(node)
        return Template((("ref", ref),)) if ref is not None and ref.startswith(ENV_HEADS) else None
    if node.type == "call_expression" and field:  # resourceUrl = this.config.getEndpointFor("api/users")
        key = jf.config_read(node)  # this.topic = this.configService.get("KAFKA_TOPIC"): a configuration key
        if key is not None:
            return Template((("ref", key),))
        template = jf.template(node)
        if len(template.parts) != 1 or not is_call_ref(template.parts[0][1]):
            return None
        call = read_call_ref(template.parts[0][1])  # a string passed: `inject(Service)`, `signal(null)` are no URL
        return template if call is not None and any(a is not None and any(k == "lit" for k, _ in a.parts)
                                                    for a in call[1]) else None
    if node.type not in _VALUE_NODES:
        return None
    if node.type in ("string", "template_string") and not node.named_children and len(jf.text(node)) == 2:
        return Template()  # `export const BASE_URL = ''`: a base that is empty (same origin), not an unknown one
    text = jf.text(node)
    if '"' not in text and "'" not in text and "`" not in text:
        return None  # `COUNT + 1`: arithmetic, no string
    template = jf.template(node)
    kinds = {k for k, _ in template.parts}
    if "hole" in kinds or "lit" not in kinds:
        return None
    return template


def _constructor_fields(jf: JsFile, writes: list[Node], found: list[StringConstant]) -> None:
    """``Class.X`` for each ``this.X = value`` that is the file's only write of ``X`` and stands in a
    ``constructor`` (an SDK client's ``this.baseUrl = options.baseUrl || "/api"``), when the value is
    a constant by the module's rule."""
    count: dict[str, int] = {}
    for n in writes:
        count[jf.text(n)] = count.get(jf.text(n), 0) + 1
    for n in writes:
        member = n.parent
        assignment = member.parent if member is not None else None
        obj = member.child_by_field_name("object") if member is not None else None
        if count[jf.text(n)] != 1 or obj is None or obj.type != "this" or assignment is None:
            continue
        method = assignment.parent
        while method is not None and method.type not in ("method_definition", "class_body", "program"):
            method = method.parent
        if method is None or method.type != "method_definition" or jf.text(method.child_by_field_name("name")) != "constructor":
            continue
        body = method.parent
        cls = body.parent if body is not None else None
        d = jf.definition_named(cls.child_by_field_name("name")) if cls is not None else None
        right = assignment.child_by_field_name("right")
        template = _constant(jf, right) if d is not None and right is not None else None
        if template is None and d is not None and right is not None and right.type == "call_expression":
            key = jf.config_read(right)  # this.topic = this.configService.get("KAFKA_TOPIC")
            template = Template((("ref", key),)) if key is not None else None
        if template is not None:
            found.append(StringConstant(f"{d.qualname}.{jf.text(n)}", template))  # type: ignore[union-attr]
