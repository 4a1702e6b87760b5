"""The module rules of ARCHITECTURE.md that import-linter cannot state, checked on the source with
``ast`` (nothing is imported):

* no private name crosses a module boundary: no ``from our.module import _name`` (under
  ``if TYPE_CHECKING:`` too) and no ``our_module._name`` on a product module imported under a name;
* no import cycle among product modules, counting imports inside functions (they run too) but not
  those under ``if TYPE_CHECKING:`` (they never run);
* no product module over :data:`MAX_LINES` lines.

The checker is tested on a small synthetic package first, so a check that finds nothing has been
shown able to find something.
"""

from __future__ import annotations

import ast
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT_PACKAGES = ("analysis", "indexer", "stores", "lsp_server")
MAX_LINES = 1000

# Violations known and accepted, each to be removed when fixed (the test fails when a listed violation
# no longer occurs, so this set only shrinks). Empty since the resolver split of issue 13.
KNOWN_VIOLATIONS: frozenset[str] = frozenset()


@dataclass
class ModuleInfo:
    """One parsed module: its dotted ``name``, ``lines``, the product modules it imports (outside
    ``if TYPE_CHECKING:``) and the private names it takes from other product modules."""

    name: str
    lines: int
    imports: set[str] = field(default_factory=set)
    private: set[str] = field(default_factory=set)


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else ``None``."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


class _Visitor(ast.NodeVisitor):
    """Collects one module's imports of product modules (not those under ``if TYPE_CHECKING:``,
    which never run) and its uses of other modules' private names (type-only ones included: a
    private name is private to its module whatever uses it for)."""

    def __init__(self, info: ModuleInfo, package: str, modules: set[str]) -> None:
        self.info, self.package, self.modules = info, package, modules
        self.aliases: dict[str, str] = {}  # local name -> product module it is bound to
        self.type_only = False  # inside `if TYPE_CHECKING:`: private names count, imports do not

    def _imports(self, module: str) -> None:
        if not self.type_only:
            self.info.imports.add(module)

    def _target(self, module: str) -> str | None:
        """The product module ``module`` names (itself, else ``None``)."""
        return module if module in self.modules else None

    def visit_If(self, node: ast.If) -> None:  # noqa: N802 (ast's naming)
        if _is_type_checking(node.test) and not self.type_only:
            self.type_only = True
            for child in node.body:
                self.visit(child)
            self.type_only = False
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:  # noqa: N802
        for alias in node.names:
            target = self._target(alias.name)
            if target is not None:
                self._imports(target)
            if alias.asname and target is not None:
                self.aliases[alias.asname] = target

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:  # noqa: N802
        base = node.module or ""
        if node.level:
            anchor = self.package.split(".")[: len(self.package.split(".")) - node.level + 1]
            base = ".".join([*anchor, base]) if base else ".".join(anchor)
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if sub in self.modules:  # `from package import module`
                self._imports(sub)
                self.aliases[alias.asname or alias.name] = sub
            elif base in self.modules:
                self._imports(base)
                if _private(alias.name) and base != self.info.name:
                    self.info.private.add(f"{base}.{alias.name}")

    def visit_Attribute(self, node: ast.Attribute) -> None:  # noqa: N802
        if _private(node.attr):
            dotted = _dotted(node.value)
            if dotted is not None:
                head, _, rest = dotted.partition(".")
                module = self.aliases.get(head)
                if module is not None:
                    module = f"{module}.{rest}" if rest else module
                elif dotted in self.modules:
                    module = dotted
                if module in self.modules and module != self.info.name:
                    self.info.private.add(f"{module}.{node.attr}")
        self.generic_visit(node)


def scan(root: Path, packages: tuple[str, ...]) -> dict[str, ModuleInfo]:
    """Every module of ``packages`` under ``root``, parsed."""
    paths = {_module_name(root, p): p for pkg in packages for p in sorted((root / pkg).rglob("*.py"))}
    modules = set(paths)
    out: dict[str, ModuleInfo] = {}
    for name, path in paths.items():
        text = path.read_text(encoding="utf-8")
        info = ModuleInfo(name, len(text.splitlines()))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        _Visitor(info, package, modules).visit(ast.parse(text, str(path)))
        info.imports.discard(name)
        out[name] = info
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def violations(root: Path, packages: tuple[str, ...], max_lines: int = MAX_LINES) -> set[str]:
    """Every rule broken under ``root``, one string each: ``cycle: a <-> b <-> c`` (the modules of
    one cycle, sorted), ``private: a uses b._name``, ``too long: a``."""
    mods = scan(root, packages)
    out: set[str] = set()
    for component in _cycles({name: info.imports for name, info in mods.items()}):
        out.add("cycle: " + " <-> ".join(component))
    for name, info in mods.items():
        out.update(f"private: {name} uses {p}" for p in info.private)
        if info.lines > max_lines:
            out.add(f"too long: {name}")
    return out


# ------------------------------------------------------------------------- the checker works


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_checker_finds_each_kind_of_violation(tmp_path: Path) -> None:
    _write(tmp_path, {
        "pkg/__init__.py": "",
        # a cycle closed by a function-level import
        "pkg/a.py": "from pkg.b import helper\n",
        "pkg/b.py": "def helper():\n    from pkg import a\n    return a\n",
        # a TYPE_CHECKING import closes no cycle
        "pkg/c.py": "from typing import TYPE_CHECKING\nfrom pkg import d\nif TYPE_CHECKING:\n    from pkg.e import E, _T\n",
        "pkg/d.py": "X = 1\n",
        "pkg/e.py": "import pkg.c\nclass E: ...\n",
        # private names across modules, three ways; a module's own private names are fine
        "pkg/f.py": "from pkg.d import _hidden\nimport pkg.d as dd\nfrom pkg import d\nimport pkg.d\n"
                    "y = dd._x + d._y + pkg.d._z + d.__name__ + _own\n_own = 1\n",
        # a relative import of a private name
        "pkg/sub/__init__.py": "",
        "pkg/sub/g.py": "from ..d import _rel\nfrom . import h\n",
        "pkg/sub/h.py": "Y = 2\n",
        "pkg/long.py": "x = 1\n" * 11,
    })
    assert violations(tmp_path, ("pkg",), max_lines=10) == {
        "cycle: pkg.a <-> pkg.b",
        "private: pkg.c uses pkg.e._T",
        "private: pkg.f uses pkg.d._hidden",
        "private: pkg.f uses pkg.d._x",
        "private: pkg.f uses pkg.d._y",
        "private: pkg.f uses pkg.d._z",
        "private: pkg.sub.g uses pkg.d._rel",
        "too long: pkg.long",
    }
    assert scan(tmp_path, ("pkg",))["pkg.sub.g"].imports == {"pkg.d", "pkg.sub.h"}


def test_checker_finds_a_longer_cycle(tmp_path: Path) -> None:
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "import pkg.b\n",
        "pkg/b.py": "from pkg import c\n",
        "pkg/c.py": "def f():\n    import pkg.a\n",
        "pkg/d.py": "import pkg.a\n",  # imports into the cycle, not part of it
    })
    assert violations(tmp_path, ("pkg",)) == {"cycle: pkg.a <-> pkg.b <-> pkg.c"}


# ---------------------------------------------------------------------------- the product


def test_no_new_violations() -> None:
    new = violations(ROOT, PRODUCT_PACKAGES) - KNOWN_VIOLATIONS
    assert not new, "module rules broken (ARCHITECTURE.md):\n" + "\n".join(sorted(new))


def test_known_violations_still_occur() -> None:
    fixed = KNOWN_VIOLATIONS - violations(ROOT, PRODUCT_PACKAGES)
    assert not fixed, "fixed, so remove from KNOWN_VIOLATIONS:\n" + "\n".join(sorted(fixed))


PLUG_IN_SURFACE = {"indexer.model", "indexer.symbols", "indexer.languages.base", "indexer.frameworks",
                   "indexer.resolve.values", "indexer.resolve.context", "indexer.resolve.multimap",
                   "indexer.resolve.language"}
"""What a language folder may import of the rest of the indexer (ARCHITECTURE.md, "Adding a language")."""


def _language_folders() -> set[str]:
    base = ROOT / "indexer" / "languages"
    return {f"indexer.languages.{p.name}" for p in base.iterdir() if (p / "__init__.py").is_file()}


def test_every_language_folder_is_in_the_language_contracts() -> None:
    """A new folder left out of pyproject's import-linter contracts would be checked by neither."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    independence = next(c for c in contracts if c["type"] == "independence" and "Language folders" in c["name"])
    core = next(c for c in contracts if c.get("source_modules") == ["indexer.resolve", "indexer.frameworks"])
    folders = _language_folders()
    assert folders == {"indexer.languages.python", "indexer.languages.java", "indexer.languages.ecmascript",
                       "indexer.languages.graphql", "indexer.languages.proto", "indexer.languages.kotlin",
                       "indexer.languages.go", "indexer.languages.csharp", "indexer.languages.apex",
                       "indexer.languages.aura", "indexer.languages.sql"}
    assert set(independence["modules"]) == folders
    assert set(core["forbidden_modules"]) == folders


def test_language_folders_import_only_the_plug_in_surface() -> None:
    """A language folder reaches the rest of the indexer only through :data:`PLUG_IN_SURFACE` (the
    resolver's interpreter, the pipeline or chunking are not its business)."""
    modules = scan(ROOT, PRODUCT_PACKAGES)
    outside: set[str] = set()
    for name, info in modules.items():
        folder = ".".join(name.split(".")[:3])
        if folder not in _language_folders():
            continue
        outside |= {f"{name} -> {imp}" for imp in info.imports
                    if imp.startswith("indexer.") and not imp.startswith(folder + ".") and imp != folder
                    and imp not in PLUG_IN_SURFACE}
    assert outside == set()


def test_plug_in_surface_check_finds_a_stray_import(tmp_path: Path) -> None:
    _write(tmp_path, {
        "indexer/__init__.py": "", "indexer/chunking.py": "X = 1\n", "indexer/model.py": "M = 1\n",
        "indexer/languages/__init__.py": "", "indexer/languages/go/__init__.py": "",
        "indexer/languages/go/modules.py": "from indexer.model import M\nfrom indexer.chunking import X\n",
    })
    info = scan(tmp_path, ("indexer",))["indexer.languages.go.modules"]
    assert {i for i in info.imports if i not in PLUG_IN_SURFACE} == {"indexer.chunking"}
