"""Which names written in a Python annotation are worth a :class:`~indexer.model.TypeUse`: not a
builtin nor a ``typing`` construct (the extractor's annotation type uses)."""

from __future__ import annotations

__all__ = ["is_user_type"]

# Names inside annotations that are not worth a TypeUse (builtins and typing constructs).
NOT_USER_TYPES = frozenset(
    """
    None int float complex str bytes bytearray bool object type list dict set frozenset tuple range
    slice memoryview Ellipsis NotImplemented
    Any Optional Union List Dict Set FrozenSet Tuple Type Callable Iterable Iterator Generator
    AsyncIterable AsyncIterator AsyncGenerator Awaitable Coroutine Sequence MutableSequence Mapping
    MutableMapping Collection Container Hashable Sized Reversible AbstractSet MutableSet KeysView
    ValuesView ItemsView ClassVar Final Literal Annotated TypeVar Generic Protocol NoReturn Never Self
    TypeAlias TypeGuard TypeIs ParamSpec Concatenate Unpack Required NotRequired ReadOnly
    LiteralString IO TextIO BinaryIO Pattern Match DefaultDict OrderedDict Counter Deque ChainMap
    NamedTuple TypedDict AnyStr SupportsInt SupportsFloat SupportsIndex SupportsAbs ContextManager
    AsyncContextManager
    """.split()
)
_TYPING_MODULES = ("typing.", "typing_extensions.", "collections.abc.", "t.")


def is_user_type(name: str) -> bool:
    """Whether an annotation name is worth a TypeUse (not a builtin / typing construct)."""
    if name in NOT_USER_TYPES:
        return False
    return not name.startswith(_TYPING_MODULES)
