"""Monorepo packages (issue 16, item 12): a bare import specifier naming a package of the repository
resolves to its source, not "external": workspace packages by ``main`` / ``source`` or the
``src/index`` convention, ``exports`` maps (subpaths, ``*`` patterns, TypeScript sources preferred
over built files), a package importing itself by name (zod's ``zod/v4``). What must not bind: a
package outside the repository, a subpath the ``exports`` map does not list."""

import json
from pathlib import Path

from indexer.frameworks.js_modules import JsModules, JsPackage, load_js_modules
from indexer.frameworks.link import LinkOptions
from indexer.languages import extractor_for_path
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import edges, split_fixture

MONOREPO = """
// --- path: packages/core/src/index.ts ---
export { parse } from "./parse";
// --- path: packages/core/src/parse.ts ---
export function parse(s: string) { return s; }
export function hidden() { return 0; }
// --- path: packages/ui/src/button.ts ---
import { parse } from "@acme/core";
import { hidden } from "@acme/core/src/parse";
import { render } from "react";
import { format } from "@acme/fmt";
import { helper } from "@acme/fmt/internal/helper";
export function click() { parse("x"); render(); format(); helper(); hidden(); }
// --- path: packages/fmt/lib/format.ts ---
export function format() { return ""; }
// --- path: packages/fmt/dist/format.js ---
export function format() { return "built"; }
// --- path: packages/fmt/lib/internal/helper.ts ---
export function helper() { return 1; }
"""

PACKAGES = JsModules((
    JsPackage("@acme/core", "packages/core", entries=("dist/index.js",)),
    JsPackage("@acme/fmt", "packages/fmt", exports=((".", ("./dist/format.js", "./lib/format.ts")),)),
    JsPackage("@acme/ui", "packages/ui"),
))


def resolve(fixture: str, packages: JsModules):
    extractions = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        extractions.append((extractor_for_path(path).extract(path, data), "0" * 64, len(data)))
    return resolve_repository("t", extractions, LinkOptions(module_configs={"ecmascript": packages}))


def test_workspace_packages_resolve_to_their_sources():
    result = resolve(MONOREPO, PACKAGES)
    assert edges(result) == [
        "packages/ui/src/button.click(0) -> packages/core/src/parse.hidden(0) [exact]",  # no exports: any subpath
        "packages/ui/src/button.click(0) -> packages/core/src/parse.parse(1) [exact]",  # src/index re-export
        "packages/ui/src/button.click(0) -> packages/fmt/lib/format.format(0) [exact]",  # the .ts source first
    ]
    # react is outside; `internal/helper` is no subpath of @acme/fmt's exports map: outside too
    assert [u.name for f in result.files for u in f.unresolved] == []
    assert result.call_outcomes["external"] == 2


def test_without_package_configuration_bare_specifiers_stay_external():
    result = resolve(MONOREPO, JsModules())
    assert edges(result) == []
    assert result.call_outcomes["external"] == 5


def test_package_importing_itself_by_name_through_an_exports_map(tmp_path: Path):
    pkg = tmp_path / "package"
    (pkg / "src" / "v4" / "core").mkdir(parents=True)
    (pkg / "v4").mkdir()
    (pkg / "node_modules" / "dep").mkdir(parents=True)
    (pkg / "package.json").write_text(json.dumps({"name": "zod", "exports": {
        ".": {"@zod/source": "./src/index.ts", "import": "./index.js", "types": "./index.d.cts"},
        "./v4": {"import": "./v4/index.js", "@zod/source": "./src/v4/index.ts"},
        "./v4/locales/*": {"@zod/source": "./src/v4/locales/*", "import": "./v4/locales/*"},
    }}))
    (pkg / "node_modules" / "dep" / "package.json").write_text('{"name": "dep"}')  # a dependency: not read
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "package.json").write_text("{not json")
    found = load_js_modules(tmp_path)
    assert [(p.name, p.folder) for p in found.packages] == [("zod", "package")]
    assert found.candidates("zod/v4") == ["package/src/v4/index.ts", "package/v4/index.js"]
    assert found.candidates("zod/v4/locales/en.js") == ["package/src/v4/locales/en.js", "package/v4/locales/en.js"]
    assert found.candidates("zod") == ["package/src/index.ts", "package/index.js"]
    assert found.candidates("zod/v3") == [] and found.candidates("dep") == [] and found.candidates("zodiac") == []
    result = resolve("""
// --- path: package/src/v4/index.ts ---
export function object() { return 1; }
// --- path: package/v4/index.js ---
export function object() { return 2; }
// --- path: package/src/tests/a.test.ts ---
import * as z from "zod/v4";
export function t() { z.object(); }
""", found)
    assert edges(result) == ["package/src/tests/a.test.t(0) -> package/src/v4/index.object(0) [exact]"]


def test_a_package_configuration_change_rebinds_like_a_fresh_resolve():
    from indexer.resolve.repository import RepositoryResolver

    extractions = []
    for path, source in split_fixture(MONOREPO).items():
        data = source.encode()
        extractions.append((extractor_for_path(path).extract(path, data), "0" * 64, len(data)))
    live = RepositoryResolver("t", LinkOptions())
    live.update(extractions)
    paths = sorted(live.files)
    assert edges(live.resolve(paths)) == []  # no packages known: all external
    live.set_link(LinkOptions(module_configs={"ecmascript": PACKAGES}))
    assert edges(live.resolve(paths)) == edges(resolve(MONOREPO, PACKAGES)) != []


def test_tsconfig_paths_base_url_and_extends(tmp_path: Path):
    (tmp_path / "apps" / "web" / "src").mkdir(parents=True)
    (tmp_path / "tsconfig.base.json").write_text("""{
      // comments and trailing commas, as tsconfig files have them
      "compilerOptions": {
        "baseUrl": ".",
        "paths": { "@shared/*": ["libs/shared/src/*"], "@config": ["libs/config/index.ts"], },
      },
    }""")
    (tmp_path / "apps" / "web" / "tsconfig.json").write_text(
        '{"extends": "../../tsconfig.base.json", "compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["./src/*"]}}}')
    (tmp_path / "apps" / "web" / "tsconfig.app.json").write_text('{"compilerOptions": {"strict": true}}')
    found = load_js_modules(tmp_path)
    [web] = [a for a in found.aliases if a.folder == "apps/web"]
    # the extending file's options replace the base's (compilerOptions merge per option); targets
    # are relative to baseUrl
    assert web.base == "apps/web" and web.paths == (("@/*", ("apps/web/src/*",)),)
    [root] = [a for a in found.aliases if a.folder == ""]
    assert root.paths == (("@shared/*", ("libs/shared/src/*",)), ("@config", ("libs/config/index.ts",)))
    assert found.candidates("@shared/date", "libs/x/y.ts") == ["libs/shared/src/date", "@shared/date"]
    assert found.candidates("@config", "tools/a.ts") == ["libs/config/index.ts", "@config"]
    assert found.candidates("@/lib/api", "apps/web/src/page.ts") == ["apps/web/src/lib/api", "apps/web/@/lib/api"]
    result = resolve("""
// --- path: libs/shared/src/date.ts ---
export function today() { return 1; }
// --- path: libs/config/index.ts ---
export function load() { return 2; }
// --- path: apps/web/src/lib/api.ts ---
export function get() { return 3; }
// --- path: apps/web/src/page.ts ---
import { get } from "@/lib/api";
import { today } from "@shared/date";
export function page() { get(); today(); }
// --- path: tools/report.ts ---
import { today } from "@shared/date";
import { load } from "@config";
import { nope } from "@shared/missing";
import { x } from "lodash";
export function report() { today(); load(); nope(); x(); }
""", found)
    assert edges(result) == [
        "apps/web/src/page.page(0) -> apps/web/src/lib/api.get(0) [exact]",
        # web's own `paths` replace the base's: `@shared/date` is no alias there (as for tsc)
        "tools/report.report(0) -> libs/config/index.load(0) [exact]",
        "tools/report.report(0) -> libs/shared/src/date.today(0) [exact]",
    ]
    assert result.call_outcomes["external"] == 3  # @shared/date in web, @shared/missing, lodash
