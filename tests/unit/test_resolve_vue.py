"""Vue call resolution (issue 21 item 4): imports from and into ``.vue`` files (relative, and the
``@/`` alias of a tsconfig / jsconfig), template event handlers bound to the component's methods or
to ``<script setup>`` functions, ``this.x()`` inside Options API members; what must stay unresolved."""

from __future__ import annotations

from indexer.frameworks.js_modules import JsModules, TsPaths
from indexer.frameworks.link import LinkOptions
from indexer.languages import extractor_for_path
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import edges, split_fixture

ALIASES = JsModules((), (TsPaths("web", "web", (("@/*", ("web/src/*",)),)),))

APP = """
// --- path: web/src/api/orders.ts ---
export function getOrder(id: number) { return id; }
export function createOrder(sku: string) { return sku; }
// --- path: web/src/components/OrderView.vue ---
<template>
  <button @click="reload">Reload</button>
  <button @click="missing()">?</button>
</template>
<script>
import { getOrder } from "@/api/orders";
export default {
  methods: {
    reload() { return this.fetchOrder(); },
    fetchOrder() { return getOrder(1); },
  },
  mounted() { this.fetchOrder(); this.nothing(); },
};
</script>
// --- path: web/src/components/NewOrder.vue ---
<template>
  <form v-on:submit.prevent="submit(sku)"><OrderView /></form>
</template>
<script setup lang="ts">
import { createOrder } from "../api/orders";
import OrderView from "./OrderView.vue";
const sku = "a";
function submit(value: string) { createOrder(value); }
</script>
// --- path: web/src/main.ts ---
import NewOrder from "@/components/NewOrder.vue";
import OrderView from "./components/OrderView.vue";
export function boot() { return new NewOrder(); }
export function boot2() { return new OrderView(); }
"""


def resolve(fixture: str, modules: JsModules):
    extractions = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        extractions.append((extractor_for_path(path).extract(path, data), "0" * 64, len(data)))
    return resolve_repository("t", extractions, LinkOptions(module_configs={"ecmascript": modules}))


def test_template_handlers_members_and_imports_across_vue_files() -> None:
    result = resolve(APP, ALIASES)
    assert edges(result) == [
        "web/src/components/NewOrder.NewOrder -> web/src/components/NewOrder.submit(1) [exact]",  # template
        "web/src/components/NewOrder.submit(1) -> web/src/api/orders.createOrder(1) [exact]",  # relative import
        "web/src/components/OrderView.OrderView -> web/src/components/OrderView.OrderView.reload(0) [exact]",
        "web/src/components/OrderView.OrderView.fetchOrder(0) -> web/src/api/orders.getOrder(1) [exact]",  # @/ alias
        "web/src/components/OrderView.OrderView.mounted(0) -> web/src/components/OrderView.OrderView.fetchOrder(0)"
        " [exact]",
        "web/src/components/OrderView.OrderView.reload(0) -> web/src/components/OrderView.OrderView.fetchOrder(0)"
        " [exact]",
        # a default import of a .vue file is its component, through the alias or a relative path
        "web/src/main.boot(0) -> web/src/components/NewOrder.NewOrder [exact]",
        "web/src/main.boot2(0) -> web/src/components/OrderView.OrderView [exact]",
    ]
    unresolved = sorted((u.receiver or "", u.name) for f in result.files for u in f.unresolved)
    assert unresolved == [("", "missing"), ("this", "nothing")]


def test_without_the_alias_configuration_the_alias_import_binds_nothing() -> None:
    result = resolve(APP, JsModules())
    assert "web/src/components/OrderView.OrderView.fetchOrder(0) -> web/src/api/orders.getOrder(1) [exact]" \
        not in edges(result)
    assert "web/src/main.boot(0) -> web/src/components/NewOrder.NewOrder [exact]" not in edges(result)
    assert "web/src/main.boot2(0) -> web/src/components/OrderView.OrderView [exact]" in edges(result)


def test_vue_cli_projects_get_the_at_alias_without_a_configuration_file(tmp_path) -> None:
    from indexer.frameworks.js_modules import load_js_modules

    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "package.json").write_text('{"devDependencies": {"@vue/cli-service": "~4.5.0"}}')
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "package.json").write_text('{"dependencies": {"vue": "^2.6.0"}}')
    found = load_js_modules(tmp_path)
    assert found.aliases == (TsPaths("web", None, (("@/*", ("web/src/*",)),)),)
    assert found.candidates("@/api/orders", "web/src/components/A.vue")[0] == "web/src/api/orders"
    assert found.candidates("@/api/orders", "plain/src/A.vue") == []  # no alias there


SETUP = """
// --- path: web/src/composables/useApi.ts ---
export class OrdersApi { load() { return 1; } }
export function useToast() {
  function notify(msg: string) { return msg; }
  return { notify };
}
// --- path: web/src/components/Orders.vue ---
<template>
  <button @click="refresh">Refresh</button>
</template>
<script lang="ts">
import { defineComponent } from "vue";
import { OrdersApi, useToast } from "../composables/useApi";
export default defineComponent({
  setup() {
    const api = new OrdersApi();
    const { notify } = useToast();
    function refresh() {
      api.load();
      notify("done");
    }
    return { refresh };
  },
});
function outside() {
  notify("no");
}
</script>
"""


def test_functions_declared_in_setup_see_setups_variables() -> None:
    result = resolve(SETUP, JsModules())
    assert edges(result) == [
        "web/src/components/Orders.Orders -> web/src/components/Orders.refresh(0) [exact]",  # template
        "web/src/components/Orders.Orders.setup(0) -> web/src/composables/useApi.OrdersApi [exact]",
        "web/src/components/Orders.Orders.setup(0) -> web/src/composables/useApi.useToast(0) [exact]",
        # `refresh` is named at module level (the template calls it) but written in setup(): it sees
        # setup's `api` and the destructured `notify`
        "web/src/components/Orders.refresh(0) -> web/src/composables/useApi.OrdersApi.load(0) [inferred]",
        "web/src/components/Orders.refresh(0) -> web/src/composables/useApi.useToast.notify(1) [exact]",
    ]
    # `outside` is written outside setup(): setup's `notify` is no name of it
    unresolved = sorted((u.caller, u.name) for f in result.files for u in f.unresolved)
    assert unresolved == [("t:web/src/components/Orders.outside(0)", "notify")]
