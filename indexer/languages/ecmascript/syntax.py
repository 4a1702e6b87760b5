"""Syntax-tree helpers of the ECMAScript extractor (:mod:`indexer.languages.ecmascript.extractor`):
small reads of one tree-sitter node (a definition's statement, decorators, export, arity) and of
texts (a bindable type name, an unquoted export name). No state; each reads the node it is given
and its parent or siblings, never the whole tree."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable

from tree_sitter import Node

from indexer.languages.base import SourceText, split_top_level
from indexer.languages.ecmascript.refs import box_value
from indexer.model import MAX_RECEIVER_LINKS, base_type
from indexer.resolve.values import MAP, PAIRS

__all__ = [
    "arity", "bindable", "decorator_name", "map_value", "tuple_items", "decorators_of", "inside", "is_exported", "leading_decorators",
    "literal_data", "object_pattern_fields", "own_decorator_ranges", "plain_name", "single_declarator", "statement_of",
    "unquote",
]

# Type names a binding to which helps no resolver.
_PREDEFINED_TYPES = frozenset(
    {
        "any", "unknown", "never", "void", "undefined", "null", "object", "string", "number",
        "boolean", "symbol", "bigint", "this",
    }
)  # fmt: skip
_TYPE_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")


def plain_name(node: Node) -> bool:
    """Whether ``node`` is a name or a dotted name (``jwt``, ``passport.authenticate``), no call in it."""
    for _ in range(MAX_RECEIVER_LINKS + 1):
        if node.type == "identifier":
            return True
        if node.type != "member_expression":
            return False
        prop, obj = node.child_by_field_name("property"), node.child_by_field_name("object")
        if prop is None or obj is None or prop.type != "property_identifier":
            return False
        node = obj
    return False


def single_declarator(declarator: Node) -> bool:
    """Whether ``declarator`` is the only declarator of its declaration (``const f = ...``, not
    ``const a = 1, f = ...``)."""
    parent = declarator.parent
    if parent is None:
        return False
    return sum(1 for c in parent.named_children if c.type == "variable_declarator") == 1


def statement_of(node: Node) -> Node:
    """The statement a definition spans: ``const f = ...`` for a lone declarator, with ``export``."""
    n = node
    if n.type == "variable_declarator" and single_declarator(n):
        n = n.parent  # type: ignore[assignment]
    elif n.type == "assignment_expression" and n.parent is not None and n.parent.type == "expression_statement":
        n = n.parent  # `X.prototype.m = function () {};`: the statement, for its span and JSDoc
    elif (n.parent is not None and n.parent.type == "assignment_expression" and n.parent.child_by_field_name("right") == n
          and n.parent.parent is not None and n.parent.parent.type == "expression_statement"
          and (left := n.parent.child_by_field_name("left")) is not None and left.text == b"module.exports"):
        n = n.parent.parent  # `module.exports = (app) => {...};` (the function "default")
    if n.parent is not None and n.parent.type == "export_statement":
        n = n.parent
    return n


def is_exported(node: Node) -> bool:
    """Whether a definition is declared by a top-level ``export`` statement."""
    stmt = node.parent if node.type == "variable_declarator" else node
    export = stmt.parent if stmt is not None else None
    return (
        export is not None
        and export.type == "export_statement"
        and export.parent is not None
        and export.parent.type == "program"
    )


def leading_decorators(node: Node) -> list[Node]:
    """TypeScript writes a class member's decorators as siblings before it in the class body."""
    out: list[Node] = []
    if node.parent is None or node.parent.type != "class_body":
        return out
    prev = node.prev_named_sibling
    while prev is not None and prev.type in ("decorator", "comment"):
        if prev.type == "decorator":
            out.append(prev)
        prev = prev.prev_named_sibling
    out.reverse()
    return out


def decorators_of(outer: Node, node: Node) -> list[Node]:
    """Decorators written on the export statement and on the definition node itself."""
    found = [c for c in outer.children if c.type == "decorator"] if outer is not node else []
    found.extend(c for c in node.children if c.type == "decorator")
    return found


def own_decorator_ranges(node: Node, fn: Node) -> tuple[tuple[int, int], ...]:
    """Byte ranges of the decorators written inside a definition node and on its parameters."""
    found = [c for c in node.children if c.type == "decorator"]
    params = fn.child_by_field_name("parameters")
    if params is not None:
        for p in params.named_children:
            found.extend(c for c in p.children if c.type == "decorator")
    return tuple((d.start_byte, d.end_byte) for d in found)


def decorator_name(text: str) -> str:
    """``Component({...})`` -> ``Component``; ``ng.Injectable()`` -> ``Injectable``."""
    return text.split("(", 1)[0].rsplit(".", 1)[-1].strip()


def arity(args: Node) -> int:
    """The number of arguments of the argument list ``args``; ``-1`` when a spread makes it unknown."""
    count = 0
    for a in args.named_children:
        if a.type == "spread_element":
            return -1
        if a.type != "comment":
            count += 1
    return count


_ARRAYS = re.compile(r"^(?:Array|ReadonlyArray|Set|ReadonlySet|Iterable|IterableIterator|AsyncIterable)<(.+)>$")
_PROMISE = re.compile(r"^(?:Promise|PromiseLike|Awaited)<(.+)>$")


_CARRIERS = re.compile(r"^(?:Partial|Required|Readonly|NonNullable|Pick|Omit|NoInfer)<(.+)>$")
"""TypeScript's utility types whose values have (some of) the members of their first argument
(TypeScript handbook, "Utility Types"): ``Partial<User>``, ``Pick<User, "id">`` hold a ``User``'s methods."""


def carried(type_text: str | None) -> str | None:
    """The type whose members a utility type's value has (:data:`_CARRIERS`, nested at once):
    ``Readonly<Partial<User>>`` -> ``User``, ``Omit<User, "pw">`` -> ``User``; other texts unchanged."""
    return _innermost(type_text, _CARRIERS, lambda m: split_top_level(m.group(1))[0])


def awaited(type_text: str | None) -> str | None:
    """What awaiting a value of ``type_text`` gives: ``Promise<User>`` -> ``User`` (a function's
    return type as its callers read it, as C# reads ``Task<T>``), as TypeScript's ``Awaited<T>``
    does: nested promises at once (``Promise<Promise<User>>``: an await of a promise resolved with a
    promise waits for both), ``Awaited<Promise<User>>`` and ``Awaited<User>`` alike; other texts
    unchanged."""
    return _innermost(type_text, _PROMISE, lambda m: m.group(1))


def _innermost(type_text: str | None, wrapper: re.Pattern[str], inner: Callable[[re.Match[str]], str]) -> str | None:
    """``type_text`` without blanks, unwrapped while ``wrapper`` matches it (``inner`` of the match: the
    type inside); a text ``wrapper`` does not match is returned as given, ``None`` as ``None``."""
    if type_text is None:
        return None
    t = re.sub(r"\s+", "", type_text)
    m = wrapper.match(t)
    if m is None:
        return type_text
    while m is not None:
        t = inner(m)
        m = wrapper.match(t)
    return t


@functools.lru_cache(maxsize=4096)
def bindable(type_text: str | None) -> str | None:
    """The name a declared type binds to, or ``None`` for unions, literals and predefined types. An
    array of a named type (``User[]``, ``Array<User>``, ``ReadonlyArray<User>``, ``Set<User>``,
    through ``Promise<...>``) is written ``User[]``: a container whose elements loops and array
    methods hand out (:func:`array_element`); a map of one (``Map<string, User>``, :func:`map_value`), a
    tuple (``[User, boolean]``, :func:`tuple_items`) and a ref (``Ref<User>``,
    :func:`indexer.languages.ecmascript.refs.box_value`) are kept as written (whitespace dropped). A pure
    function of the text, memoised (a file's parameters and fields repeat a few type texts)."""
    element = array_element(type_text)
    if element is not None:
        return element + "[]"
    if map_value(type_text) is not None or tuple_items(type_text) is not None or box_value(type_text) is not None:
        # `Map<string,User>`, `[User,boolean]`, `Ref<User>`
        return re.sub(r"\s+", "", type_text or "")
    name = base_type(awaited(carried(type_text)))  # `p: Promise<User>`: what `await p` gives (receivers look through await)
    if name is None or name in _PREDEFINED_TYPES or not _TYPE_NAME.fullmatch(name):
        return None
    return name


def array_element(type_text: str | None) -> str | None:
    """The element type name of an array type text (``User[]``, ``Array<User>``,
    ``Promise<User[]>``, ``readonly User[]``; of an array of arrays, ``User[][]``, the inner array
    type ``User[]``), ``None`` for any other type or an element that is no
    plain (dotted) type name of the repository's kind (a predefined type, a union, a literal). The
    module system's ``container_element``."""
    if not type_text:
        return None
    t = awaited(re.sub(r"\s+", "", type_text).removeprefix("readonly")) or ""
    m = _ARRAYS.match(t)
    element = m.group(1) if m else t[:-2] if t.endswith("[]") else None
    if element is not None and element.endswith("[]"):  # `User[][]`, `Array<User[]>`: arrays of arrays
        inner = array_element(element)
        return inner + "[]" if inner is not None else None
    if element is None or element in _PREDEFINED_TYPES or not _TYPE_NAME.fullmatch(element):
        return None
    return element


_MAPS = re.compile(r"^(Map|ReadonlyMap|Record)<(.+)>$")



def _named(text: str) -> bool:
    return text not in _PREDEFINED_TYPES and bool(_TYPE_NAME.fullmatch(text))


def map_value(type_text: str | None) -> tuple[str, str] | None:
    """The value type of a map type text and how iterating it goes: ``Map<string, User>`` /
    ``ReadonlyMap<K, User>`` (through ``Promise<...>``) -> (``User``, ``pairs``: a ``for...of``
    hands out ``[key, value]`` entries), ``Record<string, User>`` -> (``User``, ``map``),
    ``Map<string, User[]>`` -> (``User[]``, ``pairs``: values are arrays); ``None``
    for any other type or a value that is no plain type name (the module system's ``map_value``)."""
    if not type_text:
        return None
    m = _MAPS.match(awaited(re.sub(r"\s+", "", type_text)) or "")
    args = split_top_level(m.group(2)) if m else []
    if m is None or len(args) != 2:
        return None
    value = args[1] if _named(args[1]) else array_element(args[1])  # `Map<string, User[]>`: `User[]`
    if value is None:
        return None
    return (value if value == args[1] else value + "[]"), MAP if m.group(1) == "Record" else PAIRS


def tuple_items(type_text: str | None) -> list[str] | None:
    """The item types of a tuple type text: ``[User, boolean]`` (through ``Promise<...>``) ->
    [``User``, ``boolean``]; ``None`` for any other type, an array (``User[]``) or a tuple with
    optional, rest or named items (the module system's ``tuple_items``)."""
    if not type_text:
        return None
    t = awaited(re.sub(r"\s+", "", type_text).removeprefix("readonly")) or ""
    if not (t.startswith("[") and t.endswith("]")) or len(t) < 3:
        return None
    items = split_top_level(t[1:-1])
    if any(not i or i.startswith("...") or i.endswith("?") or ":" in i for i in items):
        return None
    return items


def inside(ranges: list[tuple[int, int]], pos: int) -> bool:
    """Whether ``pos`` falls in one of the sorted, non-overlapping byte ranges."""
    i = bisect.bisect_right(ranges, (pos, float("inf"))) - 1
    return i >= 0 and ranges[i][0] <= pos < ranges[i][1]


def unquote(text: str) -> str:
    """``"a-b"`` (a string module export name) -> ``a-b``; identifiers unchanged."""
    return text[1:-1] if len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0] else text


_DATA_LITERALS = frozenset({"array", "string", "number", "template_string"})


def literal_data(root: Node, src: SourceText) -> set[str]:
    """The names module-level declarations of the program ``root`` bind to an array or a string or
    number literal (``const arr = [1, 2, 3]``, ``export let name = "x"``): data, whose methods
    (``arr.map(f)``) return data, never a function of the repository. Reads the program's
    statements only (one level, ``export`` unwrapped)."""
    out: set[str] = set()
    for stmt in root.named_children:
        if stmt.type == "export_statement":
            stmt = stmt.child_by_field_name("declaration") or stmt
        if stmt.type not in ("lexical_declaration", "variable_declaration"):
            continue
        for d in stmt.named_children:
            name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
            if d.type == "variable_declarator" and name is not None and name.type == "identifier" \
                    and value is not None and value.type in _DATA_LITERALS:
                out.add(src.text(name))
    return out


def spelled(root: Node, data: bytes, word: str, types: frozenset[str]) -> list[Node] | None:
    """The nodes of ``types`` under ``root`` whose bytes are exactly ``word``, in source order, found
    without a walk of the tree: each occurrence of ``word`` in ``data`` (the parsed bytes) is looked
    up with tree-sitter's ``descendant_for_byte_range`` (the smallest node spanning it; a leaf such as
    an identifier is its own smallest node). ``None`` when ``word`` holds U+FFFD: a text decoded
    leniently from invalid UTF-8 names no single byte string, and the caller walks instead."""
    if "\ufffd" in word or not word:
        return None
    raw = word.encode("utf-8")
    out: list[Node] = []
    i = data.find(raw)
    while i != -1:
        n = root.descendant_for_byte_range(i, i + len(raw))
        if n is not None and n.start_byte == i and n.end_byte == i + len(raw) and n.type in types:
            out.append(n)
        i = data.find(raw, i + 1)
    return out


def object_pattern_fields(pattern: Node, text: Callable[[Node], str]) -> tuple[tuple[str, str], ...]:
    """``(property key, local name)`` of each property a destructured object parameter binds
    (``{ url = "", method: m = "GET", body, ...rest }`` -> ``("url", "url"), ("method", "m"), ("body",
    "body")``; a rest element, a computed or nested pattern binds no one property and is left out);
    ``()`` for any other pattern. ``text`` gives a node's source text."""
    if pattern.type != "object_pattern":
        return ()
    out: list[tuple[str, str]] = []
    for c in pattern.named_children:
        if c.type == "object_assignment_pattern":  # `url = ""`
            c = c.child_by_field_name("left") or c
        if c.type == "shorthand_property_identifier_pattern":
            out.append((text(c), text(c)))
        elif c.type == "pair_pattern":
            key, value = c.child_by_field_name("key"), c.child_by_field_name("value")
            if value is not None and value.type == "assignment_pattern":  # `method: m = "GET"`
                value = value.child_by_field_name("left")
            if key is not None and key.type == "property_identifier" and value is not None and value.type == "identifier":
                out.append((text(key), text(value)))
    return tuple(out)
