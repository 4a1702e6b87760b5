"""The repository-wide lookup tables: which files hold each module key, which dotted packages exist,
which callables carry each short name. Patched file by file on incremental updates."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping

from indexer.resolve.context import FileCtx
from indexer.resolve.values import Def

__all__ = ["ModuleTables", "decorator_names"]


def decorator_names(rd: Def) -> set[str]:
    """The names ``rd``'s decorators go by: each one's last dotted part before its arguments
    (``login.user_loader`` -> ``user_loader``; ``app.route('/x')`` -> ``route``)."""
    return {d.split("(", 1)[0].rpartition(".")[2].strip() for d in rd.d.decorators} if rd.d.decorators else set()


class ModuleTables:
    """Modules per namespace and key, packages per namespace, callables per (namespace, short name).

    ``namespaces`` maps a language name (and each namespace itself) to its module namespace."""

    def __init__(self, namespaces: Mapping[str, str]) -> None:
        self.namespaces = namespaces
        self.modules: dict[str, dict[str, list[FileCtx]]] = defaultdict(lambda: defaultdict(list))
        self.packages: dict[str, set[str]] = defaultdict(set)  # namespace -> every dotted prefix
        self._package_files: Counter[tuple[str, str]] = Counter()
        self.callables_by_name: dict[tuple[str, str], list[Def]] = defaultdict(list)
        self.decorated: dict[tuple[str, str], list[Def]] = defaultdict(list)
        """Callables per (namespace, decorator name): the last dotted part of each decorator without its
        arguments (``@login.user_loader`` -> ``user_loader``, ``@app.route("/")`` -> ``route``)."""

    def namespace(self, lang: str) -> str:
        """The module namespace of a language (``typescript`` -> ``ecmascript``); a namespace is its own."""
        return self.namespaces.get(lang, lang)

    def add(self, fc: FileCtx) -> None:
        """Enter ``fc`` under its module keys, packages and callables."""
        ns = fc.rules.namespace
        for key in fc.rules.module_keys(fc):
            files = self.modules[ns][key]
            files.append(fc)
            if len(files) > 1:
                files.sort(key=lambda f: f.path)  # the order a full run sees
        if fc.rules.dotted_packages:
            parts = fc.module_key.split(".")
            for i in range(1, len(parts) + 1):
                self.packages[ns].add(".".join(parts[:i]))
                self._package_files[(ns, ".".join(parts[:i]))] += 1
        for rd in fc.defs:
            if rd.d.kind in ("method", "function"):
                self.callables_by_name[(ns, rd.d.name)].append(rd)
                for name in decorator_names(rd):
                    named = self.decorated[(ns, name)]
                    named.append(rd)
                    if len(named) > 1:
                        named.sort(key=lambda x: (x.file.path, x.d.start_line))

    def remove(self, fc: FileCtx) -> None:
        """Undo :meth:`add` for ``fc`` (a package goes when its last file does)."""
        ns = fc.rules.namespace
        for key in fc.rules.module_keys(fc):
            files = self.modules[ns][key]
            files[:] = [f for f in files if f is not fc]
            if not files:
                del self.modules[ns][key]
        if fc.rules.dotted_packages:
            parts = fc.module_key.split(".")
            for i in range(1, len(parts) + 1):
                prefix = (ns, ".".join(parts[:i]))
                self._package_files[prefix] -= 1
                if self._package_files[prefix] <= 0:
                    del self._package_files[prefix]
                    self.packages[ns].discard(prefix[1])
        for rd in fc.defs:
            if rd.d.kind in ("method", "function"):
                named = self.callables_by_name[(ns, rd.d.name)]
                named[:] = [x for x in named if x is not rd]
                for name in decorator_names(rd):
                    deco = self.decorated[(ns, name)]
                    deco[:] = [x for x in deco if x is not rd]
