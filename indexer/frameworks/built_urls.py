"""Client URLs the application builds with its own code: a configuration key read back, and (after the
link) a URL whose start is unknown linked by its known end.

* :meth:`BuiltUrlLinks.call_value`: a call written in a URL (a :func:`~indexer.string_templates.call_ref` piece:
  ``this.applicationConfigService.getEndpointFor('api/register')``) whose callee is a
  :class:`~indexer.model.UrlBuilder` of the repository (found as a constant is: a name of the file or an import,
  else the callee's receiver resolved to a class or instance, its method or an inherited one) is that builder's
  return for those arguments: the one ``return`` whose parameters the call all passes (a return naming a parameter
  left out, ``microservice?``, is another way the function goes) and that names the most of them (given both
  ``api`` and ``microservice``, the return naming both: the other is the way for a call without
  ``microservice``), each parameter replaced by its argument rendered
  where the call is written, every other name rendered where the builder is. Several such returns of different
  text, a builder found nowhere, or a call inside a builder's argument (one level): unknown.
* :meth:`BuiltUrlLinks.link_known_ends`: after linking, a request whose URL starts with an unknown piece reaches the
  one exposed endpoint its known end ends (:mod:`indexer.frameworks.known_ends`); several: unlinked, ``url_ambiguous``.
* :meth:`BuiltUrlLinks.setting_key`: Django's ``settings.BILLING_URL`` (``settings`` imported from
  ``django.conf``) is the configuration key ``config:BILLING_URL`` (:data:`~indexer.symbols.CONFIG_KEY`),
  which a settings module of the same service folder writes
  (:mod:`indexer.languages.python.frameworks.config_values`); Flask's ``app.config["K"]`` is that key
  already in the template.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.frameworks.known_ends import retarget_known_ends
from indexer.model import UrlBuilder
from indexer.resolve.multimap import entries
from indexer.resolve.values import ClassV, InstV, ModuleV
from indexer.string_templates import CALL_REF, read_call_ref
from indexer.symbols import CONFIG_KEY

if TYPE_CHECKING:
    from collections.abc import Sequence

    from indexer.frameworks.link_options import LinkOptions
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import ImportTarget, Lookup

__all__ = ["BuiltUrlLinks"]

_SETTING = re.compile(r"([A-Za-z_]\w*)\.([A-Z][A-Z0-9_]*)")


_HOLE = "\x00"


class BuiltUrlLinks:
    """Linker mixin (:class:`indexer.frameworks.link._Linker`): URLs built by the application's code."""

    r: Lookup
    ctxs: Sequence[FileCtx]
    options: LinkOptions
    _builders: dict[tuple[str, str], tuple[FileCtx, UrlBuilder]] | None = None

    def link_known_ends(self) -> None:
        """Retarget the requests of unknown start by their known end (:func:`retarget_known_ends`), counted
        ``calls_http_known_end``; write those several endpoints end with as unlinked (``unlinked_url_ambiguous``,
        the endpoints as candidates)."""
        result = self.result  # type: ignore[attr-defined]
        by_path = {c.path: c for c in self.ctxs}
        moved, taken = retarget_known_ends(result.nodes, result.edges,
                                           lambda path, method, url: self._endpoint(by_path[path], method, url))  # type: ignore[attr-defined]
        if moved:
            result.outcomes["calls_http_known_end"] += moved
        if not taken:
            return
        for path, e, found in taken:
            result.outcomes["calls_http"] -= 1
            method = e.dst.removeprefix("endpoint:").partition(" ")[0]
            self.unlinked(by_path[path], e.src, e.line, e.col, "unlinked_url_ambiguous",  # type: ignore[attr-defined]
                          f"{method} {e.props.get('url')}", str(e.props.get("framework") or ""),
                          [f.removeprefix("endpoint:") for f in found])

    def call_value(self, fc: FileCtx, scope: str | None, expr: str, stack: tuple[tuple[str, str], ...]) -> str | None:
        """The rendered value of the call ``expr`` (a :func:`~indexer.string_templates.call_ref` text) written in
        ``scope`` of ``fc`` (module docstring); ``None`` when unknown. ``stack``: the constants being rendered
        (:meth:`indexer.frameworks.link._Linker._value`), a builder among them making any call unknown."""
        parsed = read_call_ref(expr)
        if parsed is None or any(q.startswith(CALL_REF) for _, q in stack):
            return None
        callee, args = parsed
        found = self._builder_named(fc, scope, callee)
        if found is None:
            return None
        bfc, builder = found
        inner = (*stack, (bfc.path, CALL_REF + builder.qualname))
        passed = frozenset(builder.params[:len(args)])
        unpassed = frozenset(builder.params) - passed
        owner = builder.qualname.rpartition(".")[0] or None
        usable = [ret for ret in builder.returns  # naming a parameter the call leaves out: not the way it goes
                  if not any(k == "ref" and t in unpassed for k, t in ret.parts)]
        most = max((len({t for k, t in ret.parts if k == "ref" and t in passed}) for ret in usable), default=0)
        values: set[str] = set()
        for ret in usable:
            if len({t for k, t in ret.parts if k == "ref" and t in passed}) < most:
                continue  # `if (microservice) return A(api, microservice); return B(api)`: given both, A
            out: list[str] = []
            for kind, text in ret.parts:
                if kind == "lit":
                    out.append(text)
                elif kind == "ref" and text in passed:
                    arg = args[builder.params.index(text)]
                    out.append(self._rendered(fc, scope, arg, inner) if arg is not None else _HOLE)
                elif kind == "ref":
                    value = self._value(bfc, owner, text, inner)  # type: ignore[attr-defined]
                    out.append(_HOLE if value is None else value)
                else:
                    out.append(_HOLE)
            values.add("".join(out))
        return values.pop() if len(values) == 1 else None

    def _rendered(self, fc: FileCtx, scope: str | None, tpl: object, stack: tuple[tuple[str, str], ...]) -> str:
        out: list[str] = []
        for kind, text in tpl.parts:  # type: ignore[attr-defined]
            if kind == "lit":
                out.append(text)
                continue
            value = self._value(fc, scope, text, stack) if kind == "ref" else None  # type: ignore[attr-defined]
            out.append(_HOLE if value is None else value)
        return "".join(out)

    def _builder_named(self, fc: FileCtx, scope: str | None, callee: str) -> tuple[FileCtx, UrlBuilder] | None:
        """The builder ``callee`` names in ``scope`` of ``fc``: a function of the file (inside the enclosing
        classes of ``scope`` first), an imported one, or a method of the class or instance its receiver
        resolves to (or of that class's ancestors)."""
        if self._builders is None:
            self._builders = {(c.path, b.qualname): (c, b) for c in self.ctxs for b in c.ex.url_builders}
        builders = self._builders
        if not builders:
            return None
        s = scope
        while s:
            if (fc.path, f"{s}.{callee}") in builders:
                return builders[(fc.path, f"{s}.{callee}")]
            s = s.rpartition(".")[0]
        if (fc.path, callee) in builders:
            return builders[(fc.path, callee)]
        head, _, rest = callee.partition(".")
        imps = entries(fc.imports, head)
        if imps and not imps[-1].local == "*":
            target: ImportTarget = self.import_target(fc, imps[-1])  # type: ignore[attr-defined]
            if not target.of_class:
                name = f"{target.member}.{rest}" if target.member and rest else (target.member or rest)
                for f in target.files:
                    if (f.path, name) in builders:
                        return builders[(f.path, name)]
        if "." not in callee:
            return None
        prefix, _, last = callee.rpartition(".")
        tried = [prefix]
        cls = scope.partition(".")[0] if scope else None
        if cls and (prefix == cls or prefix.startswith(cls + ".")):
            tried.append("this" + prefix[len(cls):])  # `this.x` is written `Class.x` in templates
        for text in tried:
            try:
                v = self.r.resolve_expr(fc, scope, text)
            except (RecursionError, ValueError):
                continue
            if isinstance(v, (ClassV, InstV)):
                if (v.c.file.path, f"{v.c.qualname}.{last}") in builders:
                    return builders[(v.c.file.path, f"{v.c.qualname}.{last}")]
                for m in self.r.lookup(v.c, last)[0]:
                    if (m.file.path, m.qualname) in builders:
                        return builders[(m.file.path, m.qualname)]
            elif isinstance(v, ModuleV):
                for f in self.r.module_files(fc.lang, v.key):
                    if (f.path, last) in builders:
                        return builders[(f.path, last)]
        return self._inherited_builder(fc, cls, callee) if cls else None

    def _inherited_builder(self, fc: FileCtx, cls: str, callee: str) -> tuple[FileCtx, UrlBuilder] | None:
        """The builder ``callee`` names through a base class of the enclosing class ``cls``: a nested type's method
        written unqualified in a subclass (eShopOnContainers' ``CatalogScenarios : CatalogScenariosBase`` calling
        ``Get.ItemById(1)``, the builder ``CatalogScenariosBase.Get.ItemById`` of another file)."""
        try:
            v = self.r.resolve_expr(fc, None, cls)
        except (RecursionError, ValueError):
            return None
        if not isinstance(v, ClassV):
            return None
        builders = self._builders or {}
        for base in self.r.mro(v.c)[1:]:
            if (base.file.path, f"{base.qualname}.{callee}") in builders:
                return builders[(base.file.path, f"{base.qualname}.{callee}")]
        return None

    def setting_key(self, fc: FileCtx, expr: str) -> str | None:
        """``config:NAME`` for a Python file's ``settings.NAME`` (an upper-case name) when the file imports
        ``settings`` from ``django.conf`` (under any local name); ``None`` otherwise."""
        if fc.lang != "python":
            return None
        m = _SETTING.fullmatch(expr)
        if m is None:
            return None
        imps = entries(fc.imports, m.group(1))
        if not imps or imps[-1].module != "django.conf" or imps[-1].name != "settings":
            return None
        return CONFIG_KEY + m.group(2)
