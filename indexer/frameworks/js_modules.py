"""The JavaScript / TypeScript packages and path aliases of a repository, for the ECMAScript module
system: which bare import specifiers (``@acme/core``, ``zod/v4``, ``@/utils/x``) name a file of the
repository.

TypeScript path aliases come first, as the compiler reads them: the ``compilerOptions.paths`` and
``baseUrl`` of the ``tsconfig.json`` / ``jsconfig.json`` nearest above the importing file (its
``tsconfig.*.json`` siblings add theirs), ``extends`` followed within the repository (at most
:data:`MAX_EXTENDS` files, the extending file's options winning); targets of ``paths`` are relative
to ``baseUrl`` when one is set, else to the file declaring them; a pattern's ``*`` carries over, the
longest matching prefix wins; then a specifier relative to ``baseUrl``; a Vue CLI project without such a file gets Vue CLI's own ``@`` ->
``src`` alias (:func:`_vue_cli_alias`). Parsed with ``json5``
(tsconfig files allow comments and trailing commas). Then packages:

Every ``package.json`` with a ``name`` (a workspace package of a monorepo, or the repository's own
package importing itself by name, as zod's sources import ``zod/v4``) is a :class:`JsPackage`. A
specifier ``name`` or ``name/sub`` names the package with the longest matching name; its file is, in
order of preference:

* with an ``exports`` map: the target of ``"."`` / ``"./sub"`` (or of a ``"./dir/*"`` pattern), the
  targets of every condition tried, TypeScript sources first (a custom ``"@zod/source"`` or
  ``"source"`` condition usually names them), then the rest in the order written;
* without: ``source``, ``module``, ``main`` for the package itself, ``sub`` under its folder for a
  subpath; then, as TypeScript monorepos build ``src/`` into ``dist/`` (not indexed), ``src/index``
  and ``index``.

:meth:`JsModules.candidates` lists the repository-relative paths; the module system
(``indexer.languages.ecmascript.modules``) takes the first one some indexed file holds. Read by
:meth:`indexer.frameworks.link_options.LinkOptions.for_repository` with the same bounded walk as
the service boundaries (:func:`indexer.frameworks.services.walk_folders`); a ``package.json`` change
makes a watcher re-sync (:func:`indexer.frameworks.services.is_boundary_file`). Never raises on an
unreadable or malformed file: that package is left out.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import json5

from indexer.frameworks.services import read_config, walk_folders

__all__ = ["JsPackage", "TsPaths", "JsModules", "load_js_modules", "is_module_config", "MAX_PACKAGES", "MAX_EXTENDS"]

_TSCONFIG = re.compile(r"^(?:tsconfig(?:\.[\w.-]+)?|jsconfig)\.json$")

MAX_PACKAGES = 2_000
"""Most packages (and, separately, TypeScript configuration files) read from one repository."""
MAX_EXTENDS = 8
"""Longest ``extends`` chain of a TypeScript configuration followed."""

_TS_SOURCE = (".ts", ".tsx", ".mts", ".cts")
_DECLARATION = (".d.ts", ".d.mts", ".d.cts")


@dataclass(frozen=True, slots=True)
class JsPackage:
    """A package of the repository: ``name`` as ``package.json`` writes it, its ``folder``
    (repository-relative, ``""`` at the root), its ``exports`` (subpath -> targets as written,
    in the order written) and its ``entries`` (``source``, ``module``, ``main``, when written)."""

    name: str
    folder: str
    exports: tuple[tuple[str, tuple[str, ...]], ...] = ()
    entries: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TsPaths:
    """What one TypeScript configuration folder says of module names: ``folder`` (repository-relative,
    ``""`` at the root; it applies to the files under it), ``base`` (its ``baseUrl`` resolved, or
    ``None``) and ``paths`` (pattern -> repository-relative targets, ``*`` kept)."""

    folder: str
    base: str | None = None
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def candidates(self, spec: str) -> list[str]:
        """Paths ``spec`` may name through these aliases: the longest matching pattern's targets,
        then ``base/spec``."""
        best: tuple[int, list[str]] | None = None
        for pattern, targets in self.paths:
            head, star, tail = pattern.partition("*")
            if not star:
                if spec == pattern and (best is None or len(head) > best[0]):
                    best = (len(head) + 1, list(targets))
            elif spec.startswith(head) and spec.endswith(tail) and len(spec) >= len(head) + len(tail):
                middle = spec[len(head):len(spec) - len(tail)]
                if best is None or len(head) > best[0]:
                    best = (len(head), [t.replace("*", middle) for t in targets])
        out = [p for p in (_join("", t) for t in (best[1] if best else [])) if p is not None]
        if self.base is not None:
            joined = _join(self.base, spec)
            if joined is not None:
                out.append(joined)
        return out


@dataclass(frozen=True, slots=True)
class JsModules:
    """The repository's packages and TypeScript path aliases (see the module docstring)."""

    packages: tuple[JsPackage, ...] = ()
    aliases: tuple[TsPaths, ...] = ()

    def candidates(self, spec: str, importer: str = "") -> list[str]:
        """Repository-relative paths (normalised, suffix as written or none) that the bare specifier
        ``spec`` written in the file ``importer`` may name, preferred first: path aliases of the
        nearest configuration above ``importer``, then packages; ``[]`` when nothing of the
        repository has that name."""
        out: list[str] = []
        folder = posixpath.dirname(importer)
        scopes = [a for a in self.aliases if not a.folder or folder == a.folder or folder.startswith(a.folder + "/")]
        if scopes:
            out += max(scopes, key=lambda a: len(a.folder)).candidates(spec)
        return list(dict.fromkeys(out + self._package_candidates(spec)))

    def _package_candidates(self, spec: str) -> list[str]:
        found = [p for p in self.packages if spec == p.name or spec.startswith(p.name + "/")]
        if not found:
            return []
        pkg = max(found, key=lambda p: len(p.name))
        rest = spec[len(pkg.name):].lstrip("/")
        sub = f"./{rest}" if rest else "."
        out: list[str] = []
        if pkg.exports:
            for target in _ranked(_exported(pkg.exports, sub)):
                out.append(_join(pkg.folder, target))
            return list(dict.fromkeys(p for p in out if p is not None))
        if rest:
            out.append(_join(pkg.folder, rest))
        else:
            out += [_join(pkg.folder, e) for e in _ranked(pkg.entries)]
        out += [_join(pkg.folder, f"src/{rest}" if rest else "src/index"), _join(pkg.folder, rest or "index")]
        return list(dict.fromkeys(p for p in out if p is not None))


def is_module_config(name: str) -> bool:
    """Whether a file named ``name`` is a TypeScript / JavaScript configuration read here
    (``tsconfig.json``, ``tsconfig.app.json``, ``jsconfig.json``); ``package.json`` is a service
    boundary file already (:func:`indexer.frameworks.services.is_boundary_file`)."""
    return _TSCONFIG.match(name) is not None


def _join(folder: str, target: str) -> str | None:
    """``folder`` + a target written relative to it (``./src/x.ts``), normalised; ``None`` when it
    leaves the repository."""
    path = posixpath.normpath(posixpath.join(folder, target)) if folder else posixpath.normpath(target)
    if path.startswith("../") or path == ".." or path.startswith("/"):
        return None
    return "" if path == "." else path


def _ranked(targets: tuple[str, ...] | list[str]) -> list[str]:
    """TypeScript sources first (declarations are never indexed), then the rest, each group in order."""
    ts = [t for t in targets if t.endswith(_TS_SOURCE) and not t.endswith(_DECLARATION)]
    return ts + [t for t in targets if t not in ts and not t.endswith(_DECLARATION)]


def _exported(exports: tuple[tuple[str, tuple[str, ...]], ...], sub: str) -> list[str]:
    """The targets ``exports`` gives subpath ``sub`` (an exact key, else the longest ``*`` pattern)."""
    for key, targets in exports:
        if key == sub:
            return list(targets)
    best: tuple[int, list[str]] | None = None
    for key, targets in exports:
        head, star, tail = key.partition("*")
        if star and sub.startswith(head) and sub.endswith(tail) and len(sub) >= len(head) + len(tail):
            middle = sub[len(head):len(sub) - len(tail)]
            if best is None or len(head) > best[0]:
                best = (len(head), [t.replace("*", middle) for t in targets])
    return best[1] if best else []


def _leaves(value: object, depth: int = 0) -> Iterator[str]:
    """The target strings of an ``exports`` value (a string, a conditions object, an array), in order."""
    if depth > 8:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v, depth + 1)


def _package(folder: str, text: str) -> JsPackage | None:
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("name"), str) or not doc["name"]:
        return None
    exports: list[tuple[str, tuple[str, ...]]] = []
    raw = doc.get("exports")
    if isinstance(raw, dict) and raw and all(isinstance(k, str) and k.startswith(".") for k in raw):
        exports = [(k, tuple(_leaves(v))) for k, v in raw.items()]
    elif raw is not None and not isinstance(raw, dict) or (isinstance(raw, dict) and raw):
        exports = [(".", tuple(_leaves(raw)))]  # a string, an array or conditions for "." alone
    entries = tuple(doc[k] for k in ("source", "module", "main") if isinstance(doc.get(k), str))
    return JsPackage(doc["name"], folder, tuple(exports), entries)


def _options(base: str, rel: str) -> tuple[dict[str, object], dict[str, str]]:
    """The ``compilerOptions`` of configuration ``rel`` merged over those it ``extends`` (relative
    paths inside the repository), and for ``baseUrl`` / ``paths`` the folder of the file that set
    them (their targets are relative to it)."""
    merged: dict[str, object] = {}
    origin: dict[str, str] = {}
    chain: list[tuple[str, dict[str, object]]] = []
    seen: set[str] = set()
    current: str | None = rel
    while current is not None and current not in seen and len(chain) < MAX_EXTENDS:
        seen.add(current)
        text = read_config(base, current)
        try:
            doc = json5.loads(text) if text is not None else None
        except (ValueError, RecursionError):
            doc = None
        if not isinstance(doc, dict):
            break
        opts = doc.get("compilerOptions")
        chain.append((current, opts if isinstance(opts, dict) else {}))
        ext = doc.get("extends")
        ext = ext[0] if isinstance(ext, list) and ext else ext
        current = None
        if isinstance(ext, str) and ext.startswith("."):
            target = _join(posixpath.dirname(chain[-1][0]), ext)
            if target is not None:
                current = target if target.endswith(".json") else target + ".json"
    for path, opts in reversed(chain):  # the base first, each extending file over it
        for key in ("baseUrl", "paths"):
            if key in opts:
                merged[key] = opts[key]
                origin[key] = posixpath.dirname(path)
    return merged, origin


def _aliases(base: str, folder: str, names: list[str]) -> TsPaths | None:
    """The path aliases of the configuration files ``names`` of ``folder`` (``tsconfig.json`` first)."""
    root_base: str | None = None
    paths: dict[str, tuple[str, ...]] = {}
    for name in sorted(names, key=lambda n: (n != "tsconfig.json", n)):
        opts, origin = _options(base, f"{folder}/{name}" if folder else name)
        url = opts.get("baseUrl")
        here = _join(origin.get("baseUrl", folder), url) if isinstance(url, str) else None
        if root_base is None and here is not None:
            root_base = here
        raw = opts.get("paths")
        if isinstance(raw, dict):
            against = here if here is not None else origin.get("paths", folder)
            for pattern, targets in raw.items():
                if isinstance(pattern, str) and isinstance(targets, list) and pattern not in paths:
                    resolved = tuple(p for p in (_join(against, t) for t in targets if isinstance(t, str)) if p)
                    paths[pattern] = resolved
    if root_base is None and not paths:
        return None
    return TsPaths(folder, root_base, tuple(paths.items()))


def load_js_modules(root: str | Path) -> JsModules:
    """The packages (every ``package.json`` with a name) and TypeScript path aliases (every folder's
    ``tsconfig*.json`` / ``jsconfig.json`` setting ``baseUrl`` or ``paths``) of the repository
    checked out at ``root``, outside dependency and build folders, sorted by folder. Never raises."""
    base = str(root)
    found: list[JsPackage] = []
    aliases: list[TsPaths] = []
    for folder, files in walk_folders(base):
        if "package.json" in files and len(found) < MAX_PACKAGES:
            text = read_config(base, f"{folder}/package.json" if folder else "package.json")
            pkg = _package(folder, text) if text is not None else None
            if pkg is not None:
                found.append(pkg)
        configs = [f for f in files if _TSCONFIG.match(f)]
        ts = _aliases(base, folder, configs) if configs and len(aliases) < MAX_PACKAGES else None
        if ts is None and "package.json" in files and len(aliases) < MAX_PACKAGES:
            text = read_config(base, f"{folder}/package.json" if folder else "package.json")
            ts = _vue_cli_alias(folder, text) if text is not None else None
        if ts is not None:
            aliases.append(ts)
    return JsModules(tuple(found), tuple(aliases))


def _vue_cli_alias(folder: str, text: str) -> TsPaths | None:
    """Vue CLI's built-in alias (``@`` names the project's ``src`` folder, with no configuration file
    saying so) for a ``package.json`` depending on ``@vue/cli-service`` in a folder whose
    ``tsconfig`` / ``jsconfig`` sets no paths; ``None`` otherwise."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    deps = [data.get(k) for k in ("dependencies", "devDependencies")]
    if not any(isinstance(d, dict) and "@vue/cli-service" in d for d in deps):
        return None
    return TsPaths(folder, None, (("@/*", (_join(folder, "src/*") or "src/*",)),))
