"""The Python extractor's walk of imports: every name an ``import`` statement binds, wherever it is in
the file, and the modules imported at run time by a literal name (``importlib.import_module("a.b")``,
``__import__("a.b")``), bound as the import statement would bind them.

Mixed into the extractor (:mod:`indexer.languages.python.extractor`, which provides ``src``, ``out`` and
``root``).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import query, run_query
from indexer.languages.python.syntax import DOTTED, GRAMMAR, WS, literal_string
from indexer.model import Import

__all__ = ["ImportStatements"]


class ImportStatements:
    """Mixin of the Python extractor: :meth:`imports` fills ``out.imports`` (see the module's docstring)."""

    def imports(self) -> None:
        """Every name bound by an import statement, wherever it is in the file."""
        src, out = self.src, self.out.imports
        for _, caps in run_query(query(GRAMMAR, "python/queries", "imports"), self.root):
            if "dynamic.local" in caps:
                self._dynamic_import(caps)
                continue
            local = src.text(caps["local"][0]) if "local" in caps else None
            if "prefix" not in caps and "from" not in caps:  # import a.b / import a.b as c
                module = caps["module"][0]
                text = WS.sub("", src.text(module))
                out.append(Import(local or text, text, None, 0, src.line(module)))
                continue
            from_module = WS.sub("", src.text(caps["from"][0])) if "from" in caps else ""
            level = src.text(caps["prefix"][0]).count(".") if "prefix" in caps else 0
            if "star" in caps:
                out.append(Import("*", from_module, None, level, src.line(caps["star"][0])))
                continue
            name_node = caps["name"][0]
            name = WS.sub("", src.text(name_node))
            out.append(Import(local or name, from_module, name, level, src.line(name_node)))

    def _dynamic_import(self, caps: dict[str, list[Node]]) -> None:
        """Record the import :meth:`_dynamically_imported` finds in ``mod = <call>``."""
        module = self._dynamically_imported(caps["dynamic.local"][0].parent.child_by_field_name("right"))
        if module is not None:
            local = caps["dynamic.local"][0]
            self.out.imports.append(Import(self.src.text(local), module, None, 0, self.src.line(local)))

    def _dynamically_imported(self, value: Node | None) -> str | None:
        """The module ``value`` imports at run time, bound as an import would bind it:
        ``importlib.import_module("a.b")`` / ``import_module("a.b")`` -> ``a.b`` (``import a.b as
        mod``); ``__import__("a.b")`` -> ``a`` (it returns the top package). Only an absolute
        dotted name written as a literal first argument; ``None`` for anything else (a relative
        name, ``import_module(".x", pkg)``, or one built at run time)."""
        if value is None or value.type != "call":
            return None
        function, args = value.child_by_field_name("function"), value.child_by_field_name("arguments")
        text = WS.sub("", self.src.text(function)) if function is not None else ""
        if text not in ("importlib.import_module", "import_module", "__import__") or args is None:
            return None
        first = next((a for a in args.named_children if a.type != "comment"), None)
        name = literal_string(self.src.text(first)) if first is not None and first.type == "string" else None
        if name is None or not DOTTED.fullmatch(name):
            return None
        return name.split(".", 1)[0] if text == "__import__" else name
