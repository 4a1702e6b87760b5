"""The language registry: one folder per language, each plugging an extractor, its detectors and a
module system into the language-neutral core (ARCHITECTURE.md, "Adding a language")."""

from __future__ import annotations

import fnmatch
import inspect
import tomllib
from pathlib import Path

from indexer.languages import LANGUAGE_MODULES, extractor_for_path, extractors, module_systems
from indexer.languages.ecmascript.frameworks import detectors_for as ecmascript_detectors
from indexer.languages.java.frameworks import detectors_for as java_detectors
from indexer.languages.kotlin.frameworks import detectors_for as kotlin_detectors
from indexer.languages.python.frameworks import detectors_for as python_detectors
from indexer.resolve.language import ModuleSystem

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES_DIR = ROOT / "indexer" / "languages"


def missing_members(obj: object) -> list[str]:
    """The members the ModuleSystem protocol declares that ``obj`` lacks (attributes and methods)."""
    declared = set(ModuleSystem.__annotations__) | {
        n for n, v in vars(ModuleSystem).items() if inspect.isfunction(v) and not n.startswith("_")}
    return sorted(n for n in declared if not hasattr(obj, n))


def test_registry_lists_one_package_per_folder() -> None:
    folders = sorted(p.name for p in LANGUAGES_DIR.iterdir() if (p / "__init__.py").exists())
    assert folders == ["apex", "aura", "csharp", "ecmascript", "go", "graphql", "java", "kotlin", "proto", "python", "sql"]
    # Docs and configuration plug in from indexer.content (claimed by path, not a language folder).
    assert LANGUAGE_MODULES == {**{f: f"indexer.languages.{f}" for f in folders}, "content": "indexer.content"}


def test_every_extracted_language_has_its_module_system() -> None:
    languages = {ex.language for ex in extractors().values()}
    assert languages == {"python", "java", "typescript", "javascript", "graphql", "proto", "apex", "kotlin", "vue",
                         "sql", "prisma", "go", "gomod", "csharp", "aura"}
    content = {"markdown", "restructuredtext", "asciidoc", "yaml", "properties", "dotenv"}
    systems = module_systems()
    assert set(systems) == languages | content | {"liquibase"}  # change logs: claimed by path
    assert systems["typescript"] is systems["javascript"] is systems["vue"]  # one ECMAScript family
    assert systems["kotlin"] is not systems["java"]  # two module systems, one package namespace
    assert {lang: ms.namespace for lang, ms in systems.items()} == {
        "python": "python", "java": "java", "typescript": "ecmascript", "javascript": "ecmascript",
        "graphql": "graphql", "proto": "proto", "apex": "apex", "kotlin": "java", "vue": "ecmascript",
        "sql": "sql", "prisma": "sql", "liquibase": "sql", "go": "go", "gomod": "go", "csharp": "csharp",
        "aura": "aura", **{lang: "content" for lang in content}}
    assert extractor_for_path("src/main/resources/config/liquibase/master.xml").language == "liquibase"
    assert extractor_for_path("db/changelog/db.changelog-master.yaml").language == "liquibase"
    assert extractor_for_path("src/main/resources/db.changelog.json").language == "liquibase"
    assert extractor_for_path("pom.xml") is None and extractor_for_path("config/app.yaml") is None
    assert extractor_for_path("docs/intro.txt").language == "restructuredtext"
    assert extractor_for_path("src/main/resources/application.yml").language == "yaml"
    assert extractor_for_path(".env") is None
    assert type(systems["python"]).__module__ == "indexer.languages.python.modules"
    assert extractor_for_path("a/b.d.ts").language == "typescript"
    assert extractor_for_path("a/B.kt").language == "kotlin"
    assert extractor_for_path("a/build.gradle.kts").language == "kotlin"
    assert extractor_for_path("src/App.vue").language == "vue"
    assert extractor_for_path("a/b.go").language == "go"
    assert extractor_for_path("a/b.rs") is None
    assert extractor_for_path("aura/list/list.cmp").language == extractor_for_path("aura/app/app.app").language == "aura"


def test_module_systems_implement_the_protocol() -> None:
    assert missing_members(object()) != []  # the checker can fail
    assert "resolve_import" in missing_members(object())
    for lang, ms in module_systems().items():
        assert missing_members(ms) == [], lang
        assert lang in ms.languages


def test_primitives_union_is_the_former_shared_set() -> None:
    union = frozenset().union(*(ms.primitives for ms in module_systems().values()))
    assert union == {
        "int", "long", "short", "byte", "char", "boolean", "float", "double", "void", "var",
        "string", "number", "bigint", "any", "unknown", "never", "undefined", "null", "object", "symbol",
        "str", "bytes", "bool", "None", "list", "dict", "set", "tuple", "frozenset", "type", "Object",
        "String", "Integer", "Long", "Boolean", "Double", "List", "Map", "Set", "Optional",
        "Int", "Float", "ID",  # GraphQL's scalars (String, Boolean are Java's too)
        # the types of the `log` fields Lombok's logger annotations generate (java/lombok.py)
        "org.slf4j.Logger", "org.slf4j.ext.XLogger", "java.util.logging.Logger", "org.apache.log4j.Logger",
        "org.apache.logging.log4j.Logger", "org.apache.commons.logging.Log", "org.jboss.logging.Logger",
        "com.google.common.flogger.FluentLogger",
        "Short", "Byte", "Char", "Unit", "Any", "Nothing",  # Kotlin's (Int, Long, Float... are named above)
    }


def test_detectors_live_in_their_language_folder() -> None:
    for lang, find in (("python", python_detectors), ("java", java_detectors), ("kotlin", kotlin_detectors),
                       ("typescript", ecmascript_detectors), ("javascript", ecmascript_detectors)):
        folder = "ecmascript" if lang in ("typescript", "javascript") else lang
        mods = find(lang)
        assert mods, lang
        assert all(m.__name__.startswith(f"indexer.languages.{folder}.frameworks.") for m in mods), lang
    assert java_detectors("python") == ()
    assert kotlin_detectors("java") == ()


def test_every_query_file_is_package_data() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["indexer"]

    def shipped(rel: str) -> bool:
        return any(fnmatch.fnmatch(rel, p) and rel.count("/") == p.count("/") for p in patterns)

    assert not shipped("languages/go/queries/a/b/c.scm")  # the checker can fail
    assert not shipped("queries/python/calls.scm")
    found = sorted(p.relative_to(ROOT / "indexer").as_posix() for p in LANGUAGES_DIR.rglob("*.scm"))
    assert len(found) == 125  # ecmascript and python listen_ports (acc68b); ecmascript url_builders, python config_values and url_builders (acc65b); ecmascript typescript/nest_microservices (acc64b); ecmascript nest_microservices (brk63); ecmascript nest_cqrs (acc59); python narrowing (cpu54); ecmascript local_names (js53); python branches, getattr_calls (py50); ecmascript shared bindings (js50); java test_clients (spring49); java implicit, allocation (javat49); ecmascript test_callbacks, express_errors (session 49); python container_shadows, orm_attribute_reads (session 46); ecmascript elements (session 45); java narrowing; ecmascript returns, prototypes, objects; python and ecmascript value_reads; python django_relations, drf_routers, class_uses; python orm_attributes; issue 21: kotlin/imports, go and csharp queries; Java wrappers, router_functions; Python django_settings, view_decorators; ECMAScript
    # hono, listeners; queues: Java messaging, Python celery / pika / pubsub, ECMAScript amqplib / aws_messaging;
    # gRPC: proto/services, java grpc_java, python grpc_python, ecmascript grpc; issue 14 item 3: apollo,
    # nest_graphql, schedulers, graphql/schema, graphql_java, ariadne, strawberry, python_schedulers, python_cli;
    # ECMAScript values; ECMAScript http_wrappers; Python flask_restful; ECMAScript base_urls;
    # Python starlette; GraphQL clients: ecmascript graphql_clients, python gql_python, java graphql_clients;
    # issue 16: Python unpacking, implicit_calls, containers; issue 21: Go definitions, calls, imports, bindings, gomod; C# imports; apex (definitions,
    # calls, bindings, types, strip, data); ecmascript prototypes, objects; ecmascript containers; python orm_returns (cpu55a: named_calls gone, calls.scm's bare calls)
    assert [rel for rel in found if not shipped(rel)] == []
    assert not (ROOT / "indexer" / "queries").exists()
