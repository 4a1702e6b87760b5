"""NestJS controllers: ``@Controller(prefix)`` classes and their ``@Get`` / ``@Post`` / ... methods.

Facts, from ``indexer/languages/ecmascript/queries/nest.scm``: one :class:`~indexer.model.Route` per HTTP method
decorator on a method of a class decorated ``@Controller``, with ``path`` the class prefix joined to
the method's path with one ``/`` between them and a leading ``/`` (``@Controller("cats")`` +
``@Get(":id")`` -> ``/cats/:id``; ``@Get()`` adds nothing), ``handler`` the method's qualname
(``CatsController.findOne``), ``router`` ``None`` (the path is absolute; a global prefix set by
``app.setGlobalPrefix`` is not seen). ``@All`` accepts every method: ``["*"]``.

Prefix and path arguments: a string or template literal, a constant (``ref``), ``{path: ...}``
(``@Controller({ path: "cats", host: ... })``), or an array of any of these: one route per
combination. The decorator names are matched by their last part (``@common.Get()`` too); routing-
controllers' ``@Controller`` / ``@Get`` have the same meaning and are read alike.
Position: the method decorator's ``@``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, join_paths, js_file, unwrap
from indexer.model import FileExtraction, Route, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "decorated_class", "decorated_method", "detect"]

LANGUAGES = ("javascript", "typescript")

FRAMEWORK = "nest"
_CLASSES = frozenset({"class_declaration", "abstract_class_declaration", "class"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the routes of the file's Nest controllers to ``out``."""
    jf = js_file(root, src, out)
    matches = jf.matches("nest")
    if not matches or not jf.has(b"Controller"):
        return
    controllers: dict[int, tuple[str, list[Template]]] = {}  # class node id -> (qualname, prefixes)
    methods: list[tuple[str, Node, Node]] = []  # (verb, decorator, args)
    for caps in matches:
        name = jf.text(caps["name"][0]).rpartition(".")[2]
        decorator = caps["decorator"][0]
        if name == "Controller":
            cls = decorated_class(decorator)
            if cls is None:
                continue
            d = jf.definition_named(cls.child_by_field_name("name"))
            qualname = d.qualname if d is not None else jf.text(cls.child_by_field_name("name"))
            controllers[cls.id] = (qualname, _paths(jf, caps["args"][0], "path"))
        else:
            methods.append((name, decorator, caps["args"][0]))
    for verb, decorator, args in methods:
        method = decorated_method(decorator)
        if method is None or method.parent is None or method.parent.parent is None:
            continue
        owner = controllers.get(method.parent.parent.id)
        if owner is None:
            continue
        class_qualname, prefixes = owner
        name_node = method.child_by_field_name("name")
        d = jf.definition_named(name_node)
        handler = d.qualname if d is not None else f"{class_qualname}.{jf.text(name_node)}"
        line, col = jf.pos(decorator)
        http = ["*"] if verb == "All" else [verb.upper()]
        for prefix in prefixes:
            for path in _paths(jf, args, None):
                out.routes.append(Route(FRAMEWORK, list(http), join_paths(prefix, path), handler, line, col))


def decorated_class(decorator: Node) -> Node | None:
    """The class a class decorator is written on (directly or on its ``export`` statement)."""
    parent = decorator.parent
    if parent is None:
        return None
    if parent.type in _CLASSES:
        return parent
    if parent.type == "export_statement":
        decl = parent.child_by_field_name("declaration") or parent.child_by_field_name("value")
        return decl if decl is not None and decl.type in _CLASSES else None
    return None


def decorated_method(decorator: Node) -> Node | None:
    """The method a member decorator is written on: its parent in JavaScript; in TypeScript the next
    member of the class body that is not a decorator or a comment."""
    parent = decorator.parent
    if parent is None:
        return None
    if parent.type == "method_definition":
        return parent
    if parent.type != "class_body":
        return None
    n = decorator.next_named_sibling
    while n is not None and n.type in ("decorator", "comment"):
        n = n.next_named_sibling
    return n if n is not None and n.type == "method_definition" else None


def _paths(jf: JsFile, args: Node, object_key: str | None) -> list[Template]:
    """The path templates a decorator's first argument gives (``[Template()]`` when none)."""
    given = arguments(args)
    if not given:
        return [Template()]
    return _values(jf, given[0], object_key) or [Template()]


def _values(jf: JsFile, node: Node, object_key: str | None) -> list[Template]:
    node = unwrap(node) or node
    if node.type == "array":
        out: list[Template] = []
        for element in node.named_children:
            out.extend(_values(jf, element, None))
        return out
    if node.type == "object":
        value = jf.object_pairs(node).get(object_key) if object_key else None
        return _values(jf, value, None) if value is not None else [Template()]
    return [jf.template(node)]
