"""Python's type tests as :data:`~indexer.model.NARROWED` bindings: inside ``if isinstance(x, A):``
(also an operand of an ``and``), and after ``if not isinstance(x, A):`` whose suite leaves (``return`` /
``raise`` / ``continue`` / ``break``) to the end of the enclosing block, ``x`` is an ``A`` (or a
subclass). This is the narrowing type checkers do (PEP 484's ``isinstance`` narrowing; mypy and pyright
"type narrowing"), the same binding Java's ``instanceof`` gives
(:mod:`indexer.languages.java.narrowing`): the resolver reads a call through ``x`` there as on an ``A``,
and a union ``x`` holds (:mod:`indexer.resolve.either`) as its values that may be an ``A``.

The tests read: ``isinstance(x, A)`` with a class a name or dotted name (an imported one resolves as any
type text of the scope), ``isinstance(x, (A, B))`` (a tuple: ``x`` is an ``A`` or a ``B``, one binding
each on the same lines, read as a union), ``type(x) is A`` / ``type(x) == A`` (and ``is not`` / ``!=``
negated: mypy narrows these the same way), ``type(x) in (A, B)`` (``not in`` negated), a call of a
user-defined type guard of the file (``def is_a(v) -> TypeGuard[A]`` / ``TypeIs[A]``, PEP 647 / 742:
its first argument), ``not`` of a test, an operand of an ``and`` (``x`` is an ``A`` where the ``and``
is true), of an ``or`` (a negated one: where the ``or`` is false, ``if not isinstance(x, A) or y:
raise``, each name of such operands; or every operand a test of one name, a union). Besides ``if``:
``assert`` (after it, as ``if not test: raise``) and ``match x:`` class patterns (``case A() | B():``,
``case A() as y``; PEP 634 matches them by ``isinstance``). ``x`` is a plain name or an attribute of
``self`` (``isinstance(self.x, A)``: pyright and mypy narrow member access expressions until they are
assigned). Nothing is written when the guarded lines bind the name again (``x = B()`` inside ends the
narrowing). ``type(x) is A`` / ``in`` narrow as ``isinstance`` does (``A``'s subclasses' overrides
too): a binding cannot say "exactly ``A``".
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from tree_sitter import Node

from indexer.languages.base import query, run_query
from indexer.model import NARROWED, Binding

__all__ = ["MAX_TEST_DEPTH", "Guards", "isinstance_narrowings", "isinstance_test", "type_guards"]

MAX_TEST_DEPTH = 32
"""Alternations of ``and`` and ``or`` a type test is read through (``a and (b or (c and ...))``)."""

_EXITS = frozenset({"return_statement", "raise_statement", "continue_statement", "break_statement"})
_BINDERS = frozenset({"assignment", "augmented_assignment", "for_statement", "named_expression", "with_item"})

Text = Callable[[Node], str]
Guards = dict[str, str]
"""A file's user-defined type guards: the callee text (``is_a``, ``self.is_a``) -> the class text."""

_GUARD_RETURN = re.compile(r"(?:[A-Za-z_][\w.]*\.)?(?:TypeGuard|TypeIs)\[\s*(['\"]?)([A-Za-z_][\w.]*)\1\s*\]")


def isinstance_test(test: Node, text: Text, guards: Guards | None = None) -> tuple[str, tuple[str, ...], bool] | None:
    """``(name, class texts, negated)`` of a type test (module docstring), ``not`` of one, an operand
    of an ``and`` (the first that is one, not negated), or of an ``or`` (the first negated one, or
    every operand when all test the same name: a union); ``None`` for anything else. ``name`` is ``x``
    or ``self.x``; the class texts are one, or a tuple's several. ``negated``: ``x`` is one of the
    classes where ``test`` is false. ``guards``: the file's user-defined type guards
    (:func:`type_guards`), whose calls test too. ``not`` and the operands of an ``and`` / ``or`` are
    read in loops, not by recursion: ``isinstance(x, A) and y1 and ... and y2000`` nests 2,000 deep
    (brk52); an ``and`` inside an ``or`` inside an ``and`` ... is read to :data:`MAX_TEST_DEPTH` levels."""
    return _test(test, text, guards, 0)


def _test(test: Node, text: Text, guards: Guards | None, depth: int) -> tuple[str, tuple[str, ...], bool] | None:
    """:func:`isinstance_test` at ``depth`` alternations of ``and`` / ``or``."""
    if depth > MAX_TEST_DEPTH:
        return None
    negated = False
    while True:
        while test.type == "parenthesized_expression" and test.named_child_count == 1:
            test = test.named_children[0]
        if test.type != "not_operator":
            break
        arg = test.child_by_field_name("argument")
        if arg is None or negated:  # `not not ...`: read as nothing, as a reader would not write it
            return None
        negated, test = True, arg
    if test.type == "boolean_operator":
        inner = _and_operand(test, text, guards, depth) or _or_operand(test, text, guards, depth)
    elif test.type == "comparison_operator":
        inner = _type_is(test, text)
    else:
        inner = _isinstance_call(test, text) or _guard_call(test, text, guards)
    return (inner[0], inner[1], inner[2] != negated) if inner is not None else None


def _operands(test: Node, kind: str) -> list[Node]:
    """The operands of the ``kind`` (``and`` / ``or``) chain ``test``, left to right, nested chains of
    the same operator flattened with a stack; ``[]`` when ``test`` is no such chain."""
    op = test.child_by_field_name("operator")
    if op is None or op.type != kind:
        return []
    out: list[Node] = []
    stack = [test]
    while stack:
        node = stack.pop()
        while node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        op = node.child_by_field_name("operator") if node.type == "boolean_operator" else None
        if op is not None and op.type == kind:
            stack.extend(side for side in (node.child_by_field_name("right"), node.child_by_field_name("left"))
                         if side is not None)
        else:
            out.append(node)
    return out


def _and_operand(test: Node, text: Text, guards: Guards | None, depth: int) -> tuple[str, tuple[str, ...], bool] | None:
    """The first operand of the ``and`` chain ``test`` that is a type test not negated (where the
    ``and`` is true, it is); ``None`` when ``test`` is not an ``and`` or none is. An ``or`` among the
    operands is read as a test of its own (:func:`_or_operand`)."""
    for node in _operands(test, "and"):
        inner = _test(node, text, guards, depth + 1)
        if inner is not None and not inner[2]:
            return inner
    return None


def _or_operand(test: Node, text: Text, guards: Guards | None, depth: int) -> tuple[str, tuple[str, ...], bool] | None:
    """Of the ``or`` chain ``test``: its first operand that is a negated type test (``if not
    isinstance(x, A) or y: return``: where the ``or`` is false, every operand is, so ``x`` is an
    ``A``), negated; else, when every operand is a type test of one name not negated
    (``isinstance(x, A) or isinstance(x, B)``), their classes together (``x`` is one of them where the
    ``or`` is true); ``None`` otherwise. The narrowing mypy and pyright do for ``or``."""
    operands = _operands(test, "or")
    tests = [_test(node, text, guards, depth + 1) for node in operands]
    for inner in tests:
        if inner is not None and inner[2]:
            return inner
    if not operands or any(t is None or t[2] or t[0] != tests[0][0] for t in tests):  # type: ignore[index]
        return None
    return tests[0][0], tuple(dict.fromkeys(c for t in tests for c in t[1])), False  # type: ignore[index]


def _guard_call(test: Node, text: Text, guards: Guards | None) -> tuple[str, tuple[str, ...], bool] | None:
    """``is_a(x)`` of a user-defined type guard (``def is_a(v) -> TypeGuard[A]`` / ``TypeIs[A]``,
    PEP 647 / PEP 742; :func:`type_guards`) as ``(x, (A,), False)``: where the call returns true, its
    first positional argument is an ``A``. (Where it returns false, a ``TypeIs`` says ``x`` is no
    ``A``: nothing narrows to a negation here, so both read alike.)"""
    if not guards or test.type != "call":
        return None
    fn, args = test.child_by_field_name("function"), test.child_by_field_name("arguments")
    cls = guards.get(text(fn)) if fn is not None else None
    if cls is None or args is None or args.type != "argument_list":
        return None
    parts = [a for a in args.named_children if a.type != "comment"]
    if not parts or parts[0].type in ("keyword_argument", "list_splat", "dictionary_splat") \
            or not _subject(parts[0], text):
        return None
    return text(parts[0]), (cls,), False


def _isinstance_call(test: Node, text: Text) -> tuple[str, tuple[str, ...], bool] | None:
    """``isinstance(x, A)`` / ``isinstance(x, (A, B))`` as ``(x, classes, False)``; else ``None``."""
    if test.type != "call":
        return None
    fn, args = test.child_by_field_name("function"), test.child_by_field_name("arguments")
    if fn is None or text(fn) != "isinstance" or args is None:
        return None
    parts = [a for a in args.named_children if a.type != "comment"]
    if len(parts) != 2 or not _subject(parts[0], text):
        return None
    classes = _classes(parts[1], text)
    return (text(parts[0]), classes, False) if classes else None


def _bound_names(node: Node, text: Text) -> set[str]:
    """The names ``node``'s binders bind (an assignment's left side, a loop's, a walrus's, a ``with
    ... as``'s), the words of the target's text as :func:`_rebinds` reads them."""
    target = node.child_by_field_name("left") or node.child_by_field_name("name") or node.child_by_field_name("alias")
    return set(text(target).replace("(", " ").replace(",", " ").split()) if target is not None else set()


def _subject(node: Node, text: Text) -> bool:
    """Whether ``node`` is what a test narrows: a plain name or ``self.<name>``."""
    if node.type == "identifier":
        return True
    obj = node.child_by_field_name("object") if node.type == "attribute" else None
    return obj is not None and obj.type == "identifier" and text(obj) == "self" \
        and (node.child_by_field_name("attribute") or obj).type == "identifier"


def _classes(node: Node, text: Text) -> tuple[str, ...]:
    """The class texts of an ``isinstance`` second argument: a name or dotted name, or a tuple of them
    (each once); empty when any part is something else."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type in ("identifier", "attribute"):
        return (text(node),)
    if node.type != "tuple":
        return ()
    parts = [c for c in node.named_children if c.type != "comment"]
    if not parts or any(c.type not in ("identifier", "attribute") for c in parts):
        return ()
    return tuple(dict.fromkeys(text(c) for c in parts))


def _type_is(test: Node, text: Text) -> tuple[str, tuple[str, ...], bool] | None:
    """``type(x) is A`` / ``type(x) == A`` (negated: ``is not`` / ``!=``), ``type(x) in (A, B)``
    (:func:`_type_in`), one comparison only."""
    operands = [c for c in test.named_children if c.type != "comment"]
    ops = [c.type for c in test.children if not c.is_named]
    if len(operands) == 2 and ops in (["in"], ["not in"], ["not", "in"]):
        return _type_in(operands[0], operands[1], text, ops != ["in"])
    if len(operands) != 2 or ops not in (["is"], ["=="], ["is", "not"], ["is not"], ["!="]):
        return None
    call, cls = operands
    if call.type != "call":
        call, cls = cls, call
    name = _type_of(call, text)
    if name is None or cls.type not in ("identifier", "attribute"):
        return None
    return name, (text(cls),), ops not in (["is"], ["=="])


def _type_of(call: Node, text: Text) -> str | None:
    """``x`` of ``type(x)`` (a name or ``self.x``), else ``None``."""
    fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if call.type != "call" or fn is None or text(fn) != "type" or args is None:
        return None
    parts = [a for a in args.named_children if a.type != "comment"]
    return text(parts[0]) if len(parts) == 1 and _subject(parts[0], text) else None


def _type_in(call: Node, classes: Node, text: Text, negated: bool) -> tuple[str, tuple[str, ...], bool] | None:
    """``type(x) in (A, B)`` (a tuple, list or set of class names; ``not in`` negated): ``x`` is one of
    them, as with ``isinstance(x, (A, B))`` (Django ``type(self) in (GEOSGeometryBase, GEOSGeometry)``,
    ``contrib/gis/geos/geometry.py:34``)."""
    name = _type_of(call, text)
    if name is None:
        return None
    while classes.type == "parenthesized_expression" and classes.named_child_count == 1:
        classes = classes.named_children[0]
    if classes.type not in ("tuple", "list", "set"):
        return None
    parts = [c for c in classes.named_children if c.type != "comment"]
    if not parts or any(c.type not in ("identifier", "attribute") for c in parts):
        return None
    return name, tuple(dict.fromkeys(text(c) for c in parts)), negated


def _unquoted(annotation: str) -> str:
    """An annotation's text without the quotes of a string annotation (``"TypeGuard[A]"``)."""
    a = annotation.strip()
    return a[1:-1].strip() if len(a) >= 2 and a[0] == a[-1] and a[0] in "'\"" else a


def type_guards(root: Node, text: Text) -> Guards:
    """The user-defined type guards of the file under ``root``: each function whose return annotation
    is ``TypeGuard[A]`` or ``TypeIs[A]`` (PEP 647, PEP 742; ``typing.``, ``typing_extensions.`` or
    any module prefix; ``A`` a name, dotted name or its string) by the text a call names it with:
    ``is_a`` (a function), ``self.is_a`` and ``cls.is_a`` (a method, its first argument after
    ``self``). A name two guards of other classes share is left out. Another module's guards are not
    read (the extractor sees one file)."""
    out: dict[str, str | None] = {}
    source = text(root)
    stack = [root] if "TypeGuard" in source or "TypeIs" in source else []  # most files: no second walk
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "function_definition":
            continue
        ret, name = n.child_by_field_name("return_type"), n.child_by_field_name("name")
        m = _GUARD_RETURN.fullmatch(_unquoted(text(ret))) if ret is not None and name is not None else None
        if m is None:
            continue
        method = n.parent is not None and n.parent.type == "block" and n.parent.parent is not None \
            and n.parent.parent.type == "class_definition"
        for callee in ((f"self.{text(name)}", f"cls.{text(name)}") if method else (text(name),)):
            out[callee] = m.group(2) if out.get(callee, m.group(2)) == m.group(2) else None
    return {k: v for k, v in out.items() if v is not None}


def _rebinds(nodes: list[Node], name: str, text: Text) -> bool:
    """Whether ``nodes`` (statements) bind ``name`` anywhere inside (an assignment, a loop, a walrus)."""
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if n.type in _BINDERS and name in _bound_names(n, text):
            return True
        stack.extend(n.named_children)
    return False


class _Block:
    """A block's statements read once for every negated guard in it: their start bytes (the statements
    after a guard by bisection) and, for each name bound anywhere inside them, the index of the last
    statement binding it. One walk per block; a guard asked :func:`_rebinds` of every statement after it,
    quadratic in a function of N ``if not isinstance(...): return`` guards (2,000: 51 s; brk52)."""

    def __init__(self, block: Node, text: Text) -> None:
        self.children = block.named_children
        self.starts = [c.start_byte for c in self.children]
        self.last: dict[str, int] = {}
        for i, child in enumerate(self.children):
            stack = [child]
            while stack:
                n = stack.pop()
                if n.type in _BINDERS:
                    for word in _bound_names(n, text):
                        self.last[word] = i
                stack.extend(n.named_children)

    def after(self, end_byte: int) -> int:
        """The index of the first statement starting past ``end_byte`` (``len(children)``: none)."""
        return bisect.bisect_right(self.starts, end_byte)

    def rebound_from(self, i: int, name: str) -> bool:
        """Whether a statement at index ``i`` or later binds ``name``."""
        return self.last.get(name, -1) >= i


def _line(node: Node, last: bool = False) -> int:
    """1-based first (or ``last``) line of ``node``."""
    if not last:
        return node.start_point[0] + 1
    row, col = node.end_point
    return row + 1 if col > 0 or row == node.start_point[0] else row


def isinstance_narrowings(root: Node, text: Text, scope_at: Callable[[int], str | None]) -> list[Binding]:
    """The :data:`~indexer.model.NARROWED` bindings of the type tests under ``root`` (module
    docstring): scope from ``scope_at`` (a byte offset -> qualname), ``type`` the class text,
    ``line`` / ``end`` the guarded lines. Read: an ``if``'s test (its suite; after it to the end of
    the block when the test is negated and the suite leaves), an ``assert``'s (after it to the end of
    the block, as ``if not test: raise``), a ``match`` statement's class patterns (:func:`_case_narrowings`)."""
    out: list[Binding] = []
    blocks: dict[tuple[int, int, str], _Block] = {}
    guards = type_guards(root, text)
    for n in _statements(root):
        if n.type == "match_statement":
            out.extend(_case_narrowings(n, text, scope_at))
            continue
        if n.type == "assert_statement":
            tested = next((c for c in n.named_children if c.type != "comment"), None)
            found = isinstance_test(tested, text, guards) if tested is not None else None
            if found is not None and not found[2]:
                out.extend(_after(n, found, text, scope_at, blocks))
            continue
        if n.type != "if_statement":
            continue
        test, body = n.child_by_field_name("condition"), n.child_by_field_name("consequence")
        found = isinstance_test(test, text, guards) if test is not None and body is not None else None
        if found is None:
            continue
        name, classes, negated = found
        if not negated:
            if not _rebinds(body.named_children, name, text):
                out.extend(Binding(scope_at(n.start_byte), name, c, NARROWED, _line(body), _line(body, True))
                           for c in classes)
            continue
        stmts = [c for c in body.named_children if c.type != "comment"]
        if not stmts or stmts[-1].type not in _EXITS or n.child_by_field_name("alternative") is not None:
            continue
        for each in _negated_operands(test, text, guards) or [found]:
            out.extend(_after(n, each, text, scope_at, blocks))
    return out


def _statements(root: Node) -> list[Node]:
    """The ``if``, ``assert`` and ``match`` statements under ``root`` (the query ``narrowing``, served
    by the extractor's shared walk), in the order a walk popping each node's named children from a
    stack meets them: a statement before those inside it, and otherwise the later one first. That
    is the order of the bindings :func:`isinstance_narrowings` has always written (a walk in Python
    that visited every node of the file: a tenth of Django's extraction CPU)."""
    found = [caps["narrowing.stmt"][0] for _, caps in run_query(query("python", "python/queries", "narrowing"), root)]
    # Within one tree two such statements are disjoint or nested: a later end first (disjoint: the
    # later one; nested: the outer one), the outer one first when both end at the same byte.
    found.sort(key=lambda n: (-n.end_byte, n.start_byte))
    return found


def _negated_operands(test: Node, text: Text, guards: Guards | None) -> list[tuple[str, tuple[str, ...], bool]]:
    """Every negated type test among the operands of the ``or`` chain ``test`` (``if not isinstance(a,
    A) or not isinstance(b, B): raise``: past it, ``a`` is an ``A`` and ``b`` a ``B``; Django
    ``CoordTransform.__init__``, ``contrib/gis/gdal/srs.py:353``), one per name (the first); ``[]``
    when ``test`` is no ``or``."""
    while test.type == "parenthesized_expression" and test.named_child_count == 1:
        test = test.named_children[0]
    out: dict[str, tuple[str, tuple[str, ...], bool]] = {}
    for node in _operands(test, "or") if test.type == "boolean_operator" else ():
        inner = _test(node, text, guards, 1)
        if inner is not None and inner[2] and inner[0] not in out:
            out[inner[0]] = inner
    return list(out.values())


def _after(stmt: Node, found: tuple[str, tuple[str, ...], bool], text: Text, scope_at: Callable[[int], str | None],
           blocks: dict[tuple[int, int, str], _Block]) -> list[Binding]:
    """The bindings of ``found``'s name as its classes from the statement after ``stmt`` to the end
    of ``stmt``'s block (none when a statement there binds the name again, or none follows)."""
    block = stmt.parent
    if block is None:
        return []
    key = (block.start_byte, block.end_byte, block.type)
    if key not in blocks:
        blocks[key] = _Block(block, text)
    found_block = blocks[key]
    first = found_block.after(stmt.end_byte)
    name, classes, _ = found
    if first >= len(found_block.children) or found_block.rebound_from(first, name):
        return []
    return [Binding(scope_at(stmt.start_byte), name, c, NARROWED, _line(found_block.children[first]),
                    _line(found_block.children[-1], True)) for c in classes]


def _case_narrowings(match: Node, text: Text, scope_at: Callable[[int], str | None]) -> list[Binding]:
    """``match x:`` ... ``case A():`` / ``case A() | B():`` / ``case A(k=v) as y:``: inside the case's
    block, ``x`` (a name or ``self.x``) is an ``A`` (one of the classes of a union; PEP 634 class
    patterns match by ``isinstance``), and so is the ``as`` name. Nothing for a case binding the name
    again inside, nor for any other pattern (``case _:``, literals, sequences, a union with one)."""
    subject = match.child_by_field_name("subject")
    body = match.child_by_field_name("body")
    if subject is None or body is None or len(match.children_by_field_name("subject")) != 1 or not _subject(subject, text):
        return []
    name = text(subject)
    out: list[Binding] = []
    for case in body.named_children:
        if case.type != "case_clause":
            continue
        pattern = next((c for c in case.named_children if c.type == "case_pattern"), None)
        block = case.child_by_field_name("consequence")
        if pattern is None or block is None or len([c for c in case.named_children if c.type == "case_pattern"]) != 1:
            continue
        classes, alias = _class_patterns(pattern, text)
        if not classes:
            continue
        for target in (name, alias):
            if target is not None and not _rebinds(block.named_children, target, text):
                out.extend(Binding(scope_at(case.start_byte), target, c, NARROWED, _line(block), _line(block, True))
                           for c in classes)
    return out


def _class_patterns(pattern: Node, text: Text) -> tuple[tuple[str, ...], str | None]:
    """The class texts of a case pattern made only of class patterns (``A()``, ``m.B(x=1)``, a union of
    them, one ``as y`` around: ``y`` second), else ``((), None)``."""
    alias: str | None = None
    node = pattern
    while True:
        kids = [c for c in node.named_children if c.type != "comment"]
        if node.type == "case_pattern" and len(kids) == 1:
            node = kids[0]
        elif node.type == "as_pattern" and alias is None and len(kids) == 2 and kids[1].type == "identifier":
            alias, node = text(kids[1]), kids[0]
        else:
            break
    parts = [c for c in node.named_children if c.type != "comment"] if node.type == "union_pattern" else [node]
    classes: list[str] = []
    for part in parts:
        while part.type == "case_pattern" and part.named_child_count == 1:
            part = part.named_children[0]
        head = part.named_children[0] if part.type == "class_pattern" and part.named_child_count else None
        if head is None or head.type != "dotted_name":
            return (), None
        classes.append(text(head))
    return tuple(dict.fromkeys(classes)), alias
