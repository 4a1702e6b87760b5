"""Salesforce Aura component markup (``.cmp`` components, ``.app`` applications): extractor and module system.

An Aura component is a bundle folder (``aura/accountList/``) holding its markup ``accountList.cmp``,
its client-side controller ``accountListController.js``, helper ``accountListHelper.js`` and renderer.
The markup's root tag names the component's Apex controller (``<aura:component
controller="AccountController">``), whose ``@AuraEnabled`` methods the bundle's JavaScript runs as
server actions: ``component.get("c.getAccounts")`` then ``$A.enqueueAction(action)``. Markup is no
programming language, but it is read like source: one file at a time, cached, kept current by the
incremental run, so that a JavaScript file of the bundle depends on its markup through the resolver
(:mod:`indexer.languages.aura.modules`) and an edited ``controller`` attribute re-binds exactly the
bundle's calls. The JavaScript side is :mod:`indexer.languages.ecmascript.frameworks.aura`.

``EXTRACTORS`` is what the language registry (:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.aura.extractor import EXTRACTOR

__all__ = ["EXTRACTOR", "EXTRACTORS"]

EXTRACTORS = (EXTRACTOR,)
