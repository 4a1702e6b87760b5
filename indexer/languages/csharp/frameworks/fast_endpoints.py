"""FastEndpoints routes (framework ``fastendpoints``): one endpoint class per route.

A class deriving from one of FastEndpoints' endpoint bases (``Endpoint<TRequest(, TResponse)>``,
``EndpointWithoutRequest(<TResponse>)``, ``EndpointWithMapping<...>``, ``Endpoint<TRequest, TResponse,
TMapper>``, or the fluent ``Ep.Req<T>.Res<R>`` / ``Ep.NoReq.Res<R>`` / ``Ep.Req<T>.NoRes`` /
``Ep.NoReq.NoRes`` forms) declares its route in its ``Configure()`` override: ``Get("/a")``,
``Post(CreateRequest.Route)``, ``Put`` / ``Patch`` / ``Delete`` / ``Head`` / ``Options`` (each argument
one route), or ``Verbs(Http.POST, Http.PUT)`` with ``Routes("/a", "/b")``. The handler is its
``HandleAsync`` / ``ExecuteAsync`` override (the class itself when it declares neither). A route is a
literal, a constant of the file, a class's constant (``CreateRequest.Route``, resolved across files by
the linker) or an interpolation of those (``$"/{nameof(Project)}s"``); constraints and optional markers
are dropped as ASP.NET's are (:func:`indexer.languages.csharp.frameworks.aspnet.route_template`).
Not read: a ``Group<G>()`` prefix and the application-wide ``RoutePrefix`` / versioning set in
``UseFastEndpoints(c => ...)`` (other files)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.csharp.frameworks.aspnet import route_template
from indexer.languages.csharp.frameworks.common import CsFile, cs_file
from indexer.model import Definition, FileExtraction, Route, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("csharp",)
FRAMEWORK = "fastendpoints"
_VERBS = {"Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE", "Head": "HEAD",
          "Options": "OPTIONS"}
_BASES = frozenset({"Endpoint", "EndpointWithoutRequest", "EndpointWithMapping", "EndpointWithMapper"})
_FLUENT = re.compile(r"Ep\.(?:Req|NoReq)\.(?:Res|NoRes)(?:\.Map)?")
_HANDLERS = ("HandleAsync", "ExecuteAsync")
_HTTP_CONSTANT = re.compile(r"\bHttp\.([A-Z]+)\b")


def _is_endpoint(d: Definition) -> bool:
    """Whether the class ``d`` derives from a FastEndpoints endpoint base (generics dropped:
    ``Endpoint<CreateRequest, CreateResponse>`` is ``Endpoint``)."""
    return any(b.removeprefix("FastEndpoints.") in _BASES or _FLUENT.fullmatch(b.removeprefix("FastEndpoints."))
               for b in d.bases)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's FastEndpoints routes to ``out``."""
    data = src.data
    if b"Configure" not in data or not (b"Endpoint" in data or b"Ep." in data):
        return
    classes = [d for d in out.definitions if d.kind == "class" and _is_endpoint(d)]
    if not classes:
        return
    cf = cs_file(root, src, out)
    by_owner: dict[str, list[Node]] = {}
    for call in cf.calls:
        owner = cf.owner(call)
        if owner is not None and owner.endswith(".Configure"):
            by_owner.setdefault(owner, []).append(call)
    by_class: dict[str | None, dict[str, Definition]] = {}  # each class's methods, from one pass (not one per class)
    for m in out.definitions:
        if m.kind == "method":
            by_class.setdefault(m.parent, {})[m.name] = m  # the last of a name, as before
    for cls in classes:
        methods = by_class.get(cls.qualname, {})
        handler = next((methods[n] for n in _HANDLERS if n in methods), cls)
        for verbs, template in _routes(cf, by_owner.get(f"{cls.qualname}.Configure", [])):
            out.routes.append(Route(FRAMEWORK, verbs, template, handler.qualname, handler.name_line, handler.name_col))


def _routes(cf: CsFile, calls: list[Node]) -> list[tuple[list[str], Template]]:
    """The ``(verbs, route)`` pairs the calls of a ``Configure()`` body declare, in source order."""
    found: list[tuple[list[str], Template]] = []
    verbs: list[str] = []
    paths: list[Template] = []
    for call in sorted(calls, key=lambda n: n.start_byte):
        fn = call.child_by_field_name("function")
        if fn is None:
            continue
        name = cf.text(fn).removeprefix("this.") if fn.type in ("identifier", "member_access_expression") else ""
        if name in _VERBS:
            found.extend(([_VERBS[name]], t) for t in _templates(cf, cf.args(call)))
        elif name == "Verbs":
            verbs += [v for a in cf.args(call) for v in _HTTP_CONSTANT.findall(cf.text(a))]
            verbs += [t.literal().upper() for t in (cf.name_template(a) for a in cf.args(call))
                      if t is not None and t.literal() is not None]
        elif name == "Routes":
            paths += _templates(cf, cf.args(call))
    found.extend((sorted(set(verbs)), t) for t in paths if verbs)
    return found


def _templates(cf: CsFile, args: list[Node]) -> list[Template]:
    """Each argument as a route template (one not known: left out), constraints dropped from its
    literal pieces."""
    out = []
    for a in args:
        t = cf.name_template(a)
        if t is not None:
            out.append(Template.merged((k, route_template(x) if k == "lit" else x) for k, x in t.parts))
    return out
