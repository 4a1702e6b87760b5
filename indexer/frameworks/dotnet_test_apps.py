"""Which application a .NET test project starts in process when it references several
(:meth:`indexer.frameworks.link_options.LinkOptions.tested_application` answers for one): the entry type of its
``WebApplicationFactory<TEntryPoint>``.

``WebApplicationFactory<T>`` starts the application whose assembly declares ``T`` (the ASP.NET Core
integration-test documentation: "the entry point of the SUT, usually ``Program``"). A test file names its factory
by a type: written with the argument (``IClassFixture<CustomWebApplicationFactory<Program>>``,
``WebApplicationFactory<AuthenticateEndpoint>``) in a class's base list, or as a subclass of the repository
(``TestApplication factory`` with ``class TestApplication : WebApplicationFactory<IBasketViewModelService>`` in
another file). Each such entry type is looked up among the types the referenced projects declare (``Program`` also
by a ``Program.cs`` of top-level statements); the application is the one named application (service unit) those
projects give. Several, or none found: unknown (the request reaches every handler, as before).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from indexer.frameworks.route_tokens import project_of

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["FactoryApplications"]

_ENTRY = re.compile(r"\b(?:WebApplicationFactory|TestServer\w*|\w*ApplicationFactory|\w*WebFactory)\s*<\s*([\w.]+)\s*>")
"""A factory type written with its entry type (``CustomWebApplicationFactory<Program>``)."""
_BASE_ENTRY = re.compile(r"\bWebApplicationFactory\s*<\s*([\w.]+)\s*>")
_TYPE_KINDS = frozenset({"class", "interface", "record", "struct", "enum"})


class FactoryApplications:
    """The application of in-process test requests found by the factory's entry type, for one link
    (``ctxs``: the files, ``options``: its :class:`~indexer.frameworks.link_options.LinkOptions`). Types are
    looked up in the referenced projects' files only, each project's read once."""

    def __init__(self, ctxs: Any, options: Any) -> None:
        self.ctxs, self.options = ctxs, options
        self._types: dict[str, dict[str, str]] | None = None  # project -> {type name: its class signature}
        self._answers: dict[tuple[str, frozenset[str]], str | None] = {}

    def of(self, fc: FileCtx) -> str | None:
        """The application the test file ``fc`` requests in process (module docstring), ``None``: unknown."""
        projects = self.options.project_refs
        project = project_of(projects, fc.path)
        if project is None:
            return None
        refs = projects.get(project, frozenset())
        named = {r: self.options.service_for(f"{r}/-" if r else "-") for r in refs}
        if len({n for n in named.values() if n}) < 2:
            return None
        written = self._written_types(fc)
        key = (project, frozenset(written))
        if key not in self._answers:
            self._answers[key] = self._application(project, written, named)
        return self._answers[key]

    def _written_types(self, fc: FileCtx) -> set[str]:
        """The factory types the file writes: entry types given as arguments (``"=Program"``), and the other
        types its classes' base lists and its bindings name (``"TestApplication"``), a subclass maybe."""
        out: set[str] = set()
        for d in fc.ex.definitions:
            if d.signature:  # a class's base list, a field's, property's or parameter's declared type
                out |= {"=" + m.rsplit(".", 1)[-1] for m in _ENTRY.findall(d.signature)}
            if d.kind in _TYPE_KINDS and d.signature:
                out |= set(re.findall(r"<\s*(\w+)\s*>", d.signature))
        out |= {b.type.rsplit(".", 1)[-1] for b in fc.ex.bindings if b.type and b.type[:1].isupper()}
        return out

    def _declared(self) -> dict[str, dict[str, str]]:
        """Per project folder, the types its files declare (by name) with their signatures; a ``Program.cs``
        of top-level statements declares ``Program``."""
        if self._types is None:
            self._types = {}
            folders = set(self.options.project_refs)
            for c in self.ctxs:
                if c.lang != "csharp":
                    continue
                project = project_of(folders, c.path)
                if project is None:
                    continue
                types = self._types.setdefault(project, {})
                if c.path.rsplit("/", 1)[-1] == "Program.cs":
                    types.setdefault("Program", "")
                for d in c.ex.definitions:
                    if d.kind in _TYPE_KINDS:
                        types.setdefault(d.name, d.signature or "")
        return self._types

    def _application(self, project: str, written: set[str], named: dict[str, str | None]) -> str | None:
        declared = self._declared()
        entries = {w[1:] for w in written if w.startswith("=")}
        own = declared.get(project, {})
        for name in (w for w in written if not w.startswith("=")):  # a factory subclass of the test project
            entries |= {m.rsplit(".", 1)[-1] for m in _BASE_ENTRY.findall(own.get(name, ""))}
        apps = {named[r] for r in named if named[r] and entries & declared.get(r, {}).keys()}
        return apps.pop() if len(apps) == 1 else None
