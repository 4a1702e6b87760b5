"""Aura components (Salesforce): ``component.get("c.name")`` in a bundle's controller, helper or
renderer is a call of the ``@AuraEnabled`` method ``name`` of the Apex controller the bundle's markup
names (``<aura:component controller="...">``); markup is read by :mod:`indexer.languages.aura`, the
JavaScript by :mod:`indexer.languages.ecmascript.frameworks.aura`."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.languages.aura.extractor import controller_of
from indexer.languages.ecmascript.frameworks.aura import bundle_folder
from indexer.resolve.repository import RepositoryResolver, resolve_repository
from tests.resolution_harness import REPO, check, edges, extract_fixture, split_fixture

BUNDLES = """
// --- path: aura/itemList/itemList.cmp ---
<!-- <aura:component controller="OtherController"> -->
<aura:component controller="ItemController"
                implements="flexipage:availableForAllPageTypes">
    <aura:attribute name="items" type="Object[]"/>
    <aura:handler name="init" value="{!this}" action="{!c.doInit}"/>
</aura:component>
// --- path: aura/itemList/itemListController.js ---
({
    doInit: function (component, event, helper) {
        var action = component.get("c.getItems");
        action.setParams({ max: 10 });
        $A.enqueueAction(action);
        var label = component.get("v.getItems");
        component.get("c.noSuchMethod");
        component.get("c." + label);
        helper.refresh(component);
        helper.missing(component);
        event.refresh();
    },
    onSave: function (c, e, h) {
        var save = c.get("c.countItems");
        h.refresh(c);
    }
});
// --- path: aura/itemList/itemListHelper.js ---
({
    refresh(cmp) {
        const action = cmp.get('c.countItems');
        $A.enqueueAction(action);
        cmp.get("e.countItems");
    }
});
// --- path: aura/itemList/itemListRenderer.js ---
({
    render: function (component, helper) {
        helper.refresh(component);
        return this.superRender();
    }
});
// --- path: aura/otherList/otherList.cmp ---
<aura:component controller='ns.OtherController'>
</aura:component>
// --- path: aura/otherList/otherListController.js ---
({
    doInit: (component, event, helper) => {
        $A.enqueueAction(component.get("c.getItems"));
        helper.refresh(component);
    }
});
// --- path: aura/otherList/otherListRenderer.js ---
({
    afterRender: function (component, helper) {
        this.superAfterRender();
        helper.refresh(component);
    }
});
// --- path: aura/plainList/plainList.cmp ---
<aura:component>
</aura:component>
// --- path: aura/plainList/plainListController.js ---
({
    doInit: function (component) {
        component.get("c.getItems");
    }
});
// --- path: aura/managedList/managedList.cmp ---
<aura:component controller="PackagedController">
</aura:component>
// --- path: aura/managedList/managedListController.js ---
({
    doInit: function (component) {
        component.get("c.getItems");
    }
});
// --- path: static/notABundle.js ---
export function load(component) {
    component.get("c.getItems");
}
// --- path: classes/ItemController.cls ---
public with sharing class ItemController {
    @AuraEnabled
    public static List<String> getItems(Integer max) { return null; }
    @AuraEnabled
    public static Integer countItems() { return 0; }
}
// --- path: classes/OtherController.cls ---
public with sharing class OtherController {
    @AuraEnabled(cacheable=true)
    public static List<String> getItems() { return null; }
}
"""


def test_server_actions_call_the_bundle_controllers_apex_methods() -> None:
    check(BUNDLES, [
        "aura/itemList/itemList.cmp -> aura/itemList/itemListController.doInit(3) [exact]",  # action="{!c.doInit}"
        "aura/itemList/itemListController.doInit(3) -> classes/ItemController.ItemController.getItems(1) [exact]",
        "aura/itemList/itemListController.doInit(3) -> aura/itemList/itemListHelper.refresh(1) [exact]",
        # the component parameter named `c` as the server-action provider is: both still link
        "aura/itemList/itemListController.onSave(3) -> classes/ItemController.ItemController.countItems(0) [exact]",
        "aura/itemList/itemListController.onSave(3) -> aura/itemList/itemListHelper.refresh(1) [exact]",
        "aura/itemList/itemListHelper.refresh(1) -> classes/ItemController.ItemController.countItems(0) [exact]",
        "aura/itemList/itemListRenderer.render(2) -> aura/itemList/itemListHelper.refresh(1) [exact]",
        # its own bundle's controller, not the other bundle's (same method name)
        "aura/otherList/otherListController.doInit(3) -> classes/OtherController.OtherController.getItems(0) [exact]",
    ])
    # not linked: `v.` attribute values and `e.` events, a method the controller lacks, a built name,
    # a bundle without controller or with one the org lacks (a managed package's), a file outside a
    # bundle, a helper function the helper lacks, a call on the event parameter; otherList has no
    # helper file, so its controller's and renderer's `helper.refresh` are not itemList's


def test_markup_controller_attribute() -> None:
    assert controller_of('<aura:component controller="A">') == ("A", 1)
    assert controller_of("<aura:application\n  access='global'\n  controller='ns.B'>") == ("B", 3)
    assert controller_of('<!-- <aura:component controller="X"> -->\n<aura:component>') is None
    assert controller_of('<aura:component extends="c:base" description="x > y" controller="C">') == ("C", 1)
    assert controller_of('<aura:component controller="{!v.x}">') is None
    assert controller_of('<aura:component mycontroller="D">') is None
    assert controller_of("<div controller='E'></div>") is None
    assert controller_of("") is None
    ex = extractor_for_path("aura/x/x.cmp").extract("aura/x/x.cmp", b'\xff<aura:component controller="F">')
    assert ex.language == "aura" and [(i.local, i.module, i.line) for i in ex.imports] == [("c", "F", 1)]
    assert ex.errors == [] and ex.definitions == [] and ex.calls == []


def test_bundle_files_by_name() -> None:
    assert bundle_folder("a/aura/list/listController.js") == "a/aura/list"
    assert bundle_folder("a/aura/list/listHelper.js") == "a/aura/list"
    assert bundle_folder("a/aura/list/listRenderer.js") == "a/aura/list"
    assert bundle_folder("a/aura/list/otherController.js") is None
    assert bundle_folder("a/aura/list/list.js") is None
    assert bundle_folder("listController.js") is None


def test_editing_the_markup_rebinds_the_bundles_calls() -> None:
    live = RepositoryResolver(REPO)
    live.update(extract_fixture(BUNDLES))
    paths = sorted(live.files)
    before = edges(live.resolve(paths))
    edited = BUNDLES.replace('<aura:component controller="ItemController"', '<aura:component controller="OtherController"')
    changes = live.update([x for x in extract_fixture(edited) if x[0].path == "aura/itemList/itemList.cmp"])
    # the bundle's JavaScript depends on its markup; the other bundles' do not
    assert sorted(p for p in live.dependents(changes) if p.endswith(".js")) == [
        "aura/itemList/itemListController.js", "aura/itemList/itemListHelper.js"]  # the renderer calls no server action
    after = edges(live.resolve(paths))
    assert after == edges(resolve_repository(REPO, extract_fixture(edited))) != before
    assert [e for e in after if e.startswith("aura/itemList/")] == [  # OtherController has no countItems
        "aura/itemList/itemList.cmp -> aura/itemList/itemListController.doInit(3) [exact]",
        "aura/itemList/itemListController.doInit(3) -> aura/itemList/itemListHelper.refresh(1) [exact]",
        "aura/itemList/itemListController.doInit(3) -> classes/OtherController.OtherController.getItems(0) [exact]",
        "aura/itemList/itemListController.onSave(3) -> aura/itemList/itemListHelper.refresh(1) [exact]",
        "aura/itemList/itemListRenderer.render(2) -> aura/itemList/itemListHelper.refresh(1) [exact]"]


def test_hostile_markup_is_read_once() -> None:
    # many unclosed comments, root tags without `>`, an unclosed quote: each read once, nothing found
    # (a regular expression retried at each `<!--` / `<aura:component` took the square of the text)
    for text in ("<!--" * 50_000, '<aura:component a="' * 12_000, "<aura:component " * 12_000,
                 "<aura:component" + " x='1'" * 40_000 + ' controller="Late">'):
        assert controller_of(text) is None
    assert controller_of("<!-- a -->\n<!-- b\n-->" * 3 + '\n<aura:component controller="Z">') == ("Z", 8)


def test_controller_actions_and_renderer_hooks_are_run_by_the_framework() -> None:
    found = {e.path: [(r.framework, r.kind, r.owner, r.name, r.line) for r in e.entries]
             for e, _, _ in extract_fixture(BUNDLES) if e.path.endswith(".js")}
    assert found == {
        "aura/itemList/itemListController.js": [("aura", "runtime", "doInit", "action", 2), ("aura", "runtime", "onSave", "action", 13)],
        "aura/itemList/itemListHelper.js": [],  # only the bundle's code calls a helper
        "aura/itemList/itemListRenderer.js": [("aura", "runtime", "render", "renderer", 2)],
        "aura/otherList/otherListController.js": [("aura", "runtime", "doInit", "action", 2)],
        "aura/otherList/otherListRenderer.js": [("aura", "runtime", "afterRender", "renderer", 2)],
        "aura/plainList/plainListController.js": [("aura", "runtime", "doInit", "action", 2)],
        "aura/managedList/managedListController.js": [("aura", "runtime", "doInit", "action", 2)],
        "static/notABundle.js": [],
    }


MARKUP = """
// --- path: aura/base/base.cmp ---
<aura:component abstract="true" extensible="true" controller="BaseController">
    <aura:handler name="init" value="{!this}" action="{!c.doInit}"/>
    {!v.body}
</aura:component>
// --- path: aura/base/baseController.js ---
({
    doInit: function (component, event, helper) { helper.load(component); },
    refresh: function (component, event, helper) { helper.load(component); }
});
// --- path: aura/base/baseHelper.js ---
({
    load: function (component) {
        var action = component.get("c.fetch");
        action.setCallback(this, function (response) {
            this.done(response);
            [1].forEach(function () { this.other(response); });
        });
        $A.enqueueAction(action);
        this.own(component);
        [1].forEach(function () { this.other(component); });
    },
    own: function (component) {},
    done: function (response) {},
    other: function (x) {}
});
// --- path: aura/sub/sub.cmp ---
<aura:component extends="c:base">
    <!-- <lightning:button onclick="{!c.commented}"/> -->
    <lightning:button label="{!v.label}" onclick="{!c.handleClick}"/>
    <lightning:button label="Refresh" onclick="{! c.refresh }"/>
    <aura:if isTrue="{!v.c.handleClick}">{!c.missing}</aura:if>
    <lightning:input value="{!c.handleClick + 1}"/>
</aura:component>
// --- path: aura/sub/subController.js ---
({
    handleClick: function (component, event, helper) {
        helper.own(component);
        helper.load(component);
        $A.enqueueAction(component.get("c.fetch"));
    }
});
// --- path: aura/sub/subHelper.js ---
({
    own: function (component) {}
});
// --- path: aura/other/other.cmp ---
<aura:component>
    <lightning:button onclick="{!c.handleClick}"/>
    <lightning:button onclick="{!c.go}"/>
</aura:component>
// --- path: aura/other/otherController.js ---
({
    go: function (component, event, helper) { helper.load(component); }
});
// --- path: classes/BaseController.cls ---
public with sharing class BaseController {
    @AuraEnabled
    public static String fetch() { return null; }
}
"""


def test_markup_actions_call_the_bundle_controller_and_a_sub_component_inherits_its_bases() -> None:
    check(MARKUP, [
        "aura/base/base.cmp -> aura/base/baseController.doInit(3) [exact]",
        "aura/base/baseController.doInit(3) -> aura/base/baseHelper.load(1) [exact]",
        "aura/base/baseController.refresh(3) -> aura/base/baseHelper.load(1) [exact]",
        "aura/base/baseHelper.load(1) -> aura/base/baseHelper.done(1) [exact]",  # setCallback(this, ...)'s `this`
        "aura/base/baseHelper.load(1) -> aura/base/baseHelper.own(1) [exact]",  # `this` in a helper: the helper
        "aura/base/baseHelper.load(1) -> classes/BaseController.BaseController.fetch(0) [exact]",
        "aura/other/other.cmp -> aura/other/otherController.go(3) [exact]",
        "aura/sub/sub.cmp -> aura/base/baseController.refresh(3) [exact]",  # an inherited action, `{! c.refresh }`
        "aura/sub/sub.cmp -> aura/sub/subController.handleClick(3) [exact]",
        "aura/sub/subController.handleClick(3) -> aura/base/baseHelper.load(1) [exact]",  # the base's helper
        # the server action: the Apex controller the base names (sub.cmp names none)
        "aura/sub/subController.handleClick(3) -> classes/BaseController.BaseController.fetch(0) [exact]",
        "aura/sub/subController.handleClick(3) -> aura/sub/subHelper.own(1) [exact]",  # its own helper first
    ])
    # not linked: `{!v.label}`, `{!v.c.handleClick}` (attribute reads), `{!c.missing}` (no such action),
    # `{!c.handleClick + 1}` (no action reference), a commented-out expression; other.cmp's
    # `{!c.handleClick}` (its controller has none: sub's is another bundle's), other's `helper.load`
    # (other extends nothing: base's helper is not its), `this.other` in the functions handed to forEach (their
    # `this` is whatever calls them)


def test_markup_extends_and_action_expressions_are_read_with_their_positions() -> None:
    ex = extractor_for_path("aura/sub/sub.cmp").extract("aura/sub/sub.cmp", split_fixture(MARKUP)["aura/sub/sub.cmp"])
    assert [(i.local, i.module, i.line) for i in ex.imports] == [("aura$extends", "base", 1), ("aura$actions", "aura$actions", 3)]
    assert [(c.caller, c.name, c.receiver, c.arity, c.line, c.col) for c in ex.calls] == [
        (None, "handleClick", "aura$actions", -1, 3, 54), (None, "refresh", "aura$actions", -1, 4, 52),
        (None, "missing", "aura$actions", -1, 5, 45)]


def test_editing_the_extends_attribute_or_the_base_helper_rebinds_the_sub_component() -> None:
    live = RepositoryResolver(REPO)
    live.update(extract_fixture(MARKUP))
    paths = sorted(live.files)
    live.resolve(paths)
    for edited in (MARKUP.replace('<aura:component extends="c:base">', "<aura:component>"),
                   MARKUP.replace("    load: function (component)", "    loaded: function (component)")):
        changed = [x for x in extract_fixture(edited) if x[0] not in [y[0] for y in extract_fixture(MARKUP)]]
        assert len(changed) == 1
        live = RepositoryResolver(REPO)
        live.update(extract_fixture(MARKUP))
        live.resolve(paths)
        changes = live.update(changed)
        assert "aura/sub/subController.js" in live.dependents(changes)
        after = edges(live.resolve(paths))
        assert after == edges(resolve_repository(REPO, extract_fixture(edited)))
        assert "aura/sub/subController.handleClick(3) -> aura/base/baseHelper.load(1) [exact]" not in after


CALLBACKS = """
// --- path: aura/cb/cb.cmp ---
<aura:component controller="CbController">
    <aura:handler name="init" value="{!this}" action="{!c.doInit}"/>
</aura:component>
// --- path: aura/cb/cbController.js ---
({
    doInit: function (component, event, helper) {
        window.setTimeout($A.getCallback(function () {
            helper.load(component);
        }), 100);
        $A.getCallback(function () { helper.done(component); })();
    }
});
// --- path: aura/cb/cbHelper.js ---
({
    load: function (component) {
        var self = this;
        var action = component.get("c.fetch");
        action.setCallback(this, $A.getCallback(function (response) {
            this.done(response);
        }));
        window.setTimeout($A.getCallback(function () { self.own(component); this.other(component); }), 10);
        [1].forEach(function (self) { self.other(component); });
        $A.enqueueAction(action);
    },
    wrap: function (component) {
        return $A.getCallback(function () { this.other(component); self.other(component); });
    },
    own: function (x) {},
    done: function (response) {},
    other: function (x) {}
});
// --- path: classes/CbController.cls ---
public with sharing class CbController {
    @AuraEnabled
    public static String fetch() { return null; }
}
"""


def test_wrapped_callbacks_and_this_aliases_call_the_helper() -> None:
    check(CALLBACKS, [
        "aura/cb/cb.cmp -> aura/cb/cbController.doInit(3) [exact]",
        "aura/cb/cbController.doInit(3) -> aura/cb/cbHelper.done(1) [exact]",  # in an invoked $A.getCallback(...)
        "aura/cb/cbController.doInit(3) -> aura/cb/cbHelper.load(1) [exact]",  # in setTimeout($A.getCallback(...))
        "aura/cb/cbHelper.load(1) -> aura/cb/cbHelper.done(1) [exact]",  # setCallback(this, $A.getCallback(...))
        "aura/cb/cbHelper.load(1) -> aura/cb/cbHelper.own(1) [exact]",  # `var self = this`, in a callback
        "aura/cb/cbHelper.load(1) -> classes/CbController.CbController.fetch(0) [exact]",
    ])
    # not linked: `this.other` in setTimeout's callback (its `this` is whatever calls it), `self.other` in the
    # forEach callback whose parameter is named `self`, wrap's `this.other` in a returned $A.getCallback and its
    # `self.other` (no alias in wrap)
    calls = {e.path: [(c.caller, c.name, c.receiver, c.line) for c in e.calls if c.name in {"load", "done", "own", "other"}]
             for e, _, _ in extract_fixture(CALLBACKS) if e.path.endswith(".js")}
    assert calls == {  # each call read once
        "aura/cb/cbController.js": [("doInit", "load", "aura$helper", 4), ("doInit", "done", "aura$helper", 6)],
        "aura/cb/cbHelper.js": [("load", "done", "aura$helper", 6), ("load", "own", "aura$helper", 8),
                                ("load", "other", "function.this", 8), ("load", "other", "self", 9),
                                ("wrap", "other", "function.this", 13), ("wrap", "other", "self", 13)],
    }
