"""brk44: component template files under incremental runs where what makes an ``.html`` file a
template changes without the file itself changing (the code file beside it comes or goes), or the
template is renamed or named by another folder's component: every step equals a full index."""

from pathlib import Path

from tests.unit.test_incremental import Workspace, dump

CHILD = ("import { Component } from '@angular/core';\n"
         "@Component({ selector: 'app-b', templateUrl: '../a/a.component.html' })\n"
         "export class BComponent {\n  save() {}\n}\n")
OWNER = ("import { Component } from '@angular/core';\n"
         "@Component({ selector: 'app-a', template: '<i></i>' })\n"
         "export class AComponent {}\n")


def _template_calls(db: Path) -> list[tuple[str, str]]:
    return sorted((src.split(":", 1)[1], dst.split(":", 1)[1]) for kind, src, dst, *_ in dump(db)["edges"]
                  if kind == "CALLS" and "Component." in dst and "Component" in src)


def test_a_template_whose_folder_loses_or_gains_its_code_file_links_as_a_full_index(tmp_path: Path) -> None:
    files = {"src/a/a.component.ts": OWNER, "src/a/a.component.html": '<p (click)="save()"></p>\n',
             "src/b/b.component.ts": CHILD}
    ws = Workspace(tmp_path, files)
    b = "src/b/b.component.BComponent"
    try:
        assert _template_calls(ws.db) == [(b, f"{b}.save(0)")]
        ws.edit({"src/a/a.component.ts": None})  # a/ holds no code any more: its .html is no template
        assert _template_calls(ws.db) == []
        ws.edit({"src/a/a.component.ts": OWNER})  # a/ holds code again: the .html is a template again
        assert _template_calls(ws.db) == [(b, f"{b}.save(0)")]
        ws.edit({"src/a/a.component.ts": None, "src/a/other.js": "export const x = 1;\n"})
        assert _template_calls(ws.db) == [(b, f"{b}.save(0)")]
    finally:
        ws.close()


def test_renaming_and_swapping_template_files_links_as_a_full_index(tmp_path: Path) -> None:
    files = {"src/a/a.component.ts": OWNER, "src/a/a.component.html": '<p (click)="save()"></p>\n',
             "src/a/x.html": "{{ title() }}\n", "src/b/b.component.ts": CHILD}
    ws = Workspace(tmp_path, files)
    b = "src/b/b.component.BComponent"
    try:
        ws.edit({"src/a/a.component.html": None, "src/a/y.html": '<p (click)="save()"></p>\n'})  # renamed away
        assert _template_calls(ws.db) == []
        ws.edit({"src/a/a.component.html": "{{ title() }}\n", "src/a/x.html": '<p (click)="save()"></p>\n'})
        ws.edit({"src/a/a.component.html": '<p (click)="save()"></p>\n', "src/a/x.html": "{{ title() }}\n"})  # swapped
        assert _template_calls(ws.db) == [(b, f"{b}.save(0)")]
        ws.edit({"src/b/b.component.ts": CHILD.replace("save() {}", "title() {}")})
        assert _template_calls(ws.db) == []
    finally:
        ws.close()
