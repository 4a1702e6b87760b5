"""One fact of the extraction IR (:mod:`indexer.model`, which re-exports it), kept in its own module
for the size of that one: a UI component class and the template it renders."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["UiComponent"]


@dataclass(frozen=True, slots=True)
class UiComponent:
    """A UI component class rendering a template other code binds to (an Angular ``@Component``), for
    the linker (:mod:`indexer.frameworks.ui_templates`): ``owner`` the class's qualname; ``selector``
    as written (``"app-fav"``, ``"app-a, [appB]"``); the template either ``template`` (the inline text)
    or ``template_url`` (a path as written, relative to the file); ``line`` / ``col`` where that
    template starts in the file (the inline text's first character, the URL string's first quote);
    ``outputs`` the events the component emits, each ``(event, field)``: ``@Output() toggle`` /
    ``toggle = output()`` is ``("toggle", "toggle")``, ``@Output('changed') inner`` ``("changed", "inner")``."""

    framework: str
    owner: str
    selector: str | None
    template: str | None
    template_url: str | None
    line: int
    col: int
    outputs: tuple[tuple[str, str], ...] = ()
