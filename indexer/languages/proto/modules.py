"""The Protocol Buffers "module system": ``.proto`` files call nothing and their imports name
messages only, so the resolver core has nothing to bind in them; their services, rpcs and messages are
definitions (search, symbols) and their services framework facts the linker joins to server
implementations and client stubs (:mod:`indexer.frameworks.grpc`). A file's module key is its path
without suffix."""

from __future__ import annotations

from indexer.resolve.language import UnboundModuleSystem

__all__ = ["MODULE_SYSTEM", "ProtoModuleSystem"]

_SCALARS = frozenset({"double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
                      "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"})


class ProtoModuleSystem(UnboundModuleSystem):
    """The :class:`~indexer.resolve.language.ModuleSystem` of .proto files."""

    languages = frozenset({"proto"})
    namespace = "proto"
    # ``primitives`` stays empty (the core joins them over languages): the scalars are is_builtin's.

    def is_builtin(self, name: str) -> bool:
        """The scalar types Protocol Buffers define (``int32``, ``string``, ``bytes``, ...)."""
        return name in _SCALARS


MODULE_SYSTEM = ProtoModuleSystem()
