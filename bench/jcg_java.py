"""Benchmark: ripple's Java call graph on JCG, the call-graph suite of Reif et al. (ISSTA 2019).

Usage::

    python bench/jcg_java.py RESOURCES [--category CAT ...] [--json] [--show CATEGORY/CASE]

``RESOURCES`` is JCG's ``jcg_testcases/src/main/resources`` folder (``opalj/JCG``, not part of this
repository); its ``java/<Category>.md`` files are read by :mod:`bench.jcg_cases`. ``--show`` takes
``VirtualCalls/VC1`` and prints that case's numbered sources, its annotations and every CALLS edge.

Expected edges. A Java case states them as annotations on the calling method in its sources::

    @DirectCall(name = "method", line = 15, resolvedTargets = "Lvc/ClassImpl;",
                prohibitedTargets = {"Lvc/Class;"})

(also ``@DirectCalls({...})``, ``@IndirectCall`` / ``@IndirectCalls`` for calls made by the JVM or
the library, ``returnType`` and ``parameterTypes``). One annotation names the call site's line in its
own file, the callee's name and the classes, in JVM descriptor form, whose method of that name must
be a target (``resolvedTargets``) or must not be (``prohibitedTargets``). JCG's case extractor writes
a listing without its first line (``// vc/Class.java``, the file's path), and the annotations' lines
count from there: this scorer writes the files the same way (``bench.jcg_cases.write_case`` keeps the
path line, so its files are one line off).

Every case's files are written to a temporary folder and indexed there in this process as ``ripple
index --no-embed`` does (``indexer.pipeline.index_repository`` into a fresh
``stores.embedded.EmbeddedStore``, one extraction process, no cache, no registry entry). Its CALLS
edges, nodes and unresolved call sites are then read from the SQLite file.

Conventions mapped between the two:

- a call site is the edge's file and line: ripple's CALLS edge goes from the enclosing definition
  (a method, a constructor; a field initialiser's calls from the field's class or the field), JCG's
  annotation from the method it sits on; only the line is compared, so which enclosing node ripple
  picks does not matter;
- a ripple node's JVM class is its file's ``package`` plus its qualname's class part, nested classes
  joined by ``$`` (qualname ``Outer.Inner.m`` in package ``p`` is ``p.Outer$Inner``, member ``m``);
- ``<init>`` (a constructor): a CALLS edge to a Constructor node of the class, or to the Class node
  itself, ripple's target of ``new X()`` when ``X`` declares no constructor (the JVM's implicit
  default constructor);
- ``<clinit>`` (a static initialiser) has no node in ripple; no JCG Java case annotates a call of it;
- overloads are not told apart: JCG's ``parameterTypes`` / ``returnType`` are read but not compared
  (a case that links the wrong overload of the right class counts as found);
- JCG tests reachability from the case's ``MAIN`` too (an annotation of a method never reached is
  unsound in JCG); ripple indexes every method, so only the edges are scored, not reachability.

Scoring policy. Each resolved target of an annotation is *internal* when the case's sources define
its class, *external* otherwise (``Ljava/lang/Object;``, ``Ljava/io/ObjectInputStream;``): ripple
makes no node for the JDK, so external targets are counted, not scored; one is *seen* when ripple
kept an unresolved call site of that name at that line. For the internal ones:

- ``found``: a CALLS edge from the annotation's file and line to ``<class>.<name>``;
- ``moved`` (``@IndirectCall`` only, not counted as found): not found at the line, but the annotated
  method has a CALLS edge to the target at another line. JCG puts an indirect call where the JVM or
  the library makes it (``bc.get()`` running the method reference ``cls::method``,
  ``handle.invokeExact()`` running a looked-up method); ripple links the code that names the target
  from its enclosing method: a method reference at the reference, a lambda's calls at the lambda
  (its body belongs to the enclosing method, ``indexer/model.py``), a method handle at its
  ``findVirtual(X.class, "m", ...)``. The caller is the same, so impact analysis reaches it; the
  line is not;
- ``prohibited``: a CALLS edge from that line to a prohibited class's ``<name>`` (a false positive
  JCG names);
- ``extra``: an edge from that line to a method of that name in a class that is neither resolved nor
  prohibited (informational: JCG does not count these);
- a case is ``exact`` when it has at least one internal target, every one is found and no prohibited
  target is linked; ``scored`` counts the cases with an internal target.

Categories are reported in two groups. ``static``: what a name- and type-based static tool can
bind (VirtualCalls, NonVirtualCalls, Types, Java8InterfaceMethods, StaticInitializers, Library).
``dynamic``: the JVM or the library makes the call (Reflection, ModernReflection, Serialization,
Unsafe, Classloading, DynamicProxies, JVMCalls, Java8Invokedynamics, SignaturePolymorphicMethods):
scored the same way, reported apart, largely out of ripple's reach by design.

Prints, per category and per group: cases, scored cases, exact, annotations, internal targets, found,
recall (found / internal targets), moved, prohibited linked, extras, external targets and how many of them ripple saw. ``--json`` prints the
per-case data instead.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.jcg_cases import JcgCase, language_files, read_cases  # noqa: E402

REPO = "r"
STATIC = ("VirtualCalls", "NonVirtualCalls", "Types", "Java8InterfaceMethods", "StaticInitializers", "Library")
"""Categories whose calls a static, type- and name-based call graph can bind."""

_ANNOTATION = re.compile(r"@(?P<kind>DirectCall|IndirectCall)\s*\(")
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)
_DESCRIPTOR = re.compile(r"L([\w/$]+);")
_CLASS_DECL = re.compile(r"\b(?:class|interface|enum|record)\s+(\w+)")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


@dataclass(frozen=True)
class Annotation:
    """One ``@DirectCall`` / ``@IndirectCall``: the call site (``file``, ``line``), the callee's
    ``name`` (``<init>`` for a constructor), ``resolved`` and ``prohibited`` target classes in dotted
    JVM form (``vc.Class``, ``vc.Outer$Inner``), ``kind`` (``DirectCall`` or ``IndirectCall``) and
    ``at``, the annotation's own line."""

    kind: str
    file: str
    line: int
    name: str
    resolved: tuple[str, ...]
    prohibited: tuple[str, ...] = ()
    at: int = 0
    """The line the annotation itself starts on (inside the annotated method's span)."""


def _balanced(text: str, start: int) -> int:
    """Index just past the parenthesis closing the one opened before ``start``; string literals are
    skipped. Raises ``ValueError`` when it is not closed."""
    depth, i = 1, start
    while i < len(text):
        ch = text[i]
        if ch == '"':
            m = _STRING.match(text, i)
            i = m.end() if m else i + 1
            continue
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unclosed annotation")


def _split_top(text: str) -> list[str]:
    """``text`` split at the commas outside braces, parentheses and strings."""
    parts, depth, cur, i = [], 0, [], 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            m = _STRING.match(text, i)
            end = m.end() if m else i + 1
            cur.append(text[i:end])
            i = end
            continue
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def descriptor_classes(value: str) -> tuple[str, ...]:
    """The classes of a ``resolvedTargets`` value (``"Lvc/Class;"`` or ``{"La/B;", "La/C$D;"}``) in
    dotted form (``vc.Class``, ``a.C$D``), in order."""
    return tuple(m.group(1).replace("/", ".") for s in _STRING.findall(value) for m in _DESCRIPTOR.finditer(s))


def parse_annotations(path: str, text: str) -> list[Annotation]:
    """Every ``@DirectCall`` / ``@IndirectCall`` in one source file, nested ones (``@DirectCalls({..})``)
    included, in text order.

    Args:
        path: the file's path, recorded as each annotation's ``file``.
        text: the file's text as JCG writes it (its lines are the annotations' ``line`` values).

    Raises:
        ValueError: an annotation without ``name`` or ``line``, or with unbalanced parentheses (the
            message names the file and the annotation's own line).
    """
    out = []
    for m in _ANNOTATION.finditer(text):
        end = _balanced(text, m.end())
        fields: dict[str, str] = {}
        for part in _split_top(text[m.end():end - 1]):
            key, sep, value = part.partition("=")
            if sep:
                fields[key.strip()] = value.strip()
        at = text.count("\n", 0, m.start()) + 1
        where = f"{path}:{at}"
        name = _STRING.fullmatch(fields.get("name", ""))
        line = fields.get("line", "")
        if not name or not line.isdigit():
            raise ValueError(f"{where}: @{m.group('kind')} without a literal name and line")
        out.append(Annotation(m.group("kind"), path, int(line), name.group(1),
                              descriptor_classes(fields.get("resolvedTargets", "")),
                              descriptor_classes(fields.get("prohibitedTargets", "")), at))
    return out


def jcg_files(case: JcgCase) -> dict[str, str]:
    """The case's files as JCG's extractor writes them: each listing without its path line."""
    return {rel: text.split("\n", 1)[1] if "\n" in text else "" for rel, text in case.files.items()}


def declared_classes(files: dict[str, str]) -> set[str]:
    """The dotted JVM names of the top-level and nested types the files declare, as far as a
    declaration's name tells (``class A`` in package ``p``: ``p.A``; nested ones also as ``p.A$B``
    through any enclosing declared name, a superset that only decides internal vs external)."""
    out: set[str] = set()
    for text in files.values():
        pkg = _PACKAGE.search(text)
        prefix = pkg.group(1) + "." if pkg else ""
        names = _CLASS_DECL.findall(text)
        out.update(prefix + n for n in names)
        out.update(f"{prefix}{a}${b}" for a in names for b in names if a != b)
    return out


@dataclass
class Target:
    """Where one ripple node sits in JVM terms: its ``cls`` (dotted, ``$`` for nesting) and ``member``
    (a method's name, ``<init>`` for a constructor or for a Class node called as one)."""

    cls: str
    member: str


def node_target(label: str, qualname: str, package: str) -> Target | None:
    """A ripple node's JVM class and member; ``None`` for nodes no call targets (files, fields).

    ``Class`` / ``Interface`` / ``Enum`` nodes are ``<init>`` of themselves (``new X()`` of a class
    without a constructor is a CALLS edge to the class); a ``Constructor`` is ``<init>`` of its class.
    """
    prefix = package + "." if package else ""
    parts = qualname.split(".")
    if label in ("Class", "Interface", "Enum"):
        return Target(prefix + "$".join(parts), "<init>")
    if label in ("Method", "Function", "Constructor") and len(parts) >= 2:
        member = "<init>" if label == "Constructor" else parts[-1]
        return Target(prefix + "$".join(parts[:-1]), member)
    return None


@dataclass
class Graph:
    """What ripple stored for one case: CALLS edges as ``(file, line) -> [Target]`` and by caller
    (``node id -> [Target]``), the spans of methods and constructors (``file -> [(start, end, id)]``),
    unresolved call sites as ``(file, line) -> {name}``, plus every edge for ``--show``."""

    calls: dict[tuple[str, int], list[Target]] = field(default_factory=dict)
    by_caller: dict[str, list[Target]] = field(default_factory=dict)
    spans: dict[str, list[tuple[int, int, str]]] = field(default_factory=dict)
    unresolved: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    listing: list[str] = field(default_factory=list)

    def method_at(self, file: str, line: int) -> str | None:
        """The id of the innermost method or constructor of ``file`` spanning ``line``, if any."""
        inside = [(end - start, nid) for start, end, nid in self.spans.get(file, ()) if start <= line <= end]
        return min(inside)[1] if inside else None


def ripple_graph(files: dict[str, str]) -> Graph:
    """Index ``files`` (relative path -> text) in a temporary folder; ripple's CALLS edges keyed by
    the call's file and line."""
    from bench.suite_index import index_read_only

    packages = {rel: (m.group(1) if (m := _PACKAGE.search(text)) else "") for rel, text in files.items()}
    with tempfile.TemporaryDirectory(prefix="jcg-") as tmp:
        src = Path(tmp) / "src"
        for rel, text in files.items():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            (src / rel).write_text(text, encoding="utf-8")
        db = Path(tmp) / "index.db"
        conn = index_read_only(src, db, REPO)
        try:
            rows = conn.execute("SELECT id, label, qualname, file, start_line, end_line FROM nodes").fetchall()
            nodes = {nid: (label, qualname, file) for nid, label, qualname, file, _, _ in rows}
            calls = conn.execute("SELECT src, dst, file, line, resolution FROM edges WHERE kind = 'CALLS' "
                                 "ORDER BY file, line, col").fetchall()
            unresolved = conn.execute("SELECT caller, name, receiver, file, line FROM unresolved").fetchall()
        finally:
            conn.close()
    graph = Graph()
    for nid, label, _, file, start, end in rows:
        if label in ("Method", "Constructor"):
            graph.spans.setdefault(file, []).append((start, end, nid))
    for s, d, file, line, resolution in calls:
        label, qualname, dfile = nodes.get(d, ("?", d, ""))
        target = node_target(label, qualname, packages.get(dfile, ""))
        if target is not None:
            graph.calls.setdefault((file, line), []).append(target)
            graph.by_caller.setdefault(s, []).append(target)
        graph.listing.append(f"{file}:{line} {nodes.get(s, ('?', s))[1]} -> {label} {qualname}"
                             f" [{resolution}]")
    for caller, name, receiver, file, line in unresolved:
        graph.unresolved.setdefault((file, line), set()).add(name)
        graph.listing.append(f"{file}:{line} {nodes.get(caller, ('?', caller))[1]} -> unresolved "
                             f"{receiver + '.' if receiver else ''}{name}")
    return graph


@dataclass
class CaseResult:
    """One case's score; each set holds ``(file, line, name, class)`` items."""

    name: str
    annotations: int = 0
    expected: set[tuple] = field(default_factory=set)
    found: set[tuple] = field(default_factory=set)
    moved: set[tuple] = field(default_factory=set)
    prohibited: set[tuple] = field(default_factory=set)
    extra: set[tuple] = field(default_factory=set)
    external: set[tuple] = field(default_factory=set)
    external_seen: set[tuple] = field(default_factory=set)
    error: str | None = None

    @property
    def category(self) -> str:
        return self.name.split("/")[0]

    @property
    def missing(self) -> set[tuple]:
        return self.expected - self.found

    @property
    def scored(self) -> bool:
        return bool(self.expected)

    @property
    def exact(self) -> bool:
        return self.error is None and self.scored and not self.missing and not self.prohibited

    def as_json(self) -> dict:
        fmt = lambda s: sorted(f"{f}:{ln} {n} -> {c}" for f, ln, n, c in s)  # noqa: E731
        return {"case": self.name, "annotations": self.annotations, "expected": len(self.expected),
                "found": len(self.found), "exact": self.exact, "missing": fmt(self.missing),
                "moved": fmt(self.moved),
                "prohibited": fmt(self.prohibited), "extra": fmt(self.extra),
                "external": len(self.external), "external_seen": len(self.external_seen), "error": self.error}


def score(annotations: list[Annotation], internal: set[str], graph: Graph, name: str = "") -> CaseResult:
    """Score ``annotations`` against ``graph``.

    Args:
        annotations: the case's annotations.
        internal: the dotted JVM names of the classes the case defines (others are external).
        graph: ripple's edges for the case.
        name: the case's ``Category/Case`` name.

    Returns:
        The :class:`CaseResult` (see the module docstring for each count).
    """
    res = CaseResult(name, annotations=len(annotations))
    for a in annotations:
        linked = {t.cls for t in graph.calls.get((a.file, a.line), []) if t.member == a.name}
        caller = graph.method_at(a.file, a.at) if a.kind == "IndirectCall" else None
        elsewhere = {t.cls for t in graph.by_caller.get(caller, []) if t.member == a.name} if caller else set()
        for cls in a.resolved:
            item = (a.file, a.line, a.name, cls)
            if cls in internal:
                res.expected.add(item)
                if cls in linked:
                    res.found.add(item)
                elif cls in elsewhere:
                    res.moved.add(item)
            else:
                res.external.add(item)
                short = a.name if a.name != "<init>" else cls.rsplit(".", 1)[-1].rsplit("$", 1)[-1]
                if short in graph.unresolved.get((a.file, a.line), set()):
                    res.external_seen.add(item)
        res.prohibited |= {(a.file, a.line, a.name, c) for c in a.prohibited if c in linked}
        res.extra |= {(a.file, a.line, a.name, c) for c in linked - set(a.resolved) - set(a.prohibited)}
    return res


def run_case(case: JcgCase) -> tuple[CaseResult, Graph | None]:
    """Index one case and score its annotations; an exception is recorded as the case's error (and
    the graph is ``None``)."""
    name = f"{case.category}/{case.name}"
    files = jcg_files(case)
    try:
        annotations = [a for rel, text in files.items() for a in parse_annotations(rel, text)]
        graph = ripple_graph(files)
    except Exception as exc:  # a crash is a failed case, not a failed run
        return CaseResult(name, error=f"{type(exc).__name__}: {exc}"), None
    return score(annotations, declared_classes(files), graph, name), graph


def summarize(results: list[CaseResult]) -> dict:
    """Totals over ``results``: counts of cases, annotations and targets (see the module docstring)."""
    n = lambda attr: sum(len(getattr(r, attr)) for r in results)  # noqa: E731
    exp, found = n("expected"), n("found")
    return {"cases": len(results), "scored": sum(r.scored for r in results), "exact": sum(r.exact for r in results),
            "annotations": sum(r.annotations for r in results), "expected": exp, "found": found,
            "moved": n("moved"),
            "recall": found / exp if exp else 1.0, "prohibited": n("prohibited"), "extra": n("extra"),
            "external": n("external"), "external_seen": n("external_seen"),
            "errors": sum(r.error is not None for r in results)}


def groups(results: list[CaseResult]) -> dict[str, dict[str, dict]]:
    """``{"static" | "dynamic": {category: summary, ..., "TOTAL": summary}}``."""
    out: dict[str, dict[str, dict]] = {}
    for group in ("static", "dynamic"):
        rs = [r for r in results if (r.category in STATIC) == (group == "static")]
        if not rs:
            continue
        cats = sorted({r.category for r in rs})
        out[group] = {c: summarize([r for r in rs if r.category == c]) for c in cats}
        out[group]["TOTAL"] = summarize(rs)
    return out


def print_table(results: list[CaseResult]) -> None:
    head = (f"{'category':<28}{'cases':>6}{'scored':>7}{'exact':>6}{'annot':>6}{'expect':>7}{'found':>6}"
            f"{'recall':>7}{'moved':>6}{'prohib':>7}{'extra':>6}{'extern':>7}{'seen':>5}")
    for group, rows in groups(results).items():
        print(f"\n{group} categories")
        print(head)
        print("-" * len(head))
        for cat, s in rows.items():
            if cat == "TOTAL":
                print("-" * len(head))
            print(f"{cat:<28}{s['cases']:>6}{s['scored']:>7}{s['exact']:>6}{s['annotations']:>6}{s['expected']:>7}"
                  f"{s['found']:>6}{s['recall']:>7.1%}{s['moved']:>6}{s['prohibited']:>7}{s['extra']:>6}{s['external']:>7}"
                  f"{s['external_seen']:>5}")
    failing = [r for r in results if r.scored and not r.exact or r.error]
    if failing:
        print(f"\nnot exact ({len(failing)}): " + ", ".join(
            f"{r.name} (-{len(r.missing)} !{len(r.prohibited)}{' ERROR' if r.error else ''})" for r in failing))


def load(resources: Path, categories: list[str] | None) -> list[JcgCase]:
    """The Java cases of the chosen categories (all when ``None``)."""
    return [c for md in language_files(resources, "java") if not categories or md.stem in categories
            for c in read_cases(md)]


def show(case: JcgCase) -> None:
    files = jcg_files(case)
    for rel, text in files.items():
        print(f"--- {rel}")
        for i, line in enumerate(text.splitlines(), 1):
            print(f"{i:3} {line}")
    r, graph = run_case(case)
    if graph is None:
        print(f"ERROR {r.error}")
        return
    print(f"\n{r.name}: expected {len(r.expected)}, found {len(r.found)}, prohibited linked "
          f"{len(r.prohibited)}{' (exact)' if r.exact else ''}")
    for title, items in (("missing", r.missing - r.moved), ("moved", r.moved), ("found", r.found),
                         ("PROHIBITED", r.prohibited),
                         ("extra", r.extra), ("external", r.external)):
        for f, ln, n, c in sorted(items):
            seen = " [seen as unresolved]" if (f, ln, n, c) in r.external_seen else ""
            print(f"  {title:<11} {f}:{ln} {n} -> {c}{seen}")
    print("\nripple:")
    for line in graph.listing:
        print(f"  {line}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("resources", type=Path, help="JCG's jcg_testcases/src/main/resources folder")
    ap.add_argument("--category", action="append", help="only this category (repeatable)")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    ap.add_argument("--show", metavar="CATEGORY/CASE", help="one case's sources, score and edges")
    args = ap.parse_args()
    if args.show:
        cat, _, name = args.show.partition("/")
        matches = [c for c in load(args.resources, [cat]) if c.name == name]
        if not matches:
            sys.exit(f"no case {args.show}")
        show(matches[0])
        return
    results = [run_case(c)[0] for c in load(args.resources, args.category)]
    if args.json:
        print(json.dumps({"groups": groups(results), "cases": [r.as_json() for r in results]}, indent=2))
    else:
        print_table(results)


if __name__ == "__main__":
    main()
