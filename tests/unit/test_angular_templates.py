"""Angular inline templates: the component methods their bindings call (event, property, structural,
block control flow, interpolation) are calls from the component class, at the name's place in the
file; template variables, ``$event``, ``templateUrl`` components, other decorators and files that do
not import Angular's ``Component`` give none. Exact call sites and edges."""

from indexer.languages import extractor_for_path
from tests.resolution_harness import check

FAV = """import { Component } from '@angular/core';
@Component({
  selector: 'app-fav',
  template: `
    <button [disabled]="isBusy()" (click)="toggleFavorite()"
      (keyup)="onKey($event, 2)">{{ title() }} {{ form.value() }}</button>
    <li *ngFor="let item of items()" (click)="item.open()">{{ item.name | date: fmt() }}</li>
    @if (canEdit(user)) { <a #ref (click)="ref.focus()">x</a> }
  `,
})
export class FavoriteButtonComponent {
  form = new Form();
  isBusy() { return false; }
  toggleFavorite(): void {}
  onKey(e: unknown, n: number) {}
  title() { return ""; }
  items() { return []; }
  canEdit(u: unknown) { return true; }
  fmt() { return "short"; }
  unused() {}
}
class Form { value() { return 1; } }
"""


def test_inline_template_bindings_are_calls_from_the_component():
    ex = extractor_for_path("src/fav.ts").extract("src/fav.ts", FAV.encode())
    sites = [(c.caller, c.name, c.receiver, c.arity, c.line, c.col) for c in ex.calls if c.receiver]
    owner = "FavoriteButtonComponent"
    assert sites == [
        (owner, "isBusy", "this", 0, 5, 24),
        (owner, "toggleFavorite", "this", 0, 5, 43),
        (owner, "onKey", "this", 2, 6, 15),
        (owner, "title", "this", 0, 6, 36),
        (owner, "value", "this.form", 0, 6, 55),
        (owner, "items", "this", 0, 7, 28),
        (owner, "fmt", "this", 0, 7, 80),  # a pipe's argument runs against the component too
        (owner, "canEdit", "this", 1, 8, 9),
        # not item.open() (`let item`), not ref.focus() (`#ref`)
    ]
    line = FAV.split("\n")[4]
    assert line[24:30] == "isBusy" and line[43:57] == "toggleFavorite"
    check(f"// --- path: src/fav.ts ---\n{FAV}", [
        f"src/fav.{owner} -> src/fav.{owner}.{m} [exact]"
        for m in ("isBusy(0)", "toggleFavorite(0)", "onKey(2)", "title(0)", "items(0)", "fmt(0)", "canEdit(1)")
    ] + [f"src/fav.{owner} -> src/fav.Form [exact]", f"src/fav.{owner} -> src/fav.Form.value(0) [inferred]"])


def test_no_calls_without_an_inline_angular_template():
    sources = {
        # a templateUrl: another file, not read
        "src/a.ts": "import { Component } from '@angular/core';\n"
                    "@Component({ templateUrl: './a.html' })\nexport class A { go() {} }\n",
        # Component from elsewhere (not Angular's)
        "src/b.ts": "import { Component } from './mine';\n"
                    "@Component({ template: '<b (click)=\"go()\"></b>' })\nexport class B { go() {} }\n",
        # another decorator with a template property
        "src/c.ts": "import { Component, Directive } from '@angular/core';\n"
                    "@Directive({ template: '<b (click)=\"go()\"></b>' } as any)\nexport class C { go() {} }\n",
        # a template built with a substitution: its text is not known
        "src/d.ts": "import { Component } from '@angular/core';\nconst x = 'go()';\n"
                    "@Component({ template: `<b (click)=\"${x}\"></b>` })\nexport class D { go() {} }\n",
    }
    for path, src in sources.items():
        ex = extractor_for_path(path).extract(path, src.encode())
        assert [c.name for c in ex.calls if c.receiver == "this"] == [], path
