"""A name looked up in a C# namespace or a Java package reads the files defining it, not every file of
the namespace (acc63b; brk62 fixed the same pattern for Apex's org).

``CSharpModuleSystem.module_member`` and ``JvmModuleSystem.module_member`` walked every file of the
namespace for each name (a read recorded per file), and ``ClassHierarchy.open_members`` every file of
an open type's namespace for each member name (C# partial classes, Go methods): in a namespace of N
files, N reads per lookup, and every file's record of reads grew with them. Now a per-module index
(:meth:`indexer.resolve.tables.ModuleTables.holders`) answers which files define a name, and the read
is recorded as one token (:func:`indexer.resolve.values.module_name_token`) that a file of the module
gaining, losing or changing that name invalidates (a namespace of at least
:data:`~indexer.resolve.interpreter.INDEXED_MODULE_FILES` files; a smaller one is read file by file as
before). The edges are identical (jellyfin's 2,151 C#
files, docs/benchmarks.md session 63); here, the answers, the reads, and incremental updates that
must bind the callers again.
"""

from __future__ import annotations

from pathlib import Path

from indexer.languages import module_systems
from indexer.languages.csharp.modules import MODULE_SYSTEM as CSHARP, NAMESPACE
from indexer.resolve.interpreter import INDEXED_MODULE_FILES, Resolver
from indexer.resolve.repository import RepositoryResolver
from indexer.resolve.values import ClassV, module_name_token
from tests.index_dump import calls
from tests.resolution_harness import edges, extract_fixture, resolve_fixture
from tests.unit.test_incremental import Workspace


def _namespace(n: int) -> str:
    files = {f"Shop/T{i}.cs": f"namespace Shop {{\n    public class T{i} {{ public void M{i}() {{}} }}\n}}\n" for i in range(n)}
    files["Shop/Client.cs"] = ("namespace Shop {\n    public class Client {\n"
                               "        public void Go() { new T7().M7(); new T3().M3(); Missing.Call(); }\n    }\n}\n")
    return "".join(f"// --- path: {p} ---\n{src}" for p, src in files.items())


def test_a_namespace_lookup_binds_as_before():
    result = resolve_fixture(_namespace(40))
    assert [c for c in edges(result) if c.startswith("Shop/Client")] == [
        "Shop/Client.Client.Go(0) -> Shop/T3.T3 [exact]",  # the constructors (implicit: the class)
        "Shop/Client.Client.Go(0) -> Shop/T3.T3.M3(0) [exact]",
        "Shop/Client.Client.Go(0) -> Shop/T7.T7 [exact]",
        "Shop/Client.Client.Go(0) -> Shop/T7.T7.M7(0) [exact]",
    ]


def _resolver(fixture: str) -> Resolver:
    rr = RepositoryResolver("t")
    rr.update(extract_fixture(fixture), [])
    return Resolver("t", [rr.files[p] for p in sorted(rr.files)], module_systems())


class _Reads:
    """A lookup that answers from the resolver's own tables and lists what was read."""

    def __init__(self, fixture: str) -> None:
        self.r = _resolver(fixture)
        self.read: list[tuple[str, str, str]] = []

    def __getattr__(self, name: str):
        return getattr(self.r, name)

    def use(self, token: tuple[str, str, str]) -> None:
        self.read.append(token)

    def module_holders(self, lang, key, name, members=False):
        self.use(("m", NAMESPACE, key))
        self.use(module_name_token(NAMESPACE, key, name))
        return self.r.tables.holders(NAMESPACE, key, name, members)

    def has_package(self, ns: str, key: str) -> bool:
        return self.r.is_package(ns, key)


def test_a_name_reads_the_files_defining_it_only():
    look = _Reads(_namespace(40))
    v = CSHARP.module_member(look, "Shop", "T7")
    assert isinstance(v, ClassV) and v.c.qualname == "T7" and v.c.file.path == "Shop/T7.cs"
    # was: a ("name", path, "T7") read for each of the 8 files before T7.cs in path order
    assert look.read == [("m", NAMESPACE, "Shop"), ("mn", NAMESPACE, "Shop\nT7"), ("name", "Shop/T7.cs", "T7")]
    look.read.clear()
    assert CSHARP.module_member(look, "Shop", "Missing") is None
    # was: one read for each of the 41 files of the namespace
    assert look.read == [("m", NAMESPACE, "Shop"), ("mn", NAMESPACE, "Shop\nMissing")]


def test_the_index_lists_holders_in_path_order_and_follows_the_files():
    fixture = ("// --- path: b/B.cs ---\nnamespace N { public partial class P { public void Run() {} } }\n"
               "// --- path: a/A.cs ---\nnamespace N { public partial class P { public void Stop() {} } public class Q {} }\n"
               "// --- path: c/C.cs ---\nnamespace M { public class P {} }\n")
    r = _resolver(fixture)
    tables = r.tables
    paths = lambda fs: [f.path for f in fs]  # noqa: E731
    assert paths(tables.holders(NAMESPACE, "N", "P")) == ["a/A.cs", "b/B.cs"]
    assert paths(tables.holders(NAMESPACE, "N", "Q")) == ["a/A.cs"]
    assert paths(tables.holders(NAMESPACE, "N", "Run", members=True)) == ["b/B.cs"]
    assert paths(tables.holders(NAMESPACE, "N", "Run")) == []  # a member is no top-level name
    assert paths(tables.holders(NAMESPACE, "M", "P")) == ["c/C.cs"]
    assert paths(tables.holders(NAMESPACE, "M", "Q")) == []
    gone = next(fc for fc in r.files if fc.path == "a/A.cs")
    tables.count_packages(r.files)
    tables.remove(gone)
    assert paths(tables.holders(NAMESPACE, "N", "P")) == ["b/B.cs"]
    assert paths(tables.holders(NAMESPACE, "N", "Q")) == []
    tables.add(gone)
    assert paths(tables.holders(NAMESPACE, "N", "Q")) == ["a/A.cs"]


def test_a_partial_class_member_in_another_file_binds():
    fixture = ("// --- path: Shop/Order.cs ---\nnamespace Shop { public partial class Order { public void Pay() { Ship(); } } }\n"
               "// --- path: Shop/Order.Ship.cs ---\nnamespace Shop { public partial class Order { public void Ship() {} } }\n"
               "// --- path: Shop/Other.cs ---\nnamespace Shop { public class Other { public void Ship() {} } }\n")
    assert edges(resolve_fixture(fixture)) == ["Shop/Order.Order.Pay(0) -> Shop/Order.Ship.Order.Ship(0) [exact]"]


FILLERS = {f"Shop/F{i}.cs": f"namespace Shop {{\n    public class F{i} {{ }}\n}}\n" for i in range(INDEXED_MODULE_FILES)}
"""Enough files for the namespace to be indexed (:data:`~indexer.resolve.interpreter.INDEXED_MODULE_FILES`)."""

CLIENT = ("namespace Shop {\n    using Lib;\n    public class Client {\n"
          "        public void Go() { Helper.Run(); }\n    }\n}\n")
LIB = "namespace Lib {\n    public static class Helper { public static void Run() {} }\n}\n"
OTHER = "namespace Shop {\n    public class Other { }\n}\n"
OTHER_WITH_HELPER = ("namespace Shop {\n    public class Other { }\n"
                     "    public static class Helper { public static void Run() {} }\n}\n")


def test_a_type_gained_by_another_file_of_the_namespace_rebinds_its_users(tmp_path: Path):
    """Shop.Helper, once another file of Shop declares it, wins over the using'd Lib.Helper: the
    client, which read neither that file nor its names, is bound again (the module-name token)."""
    w = Workspace(tmp_path, {"Shop/Client.cs": CLIENT, "Lib/Helper.cs": LIB, "Shop/Other.cs": OTHER, **FILLERS})
    try:
        assert calls(w.db) == ["Shop/Client.Client.Go(0) -> Lib/Helper.Helper.Run(0) [exact]"]
        w.edit({"Shop/Other.cs": OTHER_WITH_HELPER})
        assert calls(w.db) == ["Shop/Client.Client.Go(0) -> Shop/Other.Helper.Run(0) [exact]"]
        w.edit({"Shop/Other.cs": OTHER})
        assert calls(w.db) == ["Shop/Client.Client.Go(0) -> Lib/Helper.Helper.Run(0) [exact]"]
    finally:
        w.close()


def test_a_java_class_gained_by_another_file_of_the_package_rebinds_its_users(tmp_path: Path):
    client = "package shop;\n\nimport lib.*;\n\npublic class Client {\n    void go() { Helper.run(); }\n}\n"
    lib = "package lib;\n\npublic class Helper {\n    public static void run() {}\n}\n"
    other = "package shop;\n\npublic class Other {}\n"
    other_with = other + "\nclass Helper {\n    static void run() {}\n}\n"
    fillers = {f"shop/F{i}.java": f"package shop;\n\nclass F{i} {{}}\n" for i in range(INDEXED_MODULE_FILES)}
    w = Workspace(tmp_path, {"shop/Client.java": client, "lib/Helper.java": lib, "shop/Other.java": other, **fillers})
    try:
        assert calls(w.db) == ["shop/Client.Client.go() -> lib/Helper.Helper.run() [exact]"]
        w.edit({"shop/Other.java": other_with})
        assert calls(w.db) == ["shop/Client.Client.go() -> shop/Other.Helper.run() [exact]"]
        w.edit({"shop/Other.java": other})
        assert calls(w.db) == ["shop/Client.Client.go() -> lib/Helper.Helper.run() [exact]"]
    finally:
        w.close()


def test_a_partial_member_gained_by_another_file_rebinds_its_callers(tmp_path: Path):
    order = "namespace Shop {\n    public partial class Order {\n        public void Pay() { Ship(); }\n    }\n}\n"
    part = "namespace Shop {\n    public partial class Order {\n        public void Pack() {}\n    }\n}\n"
    w = Workspace(tmp_path, {"Shop/Order.cs": order, "Shop/Order.Part.cs": part, **FILLERS})
    try:
        assert calls(w.db) == []
        w.edit({"Shop/Order.Part.cs": part.replace("Pack", "Ship")})
        assert calls(w.db) == ["Shop/Order.Order.Pay(0) -> Shop/Order.Part.Order.Ship(0) [exact]"]
    finally:
        w.close()
