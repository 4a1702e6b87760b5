"""Classes and inheritance: resolved bases, subclasses, method resolution order, member lookup,
and the overrides a call can reach by dynamic dispatch. Language-neutral."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from indexer.model import base_type, drop_generics
from indexer.resolve.context import FileCtx, namesakes, overload_candidates
from indexer.resolve.multimap import entries
from indexer.resolve.structural import StructuralLinks, structural_links
from indexer.resolve.tracking import CUT, BoundedMemo, DependencyTracker
from indexer.resolve.values import ClassV, Def, Deps, Value

__all__ = ["ClassHierarchy", "base_tokens", "descendants", "same_arity", "same_parameter_types", "MAX_HIERARCHY_DEPTH", "MAX_OVERRIDERS", "LOOKUPS_SHARE", "MRO_SHARE", "OVERRIDERS_SHARE"]

OVERRIDERS_SHARE = 4
"""A bounded tracker's memo budget divided by this is how many dispatch-target walks
(:meth:`ClassHierarchy.overriders`) a one-shot run keeps (25,000 // 4: at most about 3.7 MiB)."""

MRO_SHARE = 2
"""A bounded tracker's memo budget divided by this is how many MROs (:meth:`ClassHierarchy.mro`)
and as many C3 linearisations a one-shot run keeps (25,000 // 2 = 12,500; an MRO with its reads is
about 750 bytes: at most about 9 MiB). A dropped one is computed again from the bases each class
holds once resolved (:attr:`indexer.resolve.values.Def.bases`), the same list with the same reads:
both are pure functions of the bases, which :meth:`ClassHierarchy.reset` and
:meth:`ClassHierarchy.renew` forget whenever they change. Unbounded, the MRO memo held one entry per
class with bases for the whole run (the 10-package generated monorepo: 2,155 entries, 1.55 MiB; the
400 MB one about 39,000, an estimate). The share keeps all of Django's 8,443: at 8 (3,125 kept) its
resolve computed 119,752 MROs again, about 5% more of its CPU (docs/benchmarks.md, session 58)."""

LOOKUPS_SHARE = 8
"""A bounded tracker's memo budget divided by this is how many member lookups
(:meth:`ClassHierarchy.lookup`) a one-shot run keeps, the most recently used (25,000 // 8 = 3,125; an
entry with its reads is about 350 bytes: at most about 1.1 MiB). The calls of one file look the same
members up again and again: Django 5.2.8 makes 592,000 lookups of 260,000 distinct ``(class, name)``
pairs, each computed by walking the class's MRO (about 2.5% of its binding's CPU;
docs/benchmarks.md, session 66). A dropped one is computed again with the same answer and reads."""

MAX_HIERARCHY_DEPTH = 64
"""Inheritance levels followed from one class, up (its MRO) or down (the overriders below it). Real
hierarchies are a few levels deep; a generated chain of thousands of classes would otherwise make
every lookup walk the whole chain (quadratic: 2,000 chained classes took 96 s to resolve)."""

MAX_OVERRIDERS = 128
"""Overrides one dispatch walk (:meth:`ClassHierarchy.overriders`) gives at most: the first ones it
meets. Every call bound to a method reaches each, so a base class calling its method 1,000 times
with 1,000 subclasses overriding it made a million CALLS edges (brk43: Java's implicit-this
dispatch, 109 s and 670 MiB); with the bound the edges grow with the calls. What is lost: calls
reach no more than 128 of a method's overrides; real hierarchies' widest (a visitor's ``accept``,
Django's ``Field`` methods) hold fewer."""


class ClassHierarchy:
    """Bases (resolved lazily, each class once, with what resolving them read), subclasses, MRO,
    lookup and overriders. ``resolve_type(fc, scope, text)`` evaluates a base's type text."""

    def __init__(self, track: DependencyTracker, resolve_type: Callable[[FileCtx, str | None, str | None], Value],
                 module_holders: Callable[[str, str, str, bool], Sequence[FileCtx]] | None = None) -> None:
        self.track = track
        self.module_holders = module_holders
        """``(language, module key, name, members) -> files`` (recorded,
        :meth:`indexer.resolve.interpreter.Resolver.module_holders`): where an open type's other members
        of a name live."""
        # Bound once: these run on every lookup.
        self.use = track.use
        self.use_all = track.use_all
        self.resolve_type = resolve_type
        self._overriders: BoundedMemo[int | tuple[int, int], tuple[Sequence[Def], Deps]] = BoundedMemo(
            None if track.budget is None else max(2, track.budget // OVERRIDERS_SHARE))
        """Dispatch targets of the walks that met a subclass, by ``id(method)`` (receiver typed as
        its class) or ``(id(method), id(receiver class))``; one that met none is computed again.
        Bounded like the tracker's memo when that is (a one-shot run): about 600 bytes an entry,
        3.3 MiB for the 5,902 of the 10-package generated monorepo, and as many more per 2,000
        files (docs/benchmarks.md)."""
        self._provided: BoundedMemo[tuple[int, str], tuple[Sequence[tuple[Def, list[Def]]], Deps, bool]] = BoundedMemo(
            self._overriders.budget)
        """:meth:`provided_below`'s walks, by ``(id(class), name)``, with :meth:`external_below`'s
        answer; bounded as :attr:`_overriders`."""
        self._mro_memo: BoundedMemo[int, tuple[list[Def], Deps]] = BoundedMemo(
            None if track.budget is None else max(2, track.budget // MRO_SHARE))
        """:meth:`mro`'s answers with what computing them read, by ``id(class)``: bounded like the
        tracker's memo when that is (a one-shot run). Unbounded it held one entry per class with
        bases for the whole run (see :data:`MRO_SHARE`)."""
        self._c3_memo: BoundedMemo[int, tuple[list[Def] | None, Deps]] = BoundedMemo(self._mro_memo.budget)
        """:meth:`_c3`'s linearisations by ``id(class)``; bounded as :attr:`_mro_memo`."""
        self._c3_active: set[int] = set()
        self._lookup_memo: BoundedMemo[tuple[int, str], tuple[list[Def], bool, Deps]] = BoundedMemo(
            None if track.budget is None else max(2, track.budget // LOOKUPS_SHARE))
        """Member lookups with what they read, by ``(id(class), name)``: every one where the tracker
        keeps its whole memo (a watcher, whose later updates ask again); in a one-shot run's, the
        most recent :data:`LOOKUPS_SHARE`-th of its budget (unbounded, on Home Assistant 2024.3.3
        it held about 15 MiB at the resolve phase's peak, docs/benchmarks.md)."""
        self.keep_lookups = True
        """Whether member lookups are memoised (:attr:`_lookup_memo`; always, bounded in a one-shot
        run)."""
        self._bases_busy = 0
        """Classes whose bases are being resolved right now: while any is, an MRO may see one of
        them half-made (its ``bases`` list is filled in place), so nothing is memoised."""
        self.structural = StructuralLinks()
        """Interfaces satisfied implicitly (:mod:`indexer.resolve.structural`): their implementers are
        among their ``subclasses``, so dispatch through an interface reaches them."""

    def reset(self, files: Sequence[FileCtx]) -> None:
        """Forget every class's bases (FileCtx objects outlive a resolver) and link subclasses anew."""
        self._forget_linearisations()
        for fc in files:
            for rd in fc.defs:
                rd.unlink()
        for fc in files:
            for rd in fc.defs:
                if rd.is_type:
                    for base in self.bases(rd):
                        _link(base, rd)
        self._link_structural(files)

    def _forget_linearisations(self) -> None:
        """Drop the memoised C3 merges, MROs and lookups: what every class's bases and members made
        (both change only in :meth:`reset` and :meth:`renew`, which call this first)."""
        self._c3_memo.clear()
        self._mro_memo.clear()
        self._lookup_memo.clear()

    def _link_structural(self, files: Sequence[FileCtx]) -> None:
        """Drop the previous implicit implementations from ``subclasses`` and link them anew."""
        for iface, t in self.structural.pairs:
            _unlink(iface, t)
        self.structural = structural_links(files, self.bases)
        added = []
        for iface, t in self.structural.pairs:
            if all(x is not t for x in iface.subclasses):  # not already a declared subclass
                _link(iface, t)
                added.append((iface, t))
        self.structural.pairs = added

    def renew(self, files: Sequence[FileCtx], tokens: set[tuple[str, str, str]], dead: Sequence[Def]) -> None:
        """After an update: drop dispatch targets, unlink ``dead`` classes from their bases, and
        resolve again the bases that read one of ``tokens`` or pointed at a dead class."""
        self._overriders.clear()
        self._provided.clear()
        self._forget_linearisations()
        for rd in dead:
            for base in rd.bases or ():
                _unlink(base, rd)
        dead_ids = {id(rd) for rd in dead}
        renew = []
        for fc in files:
            for rd in fc.types:
                if rd.bases is None:
                    renew.append(rd)
                elif not tokens.isdisjoint(rd.bases_deps) or any(id(b) in dead_ids for b in rd.bases):
                    for base in rd.bases:
                        _unlink(base, rd)
                    rd.bases, rd.external_base, rd.bases_deps = None, False, ()
                    renew.append(rd)
        for rd in renew:
            for base in self.bases(rd):
                _link(base, rd)
        self._link_structural(files)

    def bases(self, c: Def) -> Sequence[Def]:
        """The repository classes ``c`` extends or implements, in declaration order (a tuple once
        resolved; the list being filled while they are, which a cycle back to ``c`` sees)."""
        if c.bases is None:
            c.bases = making = []
            self._bases_busy += 1
            try:
                _, c.bases_deps = self.track.tracked(lambda: self._compute_bases(c, making))
            finally:
                self._bases_busy -= 1
            c.bases = tuple(making) if making else ()  # exact size; the empty tuple is shared
        self.use(("name", c.file.path, c.name))
        self.use_all(c.bases_deps)
        return c.bases

    def _compute_bases(self, c: Def, making: list[Def]) -> None:
        """Fill ``making`` with ``c``'s repository bases; a written base may stand for several (the
        module system's optional ``base_texts`` hook: Django's ``M.from_queryset(Qs)``)."""
        expand = getattr(c.file.rules, "base_texts", None)
        written = (*c.heads.bases, *c.heads.implements)
        for text in [t for w in written for t in expand(c, w)] if expand is not None else written:
            t = self.resolve_type(c.file, c.parent, text)
            if isinstance(t, ClassV) and t.c is not c:
                making.append(t.c)
            elif base_type(text) not in ("object", "Object"):
                c.external_base = True

    def mro(self, c: Def) -> list[Def]:
        """``c`` and its ancestors, each once, in C3 order (Python's MRO: in a diamond ``D(B, C)``,
        ``B(A)``, ``C(A)`` it is ``D, B, C, A``). Without a shared ancestor C3 is the depth-first,
        left-to-right walk, which is all that is computed then; a hierarchy C3 cannot linearise
        keeps the depth-first order. Ancestors more than :data:`MAX_HIERARCHY_DEPTH` levels up are
        left out.

        Memoised per class with what computing it read (passed on to each caller's frame as a
        recomputation would record it) until :meth:`reset` / :meth:`renew` change any bases; an MRO
        computed while some class's bases are being resolved is not kept (it may see them half-made),
        nor that of a class without bases (``[c]``: one :meth:`bases` call, as cheap as a hit). The
        list returned may be shared: callers must not change it."""
        hit = self._mro_memo.get(id(c))
        if hit is not None:
            self.use_all(hit[1])
            return hit[0]
        if self._bases_busy:
            return self._compute_mro(c)
        if c.bases is not None and not c.bases:  # no bases: what _compute_mro would read is bases(c)
            self.bases(c)
            return [c]
        out, deps = self.track.tracked(lambda: self._compute_mro(c))
        if len(out) > 1 and not self._bases_busy:  # ``[c]`` alone is one bases() call to make again
            self._mro_memo[id(c)] = (out, deps)
        return out

    def _compute_mro(self, c: Def) -> list[Def]:
        """:meth:`mro` without the memo."""
        out: list[Def] = []
        seen: set[int] = set()
        shared = False
        stack = [(c, 0)]
        while stack:
            x, level = stack.pop()
            if id(x) in seen:
                shared = True
                continue
            seen.add(id(x))
            out.append(x)
            if level < MAX_HIERARCHY_DEPTH:
                stack.extend((b, level + 1) for b in reversed(self.bases(x)))  # records x's file and its bases' reads
        if shared:
            linear, _ = self._c3(c, 0)
            if linear is not None:
                return linear
        return out

    def _c3(self, c: Def, depth: int) -> tuple[list[Def] | None, bool]:
        """C3 linearisation of ``c`` (``None``: inconsistent, a cycle, or deeper than 64 levels) and
        whether the depth cut it. Each class's linearisation is kept with what computing it read (a
        diamond-heavy hierarchy would otherwise merge every ancestor's again for each class; forgotten
        with the bases, :meth:`reset` / :meth:`renew`); one cut by depth is not kept."""
        cached = self._c3_memo.get(id(c))
        if cached is not None:
            self.use_all(cached[1])
            return cached[0], False
        if id(c) in self._c3_active or depth >= 64:
            return None, depth >= 64
        self._c3_active.add(id(c))
        try:
            (out, cut), deps = self.track.tracked(lambda: self._c3_merge(c, depth))
        finally:
            self._c3_active.discard(id(c))
        if not cut:
            self._c3_memo[id(c)] = (out, deps)
        return out, cut

    def _c3_merge(self, c: Def, depth: int) -> tuple[list[Def] | None, bool]:
        """``c`` followed by the C3 merge of its bases' linearisations and its bases list; a head is
        taken when no list holds it past its head (counted, so the merge is linear in the lists)."""
        bases = self.bases(c)
        seqs: list[list[Def]] = []
        for b in bases:
            lb, cut = self._c3(b, depth + 1)
            if lb is None:
                return None, cut
            seqs.append(lb)
        seqs.append(list(bases))
        at = [0] * len(seqs)
        in_tails: dict[int, int] = {}
        for q in seqs:
            for x in q[1:]:
                in_tails[id(x)] = in_tails.get(id(x), 0) + 1
        out = [c]
        while True:
            head = None
            live = False
            for i, q in enumerate(seqs):  # the first head that is in no list's tail
                if at[i] < len(q):
                    live = True
                    if not in_tails.get(id(q[at[i]])):
                        head = q[at[i]]
                        break
            if not live:
                return out, False
            if head is None:
                return None, False
            out.append(head)
            for i, q in enumerate(seqs):
                if at[i] < len(q) and q[at[i]] is head:
                    at[i] += 1
                    if at[i] < len(q):  # the next element leaves this list's tail for its head
                        in_tails[id(q[at[i]])] -= 1

    def has_external_ancestor(self, c: Def) -> bool:
        """Whether ``c`` or an ancestor extends a class from outside the repository."""
        return any(x.external_base for x in self.mro(c))

    def lookup(self, c: Def, name: str) -> tuple[list[Def], bool]:
        """Members named ``name`` of the first class in ``c``'s MRO that has any, and whether that
        class is an ancestor (inherited) rather than ``c`` itself.

        Memoised per ``(class, name)`` like :meth:`mro` when :attr:`keep_lookups` (members change
        only with the files, which :meth:`renew` follows); a lookup that read an open type's other
        files is not kept (what it records depends on the resolver's ``whole_files`` mode), nor, in
        a one-shot run's bounded memo, one that met a cycle (:data:`~indexer.resolve.tracking.CUT`
        among its reads: its answer depends on what was in progress, and a one-shot run computed
        every lookup in place before it kept any). The list returned is shared."""
        key = (id(c), name)
        hit = self._lookup_memo.get(key)
        if hit is not None:
            self.use_all(hit[2])
            return hit[0], hit[1]
        if self._bases_busy or not self.keep_lookups:
            found, inherited, _ = self._compute_lookup(c, name)
            return found, inherited
        (found, inherited, keep), deps = self.track.tracked(lambda: self._compute_lookup(c, name))
        if keep and not self._bases_busy and (self._lookup_memo.budget is None or CUT not in deps):
            self._lookup_memo[key] = (found, inherited, deps)
        return found, inherited

    def _compute_lookup(self, c: Def, name: str) -> tuple[list[Def], bool, bool]:
        """:meth:`lookup` without the memo, and whether its answer may be memoised (no open type's
        other files read)."""
        use = self.use
        keep = True
        for x in self.mro(c):
            use(("name", x.file.path, name))
            members = x.member(name)
            if not members and x.file.rules.open_types:
                members = self.open_members(x, name)
                keep = False
            if members:
                return members, x is not c, keep
        if getattr(c.file.rules, "members_fold_case", False):
            return (*self._folded_lookup(c, name), keep)
        return [], False, keep

    def _folded_lookup(self, c: Def, name: str) -> tuple[list[Def], bool]:
        """In a language whose member names fold case (the module system's optional
        ``members_fold_case``: Apex), the members of the first class in ``c``'s MRO whose name equals
        ``name`` but for case (``genXnumberOfAccounts`` calls ``genXNumberOfAccounts``), once no member
        is spelled exactly so; each name read is recorded."""
        lower = name.lower()
        for x in self.mro(c):
            for key in x.file.members_of(x.qualname):
                if key != name and key.lower() == lower:
                    self.use(("name", x.file.path, key))
                    members = list(x.member(key))
                    if members:
                        return members, x is not c
        return [], False

    def open_members(self, c: Def, name: str) -> list[Def]:
        """Members ``name`` of an open type ``c`` declared in the other files of its module (Go
        methods in another file of the package), each read recorded."""
        if self.module_holders is None:
            return []
        out: list[Def] = []
        qualname = f"{c.qualname}.{name}"
        for fc in self.module_holders(c.file.lang, c.file.module_key, name, True):  # those defining a member `name`
            if fc is not c.file:
                self.use(("name", fc.path, name))
                out.extend(namesakes(entries(fc.by_qualname, qualname)))
        return out

    def overriders(self, m: Def, below: Def | None = None) -> Sequence[Def]:
        """Methods in subclasses (transitively) of ``below`` — by default ``m``'s class — with
        ``m``'s name and a compatible arity (in a language overloading by signature, the module
        system's ``overloads_by_signature``: Java, ``m``'s parameter types, :func:`same_parameter_types`,
        among up to :data:`~indexer.resolve.context.MAX_OVERLOADS` of a subclass's overloads): the targets dynamic dispatch may reach through a call
        to ``m`` on a receiver typed ``below``. (A receiver typed ``Child`` that inherits ``m`` from
        ``Base`` never reaches the override in ``Child``'s sibling.) Subclasses more than
        :data:`MAX_HIERARCHY_DEPTH` levels below are not followed, and the walk stops at
        :data:`MAX_OVERRIDERS` overrides."""
        ck = id(m) if below is None else (id(m), id(below))
        cached = self._overriders.get(ck)
        if cached is not None:
            self.use_all(cached[1])
            return cached[0]
        out: list[Def] = []
        met, deps = self.track.tracked(lambda: self._compute_overriders(m, below, out))
        if met:  # a walk that met no subclass is a few reads: made again, not kept (most are)
            self._overriders[ck] = (out or (), deps)
        return out

    def _compute_overriders(self, m: Def, below: Def | None, out: list[Def]) -> bool:
        """Fill ``out``; whether a subclass was met."""
        use = self.use
        use(("name", m.file.path, m.name))
        if below is None:
            use(("name", m.file.path, (m.parent or "").rpartition(".")[2]))
            owner = entries(m.file.by_qualname, m.parent or "")
            below = owner[0] if owner else None
        if below is not None and below.is_type:
            by_signature = getattr(m.file.rules, "overloads_by_signature", False)
            if getattr(below.file.rules, "structural_interfaces", False):  # an implementer may come
                use(("n", below.file.rules.namespace, m.name))
            met = False
            for s in descendants(below):
                met = True
                use(("name", s.file.path, s.name))
                use(("name", s.file.path, m.name))
                # a language overloading by signature: every overload (a visitor's 100-odd `visit`),
                # then the one override repeating m's parameter types (JLS 8.4.8.1), not any of the arity
                found = [o for o in overload_candidates(s, m.name) if o.parent == s.qualname] if by_signature \
                    else s.member(m.name)
                if not found and s.file.rules.open_types:  # another file of the package, or promoted
                    found = self.lookup(s, m.name)[0]
                elif not found:
                    found = self._inherited_elsewhere(s, m, out)
                for o in found:
                    if o.is_callable and (same_parameter_types(o, m) if by_signature else same_arity(o, m)):
                        out.append(o)
                if len(out) >= MAX_OVERRIDERS:
                    del out[MAX_OVERRIDERS:]
                    break
            return met
        return False

    def provided_below(self, c: Def, name: str) -> Sequence[tuple[Def, list[Def]]]:
        """``[(subclass, members)]``: the subclasses (transitively) of ``c`` whose own member lookup
        finds ``name`` (:meth:`lookup`, so a sibling base's member counts: ``class View(Mixin,
        DetailView)`` gives ``DetailView.get_object``), in the order the walk meets them; for a call
        ``self.name()`` in a method of ``c`` whose MRO has no ``name`` (a mixin calling what the class it
        is mixed into provides, a template method calling a hook only subclasses define). A member
        met again below (inherited, not overridden) is listed once. Bounded like :meth:`overriders`
        (:data:`MAX_HIERARCHY_DEPTH` levels, :data:`MAX_OVERRIDERS` members); nothing for a class whose
        MRO was cut at that depth (what it lacks may be above the cut). Reads, besides the
        lookups: ``("n", namespace, name)`` (a callable of that name came, went or changed anywhere)
        and ``("n", namespace, "^" + class name)`` for ``c`` and each subclass met (a class naming one
        of them as a base came, went or changed: :func:`base_tokens`). Memoised like the overriders."""
        return self._walk_below(c, name)[0]

    def external_below(self, c: Def, name: str) -> bool:
        """Whether a subclass (transitively) of ``c`` extends a class from outside the repository:
        a ``self.name()`` of ``c`` that no subclass provides (:meth:`provided_below` empty) may then
        be the library's (a test mixin's ``self.assertEqual`` in classes extending ``TestCase``).
        Reads as :meth:`provided_below` (the same walk, memoised with it)."""
        return self._walk_below(c, name)[1]

    def _walk_below(self, c: Def, name: str) -> tuple[Sequence[tuple[Def, list[Def]]], bool]:
        if len(self.mro(c)) > MAX_HIERARCHY_DEPTH and self._cut_above(c):  # the member may be above the cut
            return (), False
        key = (id(c), name)
        cached = self._provided.get(key)
        if cached is not None:
            self.use_all(cached[1])
            return cached[0], cached[2]
        out: list[tuple[Def, list[Def]]] = []
        external, deps = self.track.tracked(lambda: self._compute_provided(c, name, out))
        self._provided[key] = (out or (), deps, external)
        return out, external

    def _cut_above(self, c: Def) -> bool:
        """Whether :meth:`mro` leaves out ancestors of ``c`` (a class :data:`MAX_HIERARCHY_DEPTH` levels
        up has bases); a wide MRO (a class of 70 mixins, one level) is whole."""
        level, seen = [c], {id(c)}
        for _ in range(MAX_HIERARCHY_DEPTH):
            level = [b for x in level for b in self.bases(x) if id(b) not in seen and not seen.add(id(b))]
            if not level:
                return False
        return any(self.bases(x) for x in level)

    def _compute_provided(self, c: Def, name: str, out: list[tuple[Def, list[Def]]]) -> bool:
        use = self.use
        ns = c.file.rules.namespace
        use(("n", ns, name))
        use(("n", ns, "^" + c.name))
        have: set[int] = set()
        seen: set[int] = set()
        external = False
        stack = [(s, 1) for s in reversed(c.subclasses)]
        while stack:
            s, level = stack.pop()
            if id(s) in seen:
                continue
            seen.add(id(s))
            use(("n", ns, "^" + s.name))
            found = [m for m in self.lookup(s, name)[0] if id(m) not in have]
            if found:
                have.update(id(m) for m in found)
                out.append((s, found))
                if len(have) >= MAX_OVERRIDERS:
                    break
            elif not external:
                external = self.has_external_ancestor(s)
            if level < MAX_HIERARCHY_DEPTH:
                stack.extend((x, level + 1) for x in reversed(s.subclasses))
        return external

    def _inherited_elsewhere(self, s: Def, m: Def, out: list[Def]) -> list[Def]:
        """What subclass ``s``, which does not declare ``m``'s name, runs for it when that comes from
        a base outside ``m``'s line: ``class Sub extends Impl implements Api`` with ``Impl.run()``
        runs ``Impl.run`` for a call of ``Api.run`` on an ``Api`` (JCG's Java8InterfaceMethods
        J8DIM2; Python's ``class C(Mixin, Base)`` runs ``Mixin.save`` for ``Base.save``). Empty when
        ``s`` inherits ``m`` itself or an overload of it, one already in ``out``, or an abstract
        declaration (modifier ``abstract``: Java marks bodiless interface methods so)."""
        members, inherited = self.lookup(s, m.name)
        if not inherited:
            return []
        have = {id(o) for o in out}
        return [o for o in members if not (o.file is m.file and o.parent == m.parent) and id(o) not in have
                and "abstract" not in o.d.modifiers]


def base_tokens(rd: Def) -> list[tuple[str, str, str]]:
    """The read tokens a class definition ``rd`` touches as a subclass: ``("n", namespace, "^" + N)``
    for each base it names, ``N`` the base's last dotted segment without type arguments (what
    :meth:`ClassHierarchy.provided_below` records for the classes it walks below), and for a base
    named by a plain name its file binds to another, the other's: an import's member (``from m
    import Mixin as M``, ``import { Mixin as M }``: ``Mixin``) or a module-level alias's value's last
    segment (``Base = mixin.Mixin``). Empty for a definition that is no class. (A JavaScript default
    import names no class: a subclass of one is met by tokens of its other changes only.)"""
    if not rd.is_type:
        return []
    fc = rd.file
    ns = fc.rules.namespace
    out = []
    for b in rd.heads.bases or ():
        t = base_type(b)
        if not t:
            continue
        name = drop_generics(t)
        out.append(("n", ns, "^" + name.rsplit(".", 1)[-1]))
        if "." in name:
            continue
        for imp in entries(fc.imports, name):
            if imp.name and imp.name != "default" and imp.name != name:
                out.append(("n", ns, "^" + imp.name.rsplit(".", 1)[-1]))
        for alias in fc.bindings.get((None, name)) or ():
            if alias.how == "alias" and alias.type:
                out.append(("n", ns, "^" + drop_generics(alias.type).rsplit(".", 1)[-1]))
    return out


def descendants(c: Def) -> Iterator[Def]:
    """The subclasses of ``c``, transitively, each once, depth first (the last direct subclass's line
    first), at most :data:`MAX_HIERARCHY_DEPTH` levels below ``c``; lazy: a caller that stops early
    walks no further."""
    seen: set[int] = set()
    stack = [(s, 1) for s in c.subclasses]
    while stack:
        s, level = stack.pop()
        if id(s) in seen:
            continue
        seen.add(id(s))
        yield s
        if level < MAX_HIERARCHY_DEPTH:
            stack.extend((x, level + 1) for x in s.subclasses)


def _link(base: Def, sub: Def) -> None:
    """Add ``sub`` to ``base``'s subclasses (a list made at the first)."""
    if base.subclasses:
        base.subclasses.append(sub)
    else:
        base.subclasses = [sub]


def _unlink(base: Def, sub: Def) -> None:
    """Remove ``sub`` from ``base``'s subclasses (back to the shared empty tuple when none is left)."""
    base.subclasses = [x for x in base.subclasses if x is not sub] or ()


def same_arity(a: Def, b: Def) -> bool:
    """Whether two callables can stand for each other (same parameter count, or one is variadic)."""
    x, y = a.shape, b.shape
    return x.params == y.params or x.max_arity is None or y.max_arity is None


_TYPE_VARIABLE = re.compile(r"[A-Z][A-Z0-9]?")


def _erased(text: str | None) -> str | None:
    """A parameter's type text as an override must repeat it: no generics, no whitespace, no
    qualifying package (``java.util.List<T>`` -> ``List``, ``char []`` -> ``char[]``, ``a.B...`` ->
    ``B...``)."""
    if not text:
        return None
    t = re.sub(r"\s+", "", drop_generics(text))
    name = t.rstrip(".[]")
    return name.rsplit(".", 1)[-1] + t[len(name):]


def same_parameter_types(a: Def, b: Def) -> bool:
    """Whether ``a`` can override ``b`` (or the other way round) by its parameters' declared types:
    as many parameters, and each pair of types equal once erased (:func:`_erased`) unless either is
    unwritten or a type variable (``T``, ``K2``: a generic base's ``save(T)`` is overridden by
    ``save(Owner)``). Java's rule (JLS 8.4.2, same erasure), approximated on type texts."""
    pa, pb = a.d.params, b.d.params
    if len(pa) != len(pb):
        return False
    for x, y in zip(pa, pb):
        tx, ty = _erased(x.type), _erased(y.type)
        if tx and ty and tx != ty and not (_TYPE_VARIABLE.fullmatch(tx) or _TYPE_VARIABLE.fullmatch(ty)):
            return False
    return True
