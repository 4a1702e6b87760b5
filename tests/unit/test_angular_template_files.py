"""Angular components across files (indexer/frameworks/ui_templates.py): a ``templateUrl`` file's
bindings call the component's methods, and a child's ``this.x.emit(v)`` calls the handler a parent's
template binds to ``(x)``. Exact component facts and CALLS edges, what must not be linked (a method of
another component named like a binding, an output of another child, an event the child does not
declare), and the template files the linker may read (size, symbolic links, encoding)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from indexer.frameworks.link_options import LinkOptions
from indexer.frameworks.ui_templates import MAX_FILE_BYTES, element_events, folder_templates, load_templates, template_calls
from indexer.languages import extractor_for_path
from indexer.model import UiComponent
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import short, split_fixture

APP = """
// --- path: src/app/child.component.ts ---
import { Component, EventEmitter, Output, output } from '@angular/core';
@Component({ selector: 'app-child', template: '<b (click)="fire()">x</b><i (click)="gone.emit(1)"></i>' })
export class ChildComponent {
  @Output() toggle = new EventEmitter<boolean>();
  @Output('renamed') inner = new EventEmitter<number>();
  gone = output<number>();
  plain = new EventEmitter<string>();
  fire() { this.toggle.emit(true); }
  rename() { this.inner.emit(2); }
  quiet() { this.plain.emit("x"); }
}
// --- path: src/app/other-child.component.ts ---
import { Component, EventEmitter, Output } from '@angular/core';
@Component({ selector: 'app-other-child, [appOther]', template: '<p></p>' })
export class OtherChildComponent {
  @Output() toggle = new EventEmitter<boolean>();
  flip() { this.toggle.emit(false); }
}
// --- path: src/app/parent.component.ts ---
import { Component } from '@angular/core';
@Component({
  selector: 'app-parent',
  templateUrl: './parent.component.html',
})
export class ParentComponent {
  form = new Form();
  save() {}
  title() { return ""; }
  onToggle(v: boolean) {}
  onRenamed(n: number) {}
  onGone(n: number) {}
  onPlain(s: string) {}
}
class Form { reset() {} }
// --- path: src/app/other.component.ts ---
import { Component } from '@angular/core';
@Component({ selector: 'app-other', templateUrl: './other.component.html' })
export class OtherComponent {
  save() {}
  onToggle(v: boolean) {}
  refresh() {}
}
// --- path: src/app/lost.component.ts ---
import { Component } from '@angular/core';
@Component({ selector: 'app-lost', templateUrl: './missing.html' })
export class LostComponent { save() {} }
"""

TEMPLATES = {
    "src/app/parent.component.html": (
        "<h1>{{ title() }}</h1>\n"
        '<button (click)="save()" (dblclick)="form.reset()">s</button>\n'
        '<app-child (toggle)="onToggle($event)" (renamed)="onRenamed($event)" (gone)="onGone($event)"\n'
        '  (plain)="onPlain($event)"></app-child>\n'
        '@for (x of items; track x) { <i (click)="x.open()"></i> }\n'
    ),
    # another component: its own `save` and `onToggle` are bound, the other child's `toggle` goes to it
    "src/app/other.component.html": '<a (click)="refresh()"></a><app-other-child (toggle)="onToggle($event)"/>\n',
}

P = "src/app/parent.component"
C = "src/app/child.component"
OTHER = "src/app/other.component"
OC = "src/app/other-child.component"


def _resolve(templates: dict[str, str]):
    extractions = []
    for path, source in split_fixture(APP).items():
        data = source.encode()
        extractions.append((extractor_for_path(path).extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    return resolve_repository("t", extractions, LinkOptions(templates=templates))


def _template_edges(result) -> list[tuple[str, str, str, int, int, str | None, str | None]]:
    return sorted((short(e.src), short(e.dst), e.file, e.line, e.col, e.resolution, e.props.get("template"))
                  for f in result.files for e in f.edges if e.kind == "CALLS" and "template" in e.props)


def test_components_are_facts_with_their_selector_template_and_outputs():
    src = split_fixture(APP)
    child = extractor_for_path(f"{C}.ts").extract(f"{C}.ts", src[f"{C}.ts"].encode())
    parent = extractor_for_path(f"{P}.ts").extract(f"{P}.ts", src[f"{P}.ts"].encode())
    assert child.components == [UiComponent("angular", "ChildComponent", "app-child",
                                            '<b (click)="fire()">x</b><i (click)="gone.emit(1)"></i>', None, 2, 47,
                                            (("toggle", "toggle"), ("renamed", "inner"), ("gone", "gone")))]  # not `plain`: no @Output
    assert parent.components == [UiComponent("angular", "ParentComponent", "app-parent", None, "./parent.component.html",
                                             4, 15)]
    # a templateUrl component's bindings are no call sites of its file: the linker reads them
    assert [c.name for c in parent.calls if c.receiver == "this"] == []


def test_template_file_bindings_and_child_events_are_exact_calls():
    edges = _template_edges(_resolve(TEMPLATES))
    html = f"{P}.html"
    assert edges == [
        # `output()` emitted in the child's own inline template: from the class
        (f"{C}.ChildComponent", f"{P}.ParentComponent.onGone(1)", f"{C}.ts", 2, 89, "inferred", f"{html}:3:77"),
        # a child's emit -> the handler its parent binds: the parent's own template (a file)
        (f"{C}.ChildComponent.fire(0)", f"{P}.ParentComponent.onToggle(1)", f"{C}.ts", 8, 23, "inferred", f"{html}:3:21"),
        # `@Output('renamed') inner`: the event is `renamed`, the emit `this.inner.emit`
        (f"{C}.ChildComponent.rename(0)", f"{P}.ParentComponent.onRenamed(1)", f"{C}.ts", 9, 24, "inferred",
         f"{html}:3:50"),
        # the other child's emit reaches only the component binding it
        (f"{OC}.OtherChildComponent.flip(0)", f"{OTHER}.OtherComponent.onToggle(1)", f"{OC}.ts", 5, 23, "inferred",
         f"{OTHER}.html:1:54"),
        (f"{OTHER}.OtherComponent", f"{OTHER}.OtherComponent.onToggle(1)", f"{OTHER}.ts", 2, 49, "exact", f"{OTHER}.html:1:54"),
        (f"{OTHER}.OtherComponent", f"{OTHER}.OtherComponent.refresh(0)", f"{OTHER}.ts", 2, 49, "exact", f"{OTHER}.html:1:12"),
        # the template file's bindings: calls from the class at its templateUrl (not x.open(): `@for (x ...)`)
        (f"{P}.ParentComponent", f"{P}.Form.reset(0)", f"{P}.ts", 4, 15, "inferred", f"{html}:2:42"),
        (f"{P}.ParentComponent", f"{P}.ParentComponent.onGone(1)", f"{P}.ts", 4, 15, "exact", f"{html}:3:77"),
        (f"{P}.ParentComponent", f"{P}.ParentComponent.onPlain(1)", f"{P}.ts", 4, 15, "exact", f"{html}:4:11"),
        (f"{P}.ParentComponent", f"{P}.ParentComponent.onRenamed(1)", f"{P}.ts", 4, 15, "exact", f"{html}:3:50"),
        (f"{P}.ParentComponent", f"{P}.ParentComponent.onToggle(1)", f"{P}.ts", 4, 15, "exact", f"{html}:3:21"),
        (f"{P}.ParentComponent", f"{P}.ParentComponent.save(0)", f"{P}.ts", 4, 15, "exact", f"{html}:2:17"),
        (f"{P}.ParentComponent", f"{P}.ParentComponent.title(0)", f"{P}.ts", 4, 15, "exact", f"{html}:1:7"),
    ]
    # not linked: OtherComponent.save (no binding of its template names it), ParentComponent.refresh;
    # `plain` (no @Output) to onPlain; OtherChild's toggle to the parent, Child's toggle to OtherComponent
    assert not [e for e in edges if e[1].endswith("OtherComponent.save(0)") or e[0].endswith("quiet(0)")]


def test_without_the_template_file_nothing_is_linked_and_it_is_counted():
    result = _resolve({})
    assert [e for e in _template_edges(result) if e[2] != f"{C}.ts" or e[1].startswith(P)] == []
    assert result.link_outcomes["unlinked_template"] == 3  # parent, other, lost


def test_element_events_reads_event_bindings_of_elements():
    text = '<app-x [a]="b" (go)="run($event)" on-stop=\'halt()\'/><p (click)="c()">{{ d() }}</p>'
    assert [(el, ev, text[s:e]) for el, ev, s, e in element_events(text)] == [
        ("app-x", "go", "run($event)"), ("app-x", "stop", "halt()"), ("p", "click", "c()")]


def test_template_files_are_read_under_the_file_rules(tmp_path: Path):
    root = tmp_path / "repo"
    (root / "app").mkdir(parents=True)
    (root / "app" / "a.component.ts").write_text("x", encoding="utf-8")
    (root / "app" / "a.component.html").write_text("<b (click)='go()'></b>", encoding="utf-8")
    (root / "app" / "big.html").write_text("x" * (MAX_FILE_BYTES + 1), encoding="utf-8")
    (root / "app" / "latin.html").write_bytes(b"<b>\xe9</b>")
    outside = tmp_path / "outside.html"
    outside.write_text("<b (click)='steal()'></b>", encoding="utf-8")
    os.symlink(outside, root / "app" / "link.html")
    (root / "docs").mkdir()
    (root / "docs" / "page.html").write_text("{{ not_angular() }}", encoding="utf-8")  # no code beside it
    (root / "node_modules" / "lib").mkdir(parents=True)
    (root / "node_modules" / "lib" / "x.js").write_text("x", encoding="utf-8")
    (root / "node_modules" / "lib" / "x.html").write_text("x", encoding="utf-8")
    assert load_templates(root) == {"app/a.component.html": "<b (click)='go()'></b>"}


TWO_APPS = """
// --- path: a/src/star.component.ts ---
import { Component, EventEmitter, Output } from '@angular/core';
@Component({ selector: 'pm-star', template: '<i></i>' })
export class StarComponent {
  @Output() rated = new EventEmitter<number>();
  onClick() { this.rated.emit(1); }
}
// --- path: a/src/list.component.ts ---
import { Component } from '@angular/core';
@Component({ selector: 'pm-list', template: '<pm-star (rated)="onRated($event)"></pm-star>' })
export class ListComponent { onRated(n: number) {} }
// --- path: b/src/star.component.ts ---
import { Component, EventEmitter, Output } from '@angular/core';
@Component({ selector: 'pm-star', template: '<i></i>' })
export class StarComponent {
  @Output() rated = new EventEmitter<number>();
  onClick() { this.rated.emit(2); }
}
// --- path: b/src/list.component.ts ---
import { Component } from '@angular/core';
@Component({ selector: 'pm-list', template: '<pm-star (rated)="onRated($event)"></pm-star>' })
export class ListComponent { onRated(n: number) {} }
"""


def test_of_components_sharing_a_selector_the_nearest_to_the_parent_emits_to_it():
    extractions = []
    for path, source in split_fixture(TWO_APPS).items():
        data = source.encode()
        extractions.append((extractor_for_path(path).extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    found = sorted((short(e.src), short(e.dst)) for f in resolve_repository("t", extractions).files for e in f.edges
                   if e.kind == "CALLS" and e.resolution == "inferred" and "template" in e.props)
    # each application's star reaches its own list only
    assert found == [("a/src/star.component.StarComponent.onClick(0)", "a/src/list.component.ListComponent.onRated(1)"),
                     ("b/src/star.component.StarComponent.onClick(0)", "b/src/list.component.ListComponent.onRated(1)")]


def _sites(text: str, span: tuple[int, int] | None = None) -> list[tuple[str, str, int, int, int]]:
    return [(c.name, c.receiver, c.arity, c.line, c.col) for c in template_calls(text, "C", 1, 0, span)]


def test_hostile_templates_are_read_in_linear_passes():
    # brk44: 100,000 unclosed `@if (`, `f(`, `<a`, `{{` each took hours (a search to the text's end
    # from each); every one is now one pass: exact results, no hang.
    n = 100_000
    assert _sites("@if (" * n) == []
    assert _sites("{{ " + "f(" * 3 + " }}") == [("f", "this", 1, 1, 3), ("f", "this", 1, 1, 5), ("f", "this", 0, 1, 7)]
    unclosed = _sites("{{ " + "f(" * n + " }}")
    assert len(unclosed) == n and unclosed[0] == ("f", "this", 1, 1, 3) and unclosed[-1] == ("f", "this", 0, 1, 2 * n + 1)
    # the first `<a` runs to the first `>` outside quotes (as a start tag does); an unclosed quote ends none
    assert element_events("<a " * n + '<b (go)="g()">') == [("a", "go", 3 * n + 9, 3 * n + 12)]
    assert element_events("<a " * n) == [] and element_events("<a '" + '<b (go)="g()">') == [("b", "go", 13, 16)]
    assert _sites("{{ " * n + "{{ h(1, [2, 3]) }}") == [("h", "this", 2, 1, 3 * n + 3)]
    bindings = "".join(f'<app-c (ev)="h{i}($event)"></app-c>\n' for i in range(n // 10))
    assert len(element_events(bindings)) == n // 10
    assert _sites(bindings)[-1] == (f"h{n // 10 - 1}", "this", 1, n // 10, 13)


def test_overlapping_bindings_give_one_site_per_call():
    # an interpolation inside a bound attribute: one site for `a()` (two before: a call site twice)
    assert _sites('<p [title]="{{ a(x, y) }}" (click)="b()">') == [("a", "this", 2, 1, 15), ("b", "this", 0, 1, 36)]
    # a nested call's commas are its own; brackets nest
    assert _sites('<p (click)="f(g(1, 2), [3, 4], {a: 5, b: 6})">') == [("f", "this", 3, 1, 12), ("g", "this", 2, 1, 14)]


def test_folder_templates_reads_a_folder_as_load_templates_walks_it(tmp_path: Path):
    root = tmp_path / "repo"
    (root / "app").mkdir(parents=True)
    (root / "app" / "a.ts").write_text("x", encoding="utf-8")
    (root / "app" / "ok.html").write_text("<b (click)='go()'></b>", encoding="utf-8")
    os.mkfifo(root / "app" / "pipe.html")  # never opened: it would block a read
    (root / "app" / "dir.html").mkdir()
    os.symlink("loop.html", root / "app" / "loop.html")
    os.symlink("/etc/passwd", root / "app" / "pw.html")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "a.ts").write_text("x", encoding="utf-8")
    (root / ".hidden" / "h.html").write_text("x", encoding="utf-8")
    assert load_templates(root) == {"app/ok.html": "<b (click)='go()'></b>"}
    # the candidates (a read of each then leaves out the pipe and the loop, as load_templates does)
    assert folder_templates(root, "app") == ["app/loop.html", "app/ok.html", "app/pipe.html"]
    assert folder_templates(root, ".hidden") == [] and folder_templates(root, "gone") == []


def test_template_urls_out_of_the_repository_are_not_linked():
    app = APP.replace("'./missing.html'", "'../../../../etc/passwd'").replace("'./other.component.html'", "'/etc/passwd'")
    extractions = []
    for path, source in split_fixture(app).items():
        data = source.encode()
        extractions.append((extractor_for_path(path).extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    result = resolve_repository("t", extractions, LinkOptions(templates={**TEMPLATES, "etc/passwd": "{{ save() }}"}))
    edges = _template_edges(result)
    assert not [e for e in edges if e[0].endswith(("LostComponent", "OtherComponent"))]
    assert result.link_outcomes["unlinked_template"] == 2
