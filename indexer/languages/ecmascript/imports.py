"""The import and export records of an ECMAScript file (TypeScript, JavaScript, Vue scripts), from the
matches of ``queries/imports.scm`` and ``queries/exports.scm``: :class:`~indexer.model.Import` (a
default, namespace or named import, aliases and string names unquoted) and
:class:`~indexer.model.Export` (one record per export: ``export *``, ``export default x``, an exported
declaration, a re-export with its module)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from indexer.languages.ecmascript.syntax import unquote
from indexer.model import Export, Import

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["export_records", "import_records"]


def import_records(fr: Any, matches: list[dict[str, list[Node]]]) -> None:
    """Append ``matches`` (imports.scm) to ``fr.out.imports`` as :class:`~indexer.model.Import` records
    (``fr``: the extractor's file run, with ``text``, ``src`` and ``out``)."""
    imports = fr.out.imports
    for caps in matches:
        module = fr.text(caps["module"][0])
        if "default" in caps:
            local = caps["default"][0]
            imports.append(Import(fr.text(local), module, "default", line=fr.src.line(local)))
        elif "namespace" in caps or "module_local" in caps:
            local = (caps.get("namespace") or caps["module_local"])[0]
            imports.append(Import(fr.text(local), module, None, line=fr.src.line(local)))
        elif "name" in caps:
            name = caps["name"][0]
            local = (caps.get("alias") or caps["name"])[0]
            imports.append(Import(unquote(fr.text(local)), module, unquote(fr.text(name)),
                                  line=fr.src.line(local)))  # fmt: skip


def export_records(fr: Any, matches: list[dict[str, list[Node]]]) -> None:
    """Append ``matches`` (exports.scm) to ``fr.out.exports`` as :class:`~indexer.model.Export` records,
    one per export (``fr``: the extractor's file run, definitions already read, with ``text``,
    ``out``, ``def_ids`` and ``value_ids``). ``export default F()`` is left to
    :func:`indexer.languages.ecmascript.returned_objects.exported_results`."""
    exports = fr.out.exports
    for caps in matches:
        if "star" in caps:
            exports.append(Export("*", module=fr.text(caps["module"][0])))
        elif "default_local" in caps:
            exports.append(Export("default", local=fr.text(caps["default_local"][0])))
        elif "default_factory" in caps:  # `export default F()`: returned_objects.exported_results
            continue
        elif "wrapped_local" in caps:  # `export default trace(opts)(f)`: `f`, a function or class of this file
            if any(d.parent is None and d.name == (local := fr.text(caps["wrapped_local"][0])) and d.kind in ("function", "class") for d in fr.out.definitions):
                exports.append(Export("default", local=local))
        elif "var" in caps:
            var = caps["var"][0]
            # A declarator the definitions query matched is exported as a definition. A value made a
            # definition keeps its Export record: an importer resolves the name as before, through
            # its declared type first (`export const ZodString: $constructor<ZodString> = ...`).
            parent = var.parent
            if parent is not None and (parent.id not in fr.def_ids or parent.id in fr.value_ids):
                exports.append(Export(fr.text(var), local=fr.text(var)))
        elif "module" in caps:  # re-export
            name = caps.get("name")
            exported = (caps.get("exported") or caps["name"])[0]
            exports.append(
                Export(
                    unquote(fr.text(exported)),
                    module=fr.text(caps["module"][0]),
                    name=unquote(fr.text(name[0])) if name else None,
                )
            )
        else:
            exported = (caps.get("exported") or caps["local"])[0]
            local = (caps.get("local") or caps["exported"])[0]
            exports.append(Export(unquote(fr.text(exported)), local=fr.text(local)))
    # One record per export: `exports.m = function () {}` written twice (in `if` / `else`) is one.
    exports[:] = list({(e.exported, e.local, e.module, e.name): e for e in exports}.values())
