"""The Protocol Buffers "module system": ``.proto`` files call nothing and their imports name
messages only, so the resolver core has nothing to bind in them; their services, rpcs and messages are
definitions (search, symbols) and their services framework facts the linker joins to server
implementations and client stubs (:mod:`indexer.frameworks.grpc`). A file's module key is its path
without suffix."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from indexer.model import FileExtraction, Import
from indexer.resolve.context import FileCtx
from indexer.resolve.language import ImportTarget, Lookup
from indexer.resolve.values import Value
from indexer.symbols import module_path

__all__ = ["MODULE_SYSTEM", "ProtoModuleSystem"]

_SCALARS = frozenset({"double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
                      "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"})


class ProtoModuleSystem:
    """The :class:`~indexer.resolve.language.ModuleSystem` of .proto files."""

    languages = frozenset({"proto"})
    namespace = "proto"
    dotted_packages = False
    layout_suffixes: tuple[str, ...] = ()
    primitives: frozenset[str] = frozenset()  # joined over languages by the core: scalars are is_builtin
    constructor_name = None
    instance_prefix = ""
    class_body_hidden = False
    class_receiver = None
    implicit_this = False
    property_functions = False

    def is_builtin(self, name: str) -> bool:
        """The scalar types Protocol Buffers define (``int32``, ``string``, ``bytes``, ...)."""
        return name in _SCALARS

    def layout_keys(self, paths: Iterable[str]) -> Mapping[str, str]:
        """Keys do not depend on the file set."""
        return {}

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """The path without its suffix."""
        return module_path(ex.path)

    def module_keys(self, fc: FileCtx) -> list[str]:
        """The one module key."""
        return [fc.module_key]

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """Imports name messages only: nothing is bound."""
        return None

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """Nothing is reached through a .proto module."""
        return None

    def resolve_unbound(self, r: Lookup, fc: FileCtx, name: str) -> Value:
        """Nothing beyond the file's own names."""
        return None

    def qualified_name(self, r: Lookup, fc: FileCtx, dotted: str) -> Value:
        """No qualified names."""
        return None

    def import_target(self, r: Lookup, fc: FileCtx, imp: Import) -> ImportTarget:
        """Imports name messages only: nothing is bound."""
        return ImportTarget()

    def module_by_name(self, r: Lookup, fc: FileCtx, name: str) -> list[FileCtx]:
        """.proto modules are named by nobody."""
        return []


MODULE_SYSTEM = ProtoModuleSystem()
