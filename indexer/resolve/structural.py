"""Interfaces satisfied implicitly (Go): which types of a repository implement which interfaces by
their method sets, with no declared base. Language-neutral: a module system opts in with the optional
attribute ``structural_interfaces = True`` (read with ``getattr``, default ``False``).

Rules: a type's method set is its own methods (declared in any file of its module when the language's
types are open, ``ModuleSystem.open_types``) plus those of the types it embeds (its resolved
``bases``, transitively: promoted methods); an interface's is its own methods plus those of the
interfaces it embeds. A concrete type (kind ``class``) satisfies an interface of the same namespace
when its method set holds every name of the interface's, which must not be empty (``interface{}`` /
``any`` would be satisfied by everything and dispatches nowhere), and both lie in one *scope*: the
module system's optional ``structural_scopes(files) -> {path: scope}`` (Go: the folder of the nearest
``go.mod``, so copies of generated code in the services of a monorepo do not satisfy each other's
interfaces), else the whole namespace; a scope's types also satisfy the interfaces of the scopes the
module system's optional ``structural_reach(files) -> {scope: scopes}`` says it reaches (Go: the
in-repository modules its ``go.mod`` requires, transitively) and of the scopes reaching it; a call
dispatched through an interface reaches only the implementations of such scopes of the caller's
(:meth:`StructuralLinks.together`). A type defined as another named type
(modifier :data:`DEFINED`) has that type's method set when it is an interface (and is then an
interface itself, no concrete type: a call on it reaches the types satisfying it), else the methods
that type's embedded fields promote. A method matches an interface's by its name and its parameter
list's shape: the same number of parameters and both variadic or neither. So a gRPC server
(``GetCart(ctx, req)``) does not satisfy the generated client interface (``GetCart(ctx, in, opts
...grpc.CallOption)``), nor a protobuf message's getter (``AdResponse.GetAds()``) it.

Parameter and result types are compared too (the Go specification's "identical function types")
where the module system's optional ``structural_types(files, known)`` keys them (Go:
:class:`~indexer.languages.go.typekeys.GoTypeKeys`; ``known(module key, name)`` says whether a package
declares a type of that name): the number of results and, position by position, identical keys. A
type a key does not understand (``None``: a function type, an alias) matches anything there, as the
count alone did. A defined type's instantiation binds its interface's type parameters
(``type ScheduleHandler CommandHandler[Schedule]`` requires ``Handle(context.Context, Schedule)
error``); a type parameter left unbound (a call through ``CommandHandler[C]`` in generic code) matches
any type. A generic implementer's method taking its own type parameter (``logging[C].Handle(ctx, cmd
C)``) satisfies only an interface whose position is an unbound type parameter: where the type argument
is bound (``ScheduleHandler``), the implementations taking ``Schedule`` are the targets, and a
generic wrapper (a logging decorator around every command handler of every module) is not, which
would link every caller of any bound handler to every handler the wrapper's own generic call reaches.
Methods promoted from an embedded type lose their type parameters (the embedding's type arguments are
not read): unknown there.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from indexer.resolve.values import Def

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["DEFINED", "MAX_INTERFACE_TYPES", "StructuralLinks", "method_signature", "reach_state", "reach_token",
           "structural_links"]

log = logging.getLogger(__name__)

DEFINED = "defined"
"""The modifier of a type defined as another named type (Go ``type X pkg.Y[T]``, ``Y`` its only base):
X has Y's methods when Y is an interface (X is one then, and no concrete type), else only those Y's
embedded fields promote."""

MAX_INTERFACE_TYPES = 200_000
"""Bound on (interface, candidate type) checks per run: a generated repository with thousands of
interfaces and types gets the links found before the bound, never a quadratic stall (logged). The
watch list of (type, interface sharing a method name) pairs (:attr:`StructuralLinks.near`) has a bound
of its own: 2,500 protobuf enums with ``String()`` and 100 interfaces holding ``String()`` spent the
checks' bound on it and linked no implementation at all (brk53)."""


class StructuralLinks:
    """The result: ``implementers[id(interface)]`` (types satisfying it, in path order) and
    ``interfaces[id(type)]`` (interfaces it satisfies); ``types`` maps ``(namespace, module key, type
    name)`` to the type, so a method declared in another file of the package finds its type."""

    def __init__(self) -> None:
        self.implementers: dict[int, list[Def]] = {}
        self.interfaces: dict[int, list[Def]] = {}
        self.types: dict[tuple[str, str, str], Def] = {}
        self.pairs: list[tuple[Def, Def]] = []
        """Every ``(interface, implementer)`` link."""
        self.method_sets: dict[int, frozenset[str]] = {}
        """``method_sets[id(type)]``: the method names of a type, promoted ones included."""
        self.signatures: dict[int, frozenset[tuple[str, int, bool]]] = {}
        """``signatures[id(type)]``: its methods as ``(name, parameter count, variadic)``, promoted
        ones included: what satisfying an interface compares (:func:`method_signature`)."""
        self.near: dict[int, list[Def]] = {}
        """``near[id(type)]``: the interfaces of its scope sharing a method name with it (one that
        changes may come to be satisfied, or stop being: what an incremental run watches)."""
        self.scope_of: dict[str, str] = {}
        """Each file's scope (the module system's ``structural_scopes``; files of no such system absent)."""
        self.reach: dict[tuple[str, str], frozenset[str]] = {}
        """``reach[(namespace, scope)]``: the scopes it builds against (``structural_reach``)."""
        self.type_reads: dict[int, set[str]] = {}
        """``type_reads[id(type)]``: the repository type names whose being declared in their folder
        (a type key known or not) decided whether it satisfies an interface it was compared with, or,
        for an interface, whether a type satisfies it: a binding resting on that answer watches them
        (a ``Schedule`` turned into an alias in another file makes ``Handle(cmd Schedule)`` compare by
        count)."""

    def together(self, namespace: str, caller: str, target: str) -> bool:
        """Whether code of the file ``caller`` may run a method of the file ``target`` reached by
        implicit dispatch: both in one scope, or one's scope built against the other's (a module
        calling through an interface of a module it requires reaches its own implementations and those
        of the modules it requires; a required module's code reaches those of the modules requiring
        it). Two modules that require nothing of each other (two services using one ``common``
        module) never: no binary of either holds the other's types. True for files of no scope."""
        a, b = self.scope_of.get(caller), self.scope_of.get(target)
        if a is None or b is None or a == b:
            return True
        return b in self.reach.get((namespace, a), ()) or a in self.reach.get((namespace, b), ())

    def type_of_method(self, fc: FileCtx, m: Def) -> Def | None:
        """The type a method of ``fc`` belongs to (its ``parent``, in any file of the module)."""
        if not m.parent:
            return None
        return self.types.get((fc.rules.namespace, fc.module_key, m.parent))


Typed: TypeAlias = "tuple[tuple[str | None, ...], tuple[str | None, ...]] | None"
"""A method's parameter and result type keys (the module system's ``structural_types``), ``None``
when unknown; ``$i`` in a key is the i-th type parameter of the declaring type."""


def reach_token(namespace: str) -> tuple[str, str, str]:
    """The token a binding records when it depends on which scopes reach which (a call dispatched
    through an interface of a namespace of implicit interfaces, an implicit IMPLEMENTS / OVERRIDES
    edge): changed when :func:`reach_state` changes (Go: a ``go.mod`` ``require`` added or removed, a
    ``go.mod`` that comes or goes), so an incremental run binds those files again."""
    return ("reach", namespace, "")


def _by_namespace(files: Sequence[FileCtx]) -> dict[str, list[FileCtx]]:
    in_ns: dict[str, list[FileCtx]] = defaultdict(list)
    for fc in files:
        in_ns[fc.rules.namespace].append(fc)
    return in_ns


def _scopes_and_reach(in_ns: dict[str, list[FileCtx]]
                      ) -> tuple[dict[str, str], dict[tuple[str, str], frozenset[str]]]:
    """Each file's scope and ``{(namespace, scope): the scopes it builds against}`` (the module
    systems' optional ``structural_scopes`` / ``structural_reach``), for namespaces of implicit interfaces."""
    scope_of: dict[str, str] = {}
    reach: dict[tuple[str, str], frozenset[str]] = {}
    for ns, ns_files in in_ns.items():
        scopes = getattr(ns_files[0].rules, "structural_scopes", None)
        if scopes is not None and getattr(ns_files[0].rules, "structural_interfaces", False):
            scope_of.update(scopes(ns_files))
            reached = getattr(ns_files[0].rules, "structural_reach", None)
            for scope, others in (reached(ns_files) if reached is not None else {}).items():
                reach[(ns, scope)] = others
    return scope_of, reach


def reach_state(files: Sequence[FileCtx]) -> dict[str, tuple[frozenset[str], frozenset[tuple[str, frozenset[str]]]]]:
    """``{namespace: (its scopes, what each reaches)}`` over ``files``: what the implicit
    implementations across scopes depend on beyond the definitions (compared before and after an
    update; a namespace whose state differs has its :func:`reach_token` changed). Files of no scope
    count as the scope ``""``."""
    scope_of, reach = _scopes_and_reach(_by_namespace(files))
    out: dict[str, tuple[set[str], set[tuple[str, frozenset[str]]]]] = {}
    for fc in files:
        if fc.path in scope_of:
            out.setdefault(fc.rules.namespace, (set(), set()))[0].add(scope_of[fc.path])
    for (ns, scope), others in reach.items():
        out.setdefault(ns, (set(), set()))[1].add((scope, others))
    return {ns: (frozenset(a), frozenset(b)) for ns, (a, b) in out.items()}


def method_signature(m: Def) -> tuple[str, int, bool]:
    """``(name, parameter count, variadic)`` of a method or interface method: two methods of one name
    but another count (``Get()`` and ``Get(ctx, in, opts...)``) or variadic-ness are not identical."""
    return (m.name, m.shape.params, m.shape.max_arity is None)


def structural_links(files: Sequence[FileCtx], bases: Callable[[Def], list[Def]]) -> StructuralLinks:
    """Compute the implicit implementations among ``files`` (only files whose module system sets
    ``structural_interfaces``); ``bases(type)`` gives a type's resolved bases (embedded types)."""
    out = StructuralLinks()
    own: dict[tuple[str, str, str], set[tuple[str, int, bool]]] = defaultdict(set)
    own_methods: dict[tuple[str, str, str], dict[tuple[str, int, bool], Def]] = defaultdict(dict)
    by_ns: dict[tuple[str, str], list[Def]] = defaultdict(list)
    in_ns = _by_namespace(files)
    scope_of, reach = _scopes_and_reach(in_ns)
    for fc in files:
        if not getattr(fc.rules, "structural_interfaces", False):
            continue
        ns = fc.rules.namespace
        for rd in fc.defs:
            d = rd.d
            if d.kind in ("class", "interface") and d.parent is None:
                out.types[(ns, fc.module_key, d.name)] = rd
                by_ns[(ns, scope_of.get(fc.path, ""))].append(rd)
            elif d.kind == "method" and d.parent:
                own[(ns, fc.module_key, d.parent)].add(method_signature(rd))
                own_methods[(ns, fc.module_key, d.parent)].setdefault(method_signature(rd), rd)
    sigs = out.signatures
    out.scope_of, out.reach = scope_of, reach
    typers = {}
    for ns, ns_files in in_ns.items():
        make = getattr(ns_files[0].rules, "structural_types", None)
        if make is not None and getattr(ns_files[0].rules, "structural_interfaces", False):
            typers[ns] = make(ns_files, lambda key, name, ns=ns: known(ns, key, name))
    typed_memo: dict[tuple[int, tuple[str, int, bool]], Typed] = {}
    args_memo: dict[int, tuple[str | None, ...]] = {}
    reads_memo: dict[object, frozenset[str]] = {}  # the type names each memoised key read
    reading: list[set[str]] = []  # the reads of the computations in progress, innermost last

    def known(ns: str, key: str, name: str) -> bool:
        for r in reading:
            r.add(name)
        return (ns, key, name) in out.types

    def replay(key: object) -> None:
        for r in reading:
            r.update(reads_memo.get(key, ()))

    def typed(t: Def, sig: tuple[str, int, bool], depth: int = 0) -> Typed:
        """The type keys of ``t``'s method of signature ``sig`` (its own, else the first base's that
        has it, as :func:`signatures` collects them), ``None`` when unknown. Computed per needed
        signature only: grpc-go's 20,000 definitions spent 2.7 s keying every method of every
        candidate type."""
        key = (id(t), sig)
        if key in typed_memo:
            replay(key)
            return typed_memo[key]
        typed_memo[key] = None  # a cycle of embeddings adds nothing
        typer = typers.get(t.file.rules.namespace)
        if typer is None:
            return None
        reading.append(set())
        got = _typed(t, sig, typer, depth)
        reads_memo[key] = frozenset(reading.pop())
        replay(key)
        typed_memo[key] = got
        return got

    def _typed(t: Def, sig: tuple[str, int, bool], typer: Any, depth: int) -> Typed:
        m = own_methods.get((t.file.rules.namespace, t.file.module_key, t.name), {}).get(sig)
        got: Typed = None
        if m is not None:
            got = typer.method(m.file, m.d, lambda: t.d)
        elif depth < 32:
            for b in bases(t):
                if DEFINED in t.d.modifiers and interface_like(b, depth + 1):
                    if sig in signatures(b):
                        if id(t) not in args_memo:
                            reading.append(set())
                            args_memo[id(t)] = typer.arguments(t.file, t.d)
                            reads_memo[id(t)] = frozenset(reading.pop())
                        replay(id(t))
                        got = _bound(typed(b, sig, depth + 1), args_memo[id(t)])
                        break
                    continue
                inner = [bb for bb in ([b] if DEFINED not in t.d.modifiers else bases(b)) if sig in signatures(bb)]
                if inner:
                    got = _bound(typed(inner[0], sig, depth + 1), None)
                    break
        return got

    def fits(iface: Def, t: Def, need: frozenset[tuple[str, int, bool]]) -> bool:
        """Whether ``t``'s methods have the types ``iface``'s require (unknown ones match)."""
        if iface.file.rules.namespace not in typers:
            return True
        reading.append(set())
        try:
            return all(_same_types(typed(iface, sig), typed(t, sig)) for sig in need)
        finally:
            names = reading.pop()
            out.type_reads.setdefault(id(iface), set()).update(names)
            out.type_reads.setdefault(id(t), set()).update(names)

    def signatures(t: Def, depth: int = 0) -> frozenset[tuple[str, int, bool]]:
        got = sigs.get(id(t))
        if got is not None:
            return got
        sigs[id(t)] = frozenset()  # a cycle of embeddings adds nothing
        found = set(own.get((t.file.rules.namespace, t.file.module_key, t.name), ()))
        if depth < 32:
            for b in bases(t):
                if DEFINED not in t.d.modifiers or interface_like(b, depth + 1):
                    found |= signatures(b, depth + 1)
                else:  # type X Y, Y a struct: X has the methods Y's embedded fields promote, not Y's own
                    for bb in bases(b):
                        found |= signatures(bb, depth + 1)
        sigs[id(t)] = frozenset(found)
        return sigs[id(t)]

    like: dict[int, bool] = {}  # interface_like's answers at depth 0 (asked several times per type and scope)

    def interface_like(t: Def, depth: int = 0) -> bool:
        """An interface, or a type defined as one (``type H decorator.CommandHandler[C]``)."""
        if t.kind == "interface":
            return True
        if DEFINED not in t.d.modifiers:
            return False
        if depth == 0 and id(t) in like:
            return like[id(t)]
        found = depth < 32 and any(interface_like(b, depth + 1) for b in bases(t))
        if depth == 0:
            like[id(t)] = found
        return found

    def method_set(t: Def) -> frozenset[str]:
        got = out.method_sets.get(id(t))
        if got is None:
            got = out.method_sets[id(t)] = frozenset(name for name, _, _ in signatures(t))
        return got

    budget = MAX_INTERFACE_TYPES
    near_budget = MAX_INTERFACE_TYPES  # its own bound: the watch list never costs the links (brk53)
    near_cut = 0
    for (ns, scope), own_types in by_ns.items():
        # The interfaces of the scope, of the scopes it builds against (Go: the modules its go.mod
        # requires) and of those building against it (their code holds its types).
        others = set(reach.get((ns, scope), ())) | {o for (n, o), r in reach.items() if n == ns and scope in r}
        types = own_types + [t for other in sorted(others - {scope}) for t in by_ns.get((ns, other), ())
                             if interface_like(t)]
        concrete = [t for t in own_types if t.kind == "class" and not interface_like(t)]
        by_sig: dict[tuple[str, int, bool], list[Def]] = defaultdict(list)
        for t in concrete:
            for sig in signatures(t):
                by_sig[sig].append(t)
        iface_by_name: dict[str, list[Def]] = defaultdict(list)
        for iface in types:
            if interface_like(iface):
                for name in method_set(iface):
                    iface_by_name[name].append(iface)
        for t in concrete:
            if near_budget < 0:  # past the bound: no watch list for the types left (logged below)
                near_cut += 1
                continue
            seen: dict[int, Def] = {}
            for name in method_set(t):
                for iface in iface_by_name.get(name, ()):
                    seen.setdefault(id(iface), iface)
                    near_budget -= 1
            out.near[id(t)] = list(seen.values())
        for iface in types:
            if not interface_like(iface):
                continue
            need = signatures(iface)
            if not need:
                continue
            rarest = min(need, key=lambda n: len(by_sig.get(n, ())))
            for t in by_sig.get(rarest, ()):
                budget -= 1
                if budget < 0:
                    log.warning("implicit interfaces: %d (interface, type) checks reached; the implementations "
                                "of the interfaces left are not linked", MAX_INTERFACE_TYPES)
                    return out
                if need <= signatures(t) and fits(iface, t, need):
                    out.implementers.setdefault(id(iface), []).append(t)
                    out.interfaces.setdefault(id(t), []).append(iface)
                    out.pairs.append((iface, t))
    if near_cut:
        log.warning("implicit interfaces: %d types share a method name with more interfaces than %d pairs "
                    "allow: an interface's change re-binds them only through their own method names",
                    near_cut, MAX_INTERFACE_TYPES)
    return out


_PARAM = re.compile(r"\$(\d+)")


def _bound(tt: Typed, args: tuple[str | None, ...] | None) -> Typed:
    """``tt`` with its type parameters bound to ``args`` (an instantiation's keys); with ``args``
    ``None`` (promoted through an embedding, whose type arguments are not read) or an argument
    unknown, the positions holding a parameter become unknown."""
    if tt is None:
        return None

    def one(k: str | None) -> str | None:
        if k is None or "$" not in k:
            return k
        if args is None:
            return None
        if any(int(i) >= len(args) or args[int(i)] is None for i in _PARAM.findall(k)):
            return None if args else k  # no instantiation written: the parameters stay unbound
        return _PARAM.sub(lambda m: args[int(m.group(1))] or "", k)

    return tuple(one(k) for k in tt[0]), tuple(one(k) for k in tt[1])


def _same_types(want: Typed, have: Typed) -> bool:
    """Whether an implementer's method types ``have`` are identical to an interface's ``want``
    (module docstring): unknown on either side matches; an unbound type parameter of the interface
    matches anything; the implementer's own type parameter matches only such a one."""
    if want is None or have is None:
        return True
    if len(want[1]) != len(have[1]) or len(want[0]) != len(have[0]):
        return len(want[0]) != len(have[0])  # a parameter count the shape read otherwise: not judged
    for w, h in zip(want[0] + want[1], have[0] + have[1], strict=True):
        if w is None or h is None or "$" in w:
            continue
        if "$" in h or w != h:
            return False
    return True


def structural_edges(links: StructuralLinks, fc: FileCtx, rd: Def, use: Callable[[tuple[str, str, str]], None],
                     lookup: Callable[[Def, str], tuple[list[Def], bool]]) -> list[tuple[str, Def]]:
    """The edges a definition of ``fc`` owns through implicit implementation: ``("IMPLEMENTS",
    interface)`` for a type, ``("OVERRIDES", interface method)`` for a method of a type satisfying
    interfaces. Records (``use``) what an incremental run must watch: the interfaces' names and the
    short names of the methods involved, so a method or interface that comes or goes re-binds it."""
    if not getattr(fc.rules, "structural_interfaces", False):
        return []
    ns = fc.rules.namespace
    if rd.is_type or rd.kind == "method":
        use(reach_token(ns))  # which modules' interfaces it may satisfy
    if rd.is_type:
        use(("n", ns, rd.name))
        for name in sorted(links.type_reads.get(id(rd), ())):  # the types its comparisons keyed
            use(("n", ns, name))
        # An interface that comes (or gains / loses a method) names methods by their short names: a
        # type whose method set holds one of them is bound again and may now satisfy it.
        for name in sorted(links.method_sets.get(id(rd), ())):
            use(("n", ns, name))
        for iface in links.near.get(id(rd), ()):
            use(("name", iface.file.path, iface.name))
        out = []
        for iface in links.interfaces.get(id(rd), ()):
            use(("name", iface.file.path, iface.name))
            out.append(("IMPLEMENTS", iface))
        return out
    if rd.kind != "method":
        return []
    use(("n", ns, rd.name))
    owner = links.type_of_method(fc, rd)
    for name in sorted(links.type_reads.get(id(owner), ())) if owner is not None else ():
        use(("n", ns, name))
    out = []
    for iface in links.interfaces.get(id(owner), ()) if owner is not None else ():
        use(("name", iface.file.path, iface.name))
        out.extend(("OVERRIDES", m) for m in lookup(iface, rd.name)[0] if m.is_callable)
    return out
