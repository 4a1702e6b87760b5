"""GraphQL names the linker cannot read from the repository: the constants of a code generator.

Netflix DGS generates a ``DgsConstants`` class at build time (never committed) whose constants name
the schema's types and fields; a data fetcher written ``@DgsData(parentType = DgsConstants.SHOW.TYPE_NAME,
field = DgsConstants.SHOW.Reviews)`` names ``Show.reviews`` only through that generator's naming rule.
"""

from __future__ import annotations

__all__ = ["graphql_constant_name"]


def graphql_constant_name(ref: str) -> str:
    """The GraphQL name a constant the repository does not define stands for, by the naming rule of
    Netflix DGS's code generator (``DgsConstants`` is generated at build time, never committed):
    ``DgsConstants.QUERY_TYPE`` and ``DgsConstants.QUERY.TYPE_NAME`` -> ``Query`` (the type's upper-
    cased name, capitalised back: a type named in several words, ``SHOWREVIEW``, comes back as
    ``Showreview``); a field constant ``DgsConstants.QUERY.Shows`` -> ``shows`` (the generator
    capitalises the field name; an all-capital ``URL`` stays). Any other constant: its last segment
    as written."""
    parts = ref.split(".")
    last = parts[-1]
    if last == "TYPE_NAME" and len(parts) > 1:
        last = parts[-2]
    elif last.endswith("_TYPE") and len(last) > 5:
        last = last[:-5]
    else:
        return last[:1].lower() + last[1:] if len(last) > 1 and last[1].islower() else last
    return last[:1].upper() + last[1:].lower() if last.isupper() else last
