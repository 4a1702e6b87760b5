"""Generate Python repositories that look like real code, for the scale benchmark (``bench/scale_bench.py``).

    python bench/gen_repos.py OUT --repos 465 --files 210 [--seed 1]

Each repository ``OUT/genNNNN`` is an installable-looking package (``pyproject.toml``, ``README.md``,
``src/<package>/...``): subpackages of about ten modules, each module importing names from modules
below it in the layering (``from <package>.<sub>.<module> import Class, function``), from its own
subpackage and, for every repository after the first few, from one to three *earlier* repositories
(as a service depends on shared libraries: cross-repository calls). A module defines two or three
classes (one inheriting from an imported class) of four to seven methods, and five to eight
functions; bodies call imported functions, construct imported classes and call their methods, call
``self``'s methods and the module's own functions, with docstrings, type hints, loops, conditions
and exceptions, so a file of ~250 lines gives the indexer about as many definitions, calls and
imports per line as hand-written service code (about 100 graph edges per file).

Names come from word lists (``OrderRepository.load_invoice``), seeded per repository: the same
arguments write the same bytes. Nothing is downloaded; pure standard library.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

NOUNS = ("order", "invoice", "customer", "account", "payment", "shipment", "product", "cart", "ledger", "report",
         "session", "token", "user", "profile", "message", "channel", "event", "metric", "record", "batch",
         "schedule", "task", "job", "queue", "cache", "policy", "rule", "price", "discount", "tax", "address",
         "warehouse", "stock", "supplier", "contract", "ticket", "comment", "document", "archive", "snapshot")
VERBS = ("load", "save", "build", "validate", "resolve", "compute", "merge", "split", "render", "parse", "encode",
         "decode", "fetch", "store", "publish", "notify", "schedule", "retry", "apply", "collect", "normalize",
         "refresh", "sync", "check", "update", "create", "remove", "find", "count", "export")
ROLES = ("Repository", "Service", "Manager", "Handler", "Builder", "Client", "Validator", "Serializer", "Store",
         "Processor", "Adapter", "Factory", "Gateway", "Policy", "Registry")
AREAS = ("core", "api", "domain", "storage", "billing", "auth", "events", "jobs", "reports", "utils", "io",
         "pricing", "search", "sync", "admin")


@dataclass
class Module:
    """One generated module: its dotted name, the classes (name -> method names) and functions it defines."""

    dotted: str
    classes: dict[str, list[str]] = field(default_factory=dict)
    functions: list[str] = field(default_factory=list)


def _name(rng: random.Random, taken: set[str], make) -> str:
    for _ in range(50):
        name = make()
        if name not in taken:
            taken.add(name)
            return name
    name = f"{make()}_{len(taken)}"
    taken.add(name)
    return name


def plan_repo(index: int, files: int, seed: int) -> tuple[str, list[Module]]:
    """The package name and modules (names only) of repository ``index`` with ``files`` modules."""
    rng = random.Random(seed * 1_000_003 + index)
    package = f"{rng.choice(NOUNS)}_{rng.choice(AREAS)}_{index:04d}"
    modules: list[Module] = []
    subs = max(1, files // 10)
    for j in range(files):
        sub = f"{AREAS[(j % subs) % len(AREAS)]}{(j % subs) // len(AREAS) or ''}"
        noun = NOUNS[(j * 7 + index) % len(NOUNS)]
        mod = Module(f"{package}.{sub}.{noun}_{j // subs}")
        taken: set[str] = set()
        for _ in range(rng.randint(2, 3)):
            cls = _name(rng, taken, lambda: rng.choice(NOUNS).capitalize() + rng.choice(ROLES))
            mtaken: set[str] = set()
            mod.classes[cls] = [_name(rng, mtaken, lambda: f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}")
                                for _ in range(rng.randint(4, 7))]
        mod.functions = [_name(rng, taken, lambda: f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}")
                         for _ in range(rng.randint(5, 8))]
        modules.append(mod)
    return package, modules


def _body(rng: random.Random, local: list[str], imported: list[tuple[str, Module]], own_methods: list[str],
          indent: str, param: str) -> list[str]:
    """Statements calling what the module can see: imported functions and classes, its own functions,
    ``self``'s methods (``own_methods``: empty outside a class)."""
    lines = [f'{indent}"""{rng.choice(VERBS).capitalize()} the {rng.choice(NOUNS)} from {param}."""',
             f"{indent}result = []"]
    for k in range(rng.randint(3, 5)):
        choice = rng.random()
        if choice < 0.45 and imported:
            _, mod = rng.choice(imported)
            if mod.classes and rng.random() < 0.6:
                cls = rng.choice(list(mod.classes))
                var = f"{cls[0].lower()}{k}"
                lines += [f"{indent}{var} = {cls}({param})",
                          f"{indent}result.append({var}.{rng.choice(mod.classes[cls])}({param}))"]
            else:
                lines.append(f"{indent}result.append({rng.choice(mod.functions)}({param}))")
        elif choice < 0.7 and own_methods:
            lines.append(f"{indent}result.append(self.{rng.choice(own_methods)}({param}))")
        elif choice < 0.9 and local:
            lines += [f"{indent}for item in result[:{rng.randint(2, 9)}]:",
                      f"{indent}    if item is not None:",
                      f"{indent}        result.append({rng.choice(local)}(item))"]
        else:
            lines += [f"{indent}try:",
                      f"{indent}    value = len({param}) if hasattr({param}, '__len__') else 0",
                      f"{indent}except (TypeError, ValueError) as exc:",
                      f"{indent}    raise RuntimeError(f\"cannot {rng.choice(VERBS)} {{exc}}\") from exc",
                      f"{indent}result.append(value)"]
    lines.append(f"{indent}return result")
    return lines


def render(rng: random.Random, mod: Module, imports: list[tuple[str, Module]], siblings_local: list[str]) -> str:
    """The source of ``mod``: its imports of ``imports`` ((dotted, module) pairs) then its definitions."""
    out = [f'"""{mod.dotted.rsplit(".", 1)[1].replace("_", " ").capitalize()}: '
           f'{rng.choice(VERBS)} and {rng.choice(VERBS)} {rng.choice(NOUNS)}s."""', "",
           "from __future__ import annotations", "", "import logging", ""]
    visible: list[tuple[str, Module]] = []
    for dotted, other in imports:
        names = sorted(set(rng.sample(list(other.classes), min(2, len(other.classes)))
                           + rng.sample(other.functions, min(3, len(other.functions)))))
        out.append(f"from {dotted} import {', '.join(names)}")
        visible.append((dotted, Module(dotted, {c: other.classes[c] for c in names if c in other.classes},
                                       [f for f in names if f in other.functions])))
    out += ["", "log = logging.getLogger(__name__)", ""]
    local = list(siblings_local)
    bases = [c for _, m in visible for c in m.classes]
    for fn in mod.functions:
        out += ["", f"def {fn}(value: object) -> list:"]
        out += _body(rng, local, visible, [], "    ", "value")
        local.append(fn)
        out.append("")
    for cls, methods in mod.classes.items():
        base = f"({rng.choice(bases)})" if bases and rng.random() < 0.4 else ""
        out += ["", f"class {cls}{base}:", f'    """The {cls[0].lower() + cls[1:]} of {mod.dotted}."""', "",
                "    def __init__(self, source: object = None) -> None:", "        self.source = source", ""]
        for meth in methods:
            out += [f"    def {meth}(self, value: object) -> list:"]
            out += _body(rng, local, visible, [m for m in methods if m != meth], "        ", "value")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def write_repo(out: Path, index: int, files: int, seed: int, earlier: list[tuple[str, list[Module]]]) -> int:
    """Write repository ``index`` under ``out`` (its modules import from ``earlier`` repositories'
    modules too); returns the bytes written."""
    package, modules = plan_repo(index, files, seed)
    rng = random.Random(seed * 7_919 + index)
    root = out / f"gen{index:04d}"
    src = root / "src"
    deps = rng.sample(earlier, min(len(earlier), rng.randint(1, 3))) if earlier else []
    written = 0
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "{package}"\nversion = "1.{index}.0"\n'
        f'dependencies = [{", ".join(repr(d[0]) for d in deps)}]\n', encoding="utf-8")
    (root / "README.md").write_text(f"# {package}\n\nGenerated service code for the ripplegraph scale benchmark.\n",
                                    encoding="utf-8")
    packages = {m.dotted.rsplit(".", 1)[0] for m in modules}
    for pkg in sorted(packages | {package}):
        init = src.joinpath(*pkg.split(".")) / "__init__.py"
        init.parent.mkdir(parents=True, exist_ok=True)
        init.write_text(f'"""{pkg}."""\n', encoding="utf-8")
    for j, mod in enumerate(modules):
        lower = modules[max(0, j - 40):j]
        same = [m for m in lower if m.dotted.rsplit(".", 1)[0] == mod.dotted.rsplit(".", 1)[0]]
        picks = rng.sample(lower, min(len(lower), rng.randint(2, 4))) + same[-1:]
        if deps and rng.random() < 0.5:
            _, dep_modules = rng.choice(deps)
            picks.append(rng.choice(dep_modules))
        seen: dict[str, Module] = {m.dotted: m for m in picks}
        text = render(rng, mod, sorted(seen.items()), [])
        path = src.joinpath(*mod.dotted.split(".")).with_suffix(".py")
        path.write_text(text, encoding="utf-8")
        written += len(text)
    return written


def generate(out: Path, repos: int, files: int, seed: int = 1, start: int = 0) -> int:
    """Write ``repos`` repositories of ``files`` modules each into ``out`` (numbered from ``start``);
    returns the source bytes written. A repository folder already there is written again."""
    earlier: list[tuple[str, list[Module]]] = [plan_repo(i, files, seed) for i in range(max(0, start - 20), start)]
    total = 0
    for i in range(start, start + repos):
        total += write_repo(out, i, files, seed, earlier[-20:])
        earlier.append(plan_repo(i, files, seed))
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--repos", type=int, default=465)
    ap.add_argument("--files", type=int, default=210, help="modules per repository")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.repos < 0 or args.files < 1:
        print("--repos must be >= 0 and --files >= 1", file=sys.stderr)
        return 2
    total = generate(args.out, args.repos, args.files, args.seed)
    print(f"{args.repos} repositories x {args.files} modules, {total / 2**20:.1f} MiB of source in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
