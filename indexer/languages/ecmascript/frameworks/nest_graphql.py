"""NestJS GraphQL and TypeGraphQL resolvers -> GraphQL :class:`~indexer.model.Route` (framework
``nest-graphql`` / ``type-graphql``).

In a file importing ``@nestjs/graphql`` (or ``type-graphql``), each method of a class decorated
``@Resolver(...)`` (rule in ``indexer/languages/ecmascript/queries/nest_graphql.scm``) carrying
``@Query`` / ``@Mutation`` / ``@Subscription`` resolves ``Query`` / ``Mutation`` / ``Subscription``
``.<name>``, and one carrying ``@ResolveField`` (TypeGraphQL ``@FieldResolver``) resolves
``<Type>.<name>`` where ``Type`` is the resolver's (``@Resolver(() => Owner)``, ``@Resolver(of =>
Owner)``, ``@Resolver(Owner)``, ``@Resolver("Owner")``; none: the field is not linked). ``name`` is
a string argument (``@Query("owners")``, ``@ResolveField("pets", () => [Pet])``), else the ``name``
option (``@Query(() => [Owner], { name: "owners" })``), else the method's name. ``handler`` is the
method's qualname. A method named like a resolver in a class without ``@Resolver`` is not one.
Position: the method decorator's ``@``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.languages.ecmascript.frameworks.nest import decorated_class, decorated_method
from indexer.model import FileExtraction, Route, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")
_PACKAGES = {"@nestjs/graphql": "nest-graphql", "type-graphql": "type-graphql"}
_ROOTS = {"Query": ("Query", "QUERY"), "Mutation": ("Mutation", "MUTATION"), "Subscription": ("Subscription", "SUBSCRIPTION")}
_FIELDS = frozenset({"ResolveField", "FieldResolver"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a GraphQL route per resolver method of the file's ``@Resolver`` classes."""
    jf = js_file(root, src, out)
    matches = jf.matches("nest_graphql")
    framework = next((_PACKAGES[i.module] for i in out.imports if i.module in _PACKAGES), None)
    if not matches or framework is None:
        return
    resolvers: dict[int, str | None] = {}  # class node id -> its GraphQL type (None: not given)
    methods: list[tuple[str, Node, Node]] = []
    for caps in matches:
        name = jf.text(caps["name"][0]).rpartition(".")[2]
        if name == "Resolver":
            cls = decorated_class(caps["decorator"][0])
            if cls is not None:
                resolvers[cls.id] = _resolver_type(jf, caps["args"][0])
        else:
            methods.append((name, caps["decorator"][0], caps["args"][0]))
    for kind, decorator, args in methods:
        method = decorated_method(decorator)
        if method is None or method.parent is None or method.parent.parent is None:
            continue
        cls_id = method.parent.parent.id
        if cls_id not in resolvers:
            continue
        if kind in _ROOTS:
            type_name, op = _ROOTS[kind]
        else:
            type_name, op = resolvers[cls_id], "FIELD"
            if type_name is None:
                continue
        name_node = method.child_by_field_name("name")
        d = jf.definition_named(name_node)
        if d is None:
            continue
        field = _field_name(jf, args) or d.name
        line, col = jf.pos(decorator)
        out.routes.append(Route(framework, [op], Template.of(f"{type_name}.{field}"), d.qualname, line, col))


def _resolver_type(jf: JsFile, args: Node) -> str | None:
    given = arguments(args)
    if not given:
        return None
    node = unwrap(given[0]) or given[0]
    if node.type == "arrow_function":
        node = unwrap(node.child_by_field_name("body")) or node
    if node.type == "identifier":
        return jf.text(node)
    return jf.string(node)


def _field_name(jf: JsFile, args: Node) -> str | None:
    for a in arguments(args):
        text = jf.string(a)
        if text:
            return text
        value = jf.object_pairs(a).get("name")
        if value is not None and jf.string(value):
            return jf.string(value)
    return None
