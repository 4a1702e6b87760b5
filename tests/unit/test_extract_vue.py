"""Vue single-file components (issue 21 item 4): script blocks extracted by the ECMAScript extractor
at their real lines and columns, the component definition, Options API members, template event
handlers as calls, and HTTP clients found by the JavaScript detectors."""

from __future__ import annotations

import textwrap

from indexer.languages import extractor_for_path
from indexer.languages.ecmascript.vue import EXTRACTOR, component_name
from indexer.model import CallSite, Export, FileExtraction, HttpCall, Import, Template


def extract(code: str, path: str = "src/components/OrderView.vue") -> FileExtraction:
    return EXTRACTOR.extract(path, textwrap.dedent(code).lstrip("\n").encode("utf-8"))


def outline(fx: FileExtraction) -> list[tuple]:
    return [(d.kind, d.qualname, d.parent, d.start_line, d.start_col, d.end_line, d.name_line, d.name_col)
            for d in fx.definitions]


OPTIONS = """
<template>
  <div>
    <button @click="reload">Reload</button>
    <form v-on:submit.prevent="save(order, 1)">é</form>
    <a @click="$emit('close')" @mouseover="count++">x</a>
  </div>
</template>

<script>
import axios from "axios";
import { format } from "@/util/format";

export default {
  name: "OrderPanel",
  data() {
    return { order: null };
  },
  methods: {
    reload() {
      return this.load(format(1));
    },
    load: function (id) {
      return axios.get(`/api/orders/${id}`);
    },
    save(order, n) {
      fetch("/api/orders", { method: "POST" });
    },
  },
  mounted() {
    this.reload();
  },
};
</script>
"""


def test_registry_claims_vue_files_and_names_components_from_the_file() -> None:
    assert extractor_for_path("src/App.vue") is EXTRACTOR
    assert EXTRACTOR.language == "vue"
    assert component_name("src/components/order-list.vue") == "OrderList"
    assert component_name("src/views/Home.vue") == "Home"


def test_options_api_component_members_at_their_real_lines() -> None:
    fx = extract(OPTIONS)
    assert fx.language == "vue"
    assert fx.errors == []
    assert fx.imports == [Import("axios", "axios", "default", line=10), Import("format", "@/util/format", "format",
                                                                                 line=11)]
    assert outline(fx) == [
        ("class", "OrderPanel", None, 13, 15, 32, 13, 15),  # the options object
        ("method", "OrderPanel.data", "OrderPanel", 15, 2, 17, 15, 2),
        ("method", "OrderPanel.reload", "OrderPanel", 19, 4, 21, 19, 4),
        ("method", "OrderPanel.load", "OrderPanel", 22, 4, 24, 22, 4),
        ("method", "OrderPanel.save", "OrderPanel", 25, 4, 27, 25, 4),
        ("method", "OrderPanel.mounted", "OrderPanel", 29, 2, 31, 29, 2),
    ]
    assert [p.name for p in fx.definitions[4].params] == ["order", "n"]
    assert fx.exports == [Export("default", local="OrderPanel")]


def test_calls_in_members_and_template_handlers_belong_to_the_component() -> None:
    fx = extract(OPTIONS)
    assert sorted(fx.calls, key=lambda c: (c.line, c.col)) == [
        CallSite("OrderPanel", "reload", None, -1, 3, 20),
        CallSite("OrderPanel", "save", None, 2, 4, 31),  # v-on:submit.prevent="save(order, 1)"
        CallSite("OrderPanel.reload", "load", "this", 1, 20, 18),
        CallSite("OrderPanel.reload", "format", None, 1, 20, 23),
        CallSite("OrderPanel.load", "get", "axios", 1, 23, 19),
        CallSite("OrderPanel.save", "fetch", None, 2, 26, 6),
        CallSite("OrderPanel.mounted", "reload", "this", 0, 30, 9),
    ]  # $emit(...) and count++ call nothing of the component
    assert fx.http_calls == [
        HttpCall("axios", "GET", Template((("lit", "/api/orders/"), ("ref", "id"))), "OrderPanel.load", 23, 13),
        HttpCall("fetch", "POST", Template.of("/api/orders"), "OrderPanel.save", 26, 6),
    ]


SETUP = """
<script setup lang="ts">
import { ref } from "vue";
import OrderView from "./OrderView.vue";
const sku = ref<string>("");
function submit(value: string): void {
  fetch(`/api/stock/${value}`);
}
</script>

<template>
  <form @submit.prevent="submit(sku)"><OrderView /></form>
</template>
"""


def test_script_setup_in_typescript_keeps_module_functions_and_real_positions() -> None:
    fx = extract(SETUP, "src/components/new-order.vue")
    assert outline(fx) == [
        ("function", "submit", None, 5, 0, 7, 5, 9),
        ("class", "NewOrder", None, 10, 0, 12, 10, 0),  # spans the template
    ]
    assert fx.definitions[0].params[0].type == "string"  # read by the TypeScript extractor
    assert fx.imports[1] == Import("OrderView", "./OrderView.vue", "default", line=3)
    assert sorted(fx.calls, key=lambda c: (c.line, c.col)) == [
        CallSite(None, "ref", None, 1, 4, 12),
        CallSite("submit", "fetch", None, 1, 6, 2),
        CallSite("NewOrder", "submit", None, 1, 11, 25),
    ]


def test_a_file_without_script_and_a_broken_one_never_raise() -> None:
    fx = extract("<template><p @click=\"go\">x</p></template>\n", "src/Plain.vue")
    assert [(d.kind, d.qualname) for d in fx.definitions] == [("class", "Plain")]
    assert fx.calls == [CallSite("Plain", "go", None, -1, 1, 21)]
    broken = extract("<script>\nexport default { methods: { a( { } }\n</script>\n<template><p", "src/Bad.vue")
    assert broken.errors  # reported, not raised
