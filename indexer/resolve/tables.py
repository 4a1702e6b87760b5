"""The repository-wide lookup tables: which files hold each module key, which dotted packages exist,
which callables and classes carry each short name, which files set a module-level string constant,
which classes give others a reverse attribute. Patched file by file on incremental updates."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from indexer.resolve.bindings import REGISTERS
from indexer.resolve.context import FileCtx, decorator_name
from indexer.resolve.multimap import entries
from indexer.resolve.name_tables import NameTable
from indexer.resolve.values import Def

if TYPE_CHECKING:
    from indexer.model import Binding

__all__ = ["ModuleTables", "constant_key", "decorator_names"]


def decorator_names(rd: Def) -> set[str]:
    """The names ``rd``'s decorators go by: each one's last dotted part before its arguments
    (``login.user_loader`` -> ``user_loader``; ``app.route('/x')`` -> ``route``)."""
    return {decorator_name(d) for d in rd.heads.decorators} if rd.shape.decorated else set()


class ModuleTables:
    """Modules per namespace and key, packages per namespace, callables per (namespace, short name).

    ``namespaces`` maps a language name (and each namespace itself) to its module namespace."""

    def __init__(self, namespaces: Mapping[str, str]) -> None:
        self.namespaces = namespaces
        self.modules: dict[str, dict[str, list[FileCtx]]] = defaultdict(lambda: defaultdict(list))
        self.packages: dict[str, set[str]] = defaultdict(set)  # namespace -> every dotted prefix
        self._package_files: Counter[tuple[str, str]] | None = None
        """How many files' package keys make each ``(namespace, prefix)`` exist: what :meth:`remove`
        reads to drop a package with its last file. Counted by :meth:`count_packages` when a removal
        first needs it, not by :meth:`add`: tables that only ever add (a one-shot run's) held a key
        tuple per file and the counter's entries for nothing (about 140 bytes a file, session 62)."""
        # per (namespace, name), held per namespace and name (indexer.resolve.name_tables): no tuple
        # key nor one-item list per name
        self.callables_by_name: NameTable[Def] = NameTable()
        self.decorated: NameTable[Def] = NameTable()
        """Callables per (namespace, decorator name): the last dotted part of each decorator without its
        arguments (``@login.user_loader`` -> ``user_loader``, ``@app.route("/")`` -> ``route``)."""
        self.registrations: NameTable[tuple[FileCtx, Binding]] = NameTable()
        """Per (namespace, decorator name), the ``registers`` bindings (a function registered by a call,
        ``jwt.user_loader_callback_loader(f)``: :data:`indexer.resolve.bindings.REGISTERS`) with their
        files, in path order."""
        self.getters: Counter[tuple[str, str]] = Counter()
        """How many getters (methods carrying one of their module system's optional
        ``getter_modifiers``: Python ``@property``, ECMAScript ``get x()``) bear each (namespace, short
        name): an attribute read whose name no getter bears runs none (:mod:`indexer.resolve.reads`)."""
        self.types_by_name: NameTable[Def] = NameTable()
        """Classes, interfaces and enums per (namespace, short name), in path order."""
        self.constant_files: NameTable[FileCtx] = NameTable()
        """Files per (namespace, module-level string constant name) (Django's ``AUTH_USER_MODEL``), in path order;
        per (namespace, ``"." + attribute``) the files of the classes setting that attribute to a string
        (``vendor = "mysql"``: ``.vendor``), which a ``getattr`` name pattern reads (:mod:`indexer.resolve.name_patterns`)."""
        self._holders: dict[tuple[str, str, bool], dict[str, list[FileCtx]]] = {}
        """Per (namespace, module key, members) looked up, the module's files per name (:meth:`holders`)."""
        self.reverse_members: NameTable[tuple[Def, str]] = NameTable()
        """Per (namespace, attribute name), the classes whose ``reverse`` bindings give instances of
        another class that attribute (:attr:`indexer.model.Binding.how`), with the binding's type text."""

    def holders(self, ns: str, key: str, name: str, members: bool = False) -> Sequence[FileCtx]:
        """The files of module ``key`` of namespace ``ns`` defining ``name`` at top level (``members``:
        as a member of some definition), in path order: a superset of those whose lookups find it
        (a replaced or shadowed definition counts too; read each with
        :func:`~indexer.resolve.multimap.entries`). The module's index, name -> files, is made on its
        first lookup and dropped when a file of that key comes or goes (:meth:`add`, :meth:`remove`),
        so a lookup of a name in a namespace of N files reads the files holding it, not N (C# and Java
        types looked up in every file of a namespace or package, and C# / Go members in every file
        of an open type's: jellyfin's resolve, docs/benchmarks.md, session 63)."""
        index = self._holders.get((ns, key, members))
        if index is None:
            index = {}
            for fc in self.modules[ns].get(key, ()):
                for n in dict.fromkeys(rd.name for rd in fc.defs if (rd.parent is not None) is members):
                    index.setdefault(n, []).append(fc)
            self._holders[(ns, key, members)] = index
        return index.get(name, ())

    def namespace(self, lang: str) -> str:
        """The module namespace of a language (``typescript`` -> ``ecmascript``); a namespace is its own."""
        return self.namespaces.get(lang, lang)

    def add(self, fc: FileCtx) -> None:
        """Enter ``fc`` under its module keys, packages and callables."""
        ns = fc.rules.namespace
        for key in fc.rules.module_keys(fc):
            self._holders.pop((ns, key, False), None)
            self._holders.pop((ns, key, True), None)
            files = self.modules[ns][key]
            files.append(fc)
            if len(files) > 1:
                files.sort(key=lambda f: f.path)  # the order a full run sees
        if fc.rules.dotted_packages:
            packages = self.packages[ns]
            for key in fc.rules.package_keys(fc):  # the module key, then a namespace folder's file's aliases
                parts = key.split(".")
                for i in range(1, len(parts) + 1):
                    # one string for the set and the count, the module key itself for the last prefix
                    # (not three equal strings: about 100 bytes a file for the run)
                    prefix = key if i == len(parts) else ".".join(parts[:i])
                    packages.add(prefix)
                    if self._package_files is not None:
                        self._package_files[(ns, prefix)] += 1
        held = fc.held()  # a name matches only what a lookup of it may reach (FileCtx.held)
        touched: set[tuple[str, str]] = set()
        for rd in fc.defs:
            if rd.kind in ("method", "function"):
                if held is None or id(rd) in held:
                    self.callables_by_name.append((ns, rd.name), rd)
                if rd.shape.getter:
                    self.getters[(ns, rd.name)] += 1
                for name in decorator_names(rd):  # a replaced one was registered all the same
                    self.decorated.append((ns, name), rd)
                    touched.add((ns, name))
            elif rd.is_type:
                self.types_by_name.insert((ns, rd.name), rd, _path_of)
        for key in touched:  # once per name: a file may carry one decorator thousands of times
            self.decorated.sort(key, _path_and_line)
        for key in dict.fromkeys(constant_key(c.qualname) for c in fc.ex.constants):  # each once per file
            self.constant_files.insert((ns, key), fc, _path_of)
        for b in fc.bindings.visible:
            if b.how == "reverse" and b.scope and b.scope in fc.by_qualname:
                self.reverse_members.insert((ns, b.name.lstrip("~")), (entries(fc.by_qualname, b.scope)[0], b.type), _path_of)
            elif b.how == REGISTERS:
                self.registrations.insert((ns, decorator_name(b.name[1:])), (fc, b), _path_of)

    def count_packages(self, files: Iterable[FileCtx]) -> None:
        """Count the files under each package (what :meth:`remove` reads) from ``files``, which must
        be exactly the files added and not removed; nothing when counted already."""
        if self._package_files is not None:
            return
        counts: Counter[tuple[str, str]] = Counter()
        held: dict[str, dict[str, str]] = {}  # per namespace, each prefix as the set holds it
        for fc in files:
            if fc.rules.dotted_packages:
                ns = fc.rules.namespace
                strings = held.get(ns)
                if strings is None:
                    strings = held[ns] = {p: p for p in self.packages[ns]}
                for key in fc.rules.package_keys(fc):
                    parts = key.split(".")
                    counts.update((ns, strings[".".join(parts[:i])]) for i in range(1, len(parts) + 1))
        self._package_files = counts

    def remove(self, fc: FileCtx) -> None:
        """Undo :meth:`add` for ``fc`` (a package goes when its last file does). Raises
        ``RuntimeError`` unless :meth:`count_packages` counted the files first."""
        if self._package_files is None:
            raise RuntimeError("the files under each package are not counted: call count_packages first")
        ns = fc.rules.namespace
        for key in fc.rules.module_keys(fc):
            self._holders.pop((ns, key, False), None)
            self._holders.pop((ns, key, True), None)
            files = self.modules[ns][key]
            files[:] = [f for f in files if f is not fc]
            if not files:
                del self.modules[ns][key]
        if fc.rules.dotted_packages:
            for key in fc.rules.package_keys(fc):
                parts = key.split(".")
                for i in range(1, len(parts) + 1):
                    prefix = (ns, ".".join(parts[:i]))
                    self._package_files[prefix] -= 1
                    if self._package_files[prefix] <= 0:
                        del self._package_files[prefix]
                        self.packages[ns].discard(prefix[1])
        gone: dict[tuple[str, str], list[Def]] = defaultdict(list)  # each list filtered once
        for rd in fc.defs:
            if rd.shape.getter:
                self.getters[(ns, rd.name)] -= 1
                if self.getters[(ns, rd.name)] <= 0:
                    del self.getters[(ns, rd.name)]
            if rd.kind in ("method", "function"):
                gone[("callable", rd.name)].append(rd)
                for name in decorator_names(rd):
                    gone[("decorated", name)].append(rd)
            elif rd.is_type:
                gone[("type", rd.name)].append(rd)
        tables = {"callable": self.callables_by_name, "decorated": self.decorated, "type": self.types_by_name}
        for (table, name), defs in gone.items():
            ids = {id(rd) for rd in defs}
            tables[table].discard((ns, name), lambda x, ids=ids: id(x) in ids)  # type: ignore[misc]
        for key in dict.fromkeys(constant_key(c.qualname) for c in fc.ex.constants):
            self.constant_files.discard((ns, key), lambda x: x is fc)
        for b in fc.bindings.visible:
            if b.how == "reverse":
                # by the class :meth:`add` entered, not by its file: a Def the next version took
                # over (FileCtx.reuse_defs) already points at that version's file
                owner = entries(fc.by_qualname, b.scope)[0] if b.scope and b.scope in fc.by_qualname else None
                self.reverse_members.discard((ns, b.name.lstrip("~")),
                                             lambda x, owner=owner: x[0].file is fc or x[0] is owner)  # type: ignore[misc]
            elif b.how == REGISTERS:
                self.registrations.discard((ns, decorator_name(b.name[1:])), lambda x: x[0] is fc)


def constant_key(qualname: str) -> str:
    """The key a string constant is found by: a module-level one's name (``AUTH_USER_MODEL``), a
    class's ``"." + attribute`` (``Wrapper.vendor`` -> ``.vendor``)."""
    return qualname if "." not in qualname else "." + qualname.rpartition(".")[2]


def _path_and_line(rd: Def) -> tuple[str, int]:
    return (rd.file.path, rd.line)


def _path_of(item: object) -> str:
    """The path of the file ``item`` (a file, a definition, or a tuple led by one) belongs to: the
    order a full run sees the items of a table in."""
    if isinstance(item, tuple):
        item = item[0]
    return item.path if isinstance(item, FileCtx) else item.file.path  # type: ignore[union-attr]
