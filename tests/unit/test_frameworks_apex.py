"""Apex platform detectors (REST resources, callouts, triggers and scheduled jobs), SOQL / DML access,
and the Lightning Web Components detector: exact facts, and look-alikes that must not count."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.languages.apex.frameworks.data import SObjectAccess, sobject_accesses
from indexer.languages.base import SourceText, parser
from indexer.model import CallSite, EntryRegistration


def _ex(path: str, source: str):
    ex = extractor_for_path(path).extract(path, source.encode())
    assert ex.errors == [], ex.errors
    return ex


def test_rest_resource_methods_are_routes_under_services_apexrest() -> None:
    ex = _ex("classes/Orders.cls", """
@RestResource(urlMapping='/orders/*')
global class Orders {
    @HttpGet global static String one() { return null; }
    @httppost global static String create() { return null; }
    global static String helper() { return null; }
}
@RestResource(urlMapping='/v2/status')
global class Status { @HttpDelete global static void clear() {} }
public class NotRest { @HttpGet public static void ignored() {} }
""")
    assert [(r.framework, r.methods, r.path.literal(), r.handler) for r in ex.routes] == [
        ("apex-rest", ["GET"], "/services/apexrest/orders", "Orders.one"),
        ("apex-rest", ["GET"], "/services/apexrest/orders/*", "Orders.one"),
        ("apex-rest", ["POST"], "/services/apexrest/orders", "Orders.create"),
        ("apex-rest", ["POST"], "/services/apexrest/orders/*", "Orders.create"),
        ("apex-rest", ["DELETE"], "/services/apexrest/v2/status", "Status.clear"),
    ]


def test_callouts_pair_endpoint_and_method_per_request() -> None:
    ex = _ex("classes/Billing.cls", """
public class Billing {
    public static void sync(String id) {
        HttpRequest req = new HttpRequest();
        req.setEndpoint('callout:Billing/api/accounts/' + id + '/sync');
        req.setMethod('post');
        new Http().send(req);
    }
    public static void ping() {
        HttpRequest r = new HttpRequest();
        r.setEndpoint('https://status.example.com/ping');
        HttpRequest other = new HttpRequest();
        other.setEndpoint(someUrl());
        HttpRequest named = new HttpRequest();
        named.setEndpoint('callout:' + credentialName + '/x');
    }
}
""")
    assert [(c.framework, c.method, c.url.parts, c.caller) for c in ex.http_calls] == [
        ("apex-callout", "POST", (("lit", "callout://Billing/api/accounts/"), ("hole", "id"), ("lit", "/sync")),
         "Billing.sync"),
        ("apex-callout", "*", (("lit", "https://status.example.com/ping"),), "Billing.ping"),
    ]


def test_triggers_schedulers_and_email_handlers_are_entry_points() -> None:
    trig = _ex("triggers/CaseTrigger.trigger", "trigger CaseTrigger on Case (after insert, after update) { }")
    assert trig.entries == [EntryRegistration("apex-trigger", "trigger", "CaseTrigger", 1, 8,
                                              name="Case after insert, after update")]
    ex = _ex("classes/Jobs.cls", """
public class Nightly implements System.Schedulable {
    public void execute(SchedulableContext ctx) {}
}
public class Mail implements Messaging.InboundEmailHandler {
    public Messaging.InboundEmailResult handleInboundEmail(Messaging.InboundEmail e, Messaging.InboundEnvelope v) { return null; }
}
public class NotScheduled { public void execute(SchedulableContext ctx) {} }
""")
    assert [(e.framework, e.kind, e.owner, e.name) for e in ex.entries] == [
        ("apex-scheduler", "scheduled", "Nightly.execute", "Schedulable"),
        ("apex-email", "runtime", "Mail.handleInboundEmail", "inbound email"),
    ]


def test_queueable_batchable_and_finalizer_methods_are_async_entry_points() -> None:
    ex = _ex("classes/Async.cls", """
public class Chunk implements Queueable, Database.AllowsCallouts {
    public void execute(QueueableContext ctx) {}
    public void helper() {}
}
public class Purge implements Database.Batchable<SObject>, Database.Stateful {
    public Database.QueryLocator start(Database.BatchableContext bc) { return null; }
    public void execute(Database.BatchableContext bc, List<SObject> scope) {}
    public void finish(Database.BatchableContext bc) {}
}
public class Cleanup implements System.Finalizer { public void execute(FinalizerContext ctx) {} }
public class NotAJob { public void execute(QueueableContext ctx) {} }
public interface Queueable2 extends Queueable { void execute(QueueableContext ctx); }
""")
    assert [(e.framework, e.kind, e.owner, e.name) for e in ex.entries] == [
        ("apex-queueable", "async", "Chunk.execute", "Queueable"),
        ("apex-batch", "async", "Purge.start", "Batchable"),
        ("apex-batch", "async", "Purge.execute", "Batchable"),
        ("apex-batch", "async", "Purge.finish", "Batchable"),
        ("apex-finalizer", "async", "Cleanup.execute", "Finalizer"),
    ]


def test_soql_reads_and_dml_writes_name_their_sobjects() -> None:
    source = """public class S {
  private List<Opportunity> opps;
  public void m(Account acc, List<Contact> cs, SObject anything, Map<Id, Lead> byId) {
    List<Account> a = [SELECT Id, Name, Owner.Name, (SELECT Id FROM Contacts) FROM Account WHERE Id = :acc.Id];
    insert new Case(Subject = 'x');
    update acc;
    upsert cs;
    delete anything;
    update byId.values();
    Database.insert(opps, false);
    List<Lead> ls = Database.query('SELECT Id, Email FROM Lead');
    String notSoql = 'select the best FROM here';
    insert new List<Task>{ new Task() };
    Database.update(new Asset[]{ }, false);
    insert new List<SObject>{ acc };
  }
}
"""
    ex = _ex("classes/S.cls", source)
    got = sobject_accesses(parser("apex").parse(source.encode()).root_node, SourceText(source.encode()), ex)
    assert got == [
        SObjectAccess("reads", "Account", "select", "S.m", 4, 23, ["Id", "Name", "Owner.Name"]),
        SObjectAccess("writes", "Case", "insert", "S.m", 5, 4),
        SObjectAccess("writes", "Account", "update", "S.m", 6, 4, resolution="inferred"),
        SObjectAccess("writes", "Contact", "upsert", "S.m", 7, 4, resolution="inferred"),
        SObjectAccess("writes", "Opportunity", "insert", "S.m", 10, 4, resolution="inferred"),
        SObjectAccess("reads", "Lead", "select", "S.m", 11, 20, ["Id", "Email"]),
        # `new List<Task>{...}` / `new Asset[]{}` name their sObject; `new List<SObject>{...}` names none
        SObjectAccess("writes", "Task", "insert", "S.m", 13, 4),
        SObjectAccess("writes", "Asset", "update", "S.m", 14, 4),
    ]


def test_dynamic_soql_built_from_literals_and_names_reads_its_sobject() -> None:
    source = """public class Q {
  private String batchQuery = 'SELECT Id, Name FROM Contact';
  public void a(String whereClause, String fields) {
    Integer n = Database.countQuery('SELECT count() FROM Product__c ' + whereClause);
    List<SObject> r = Database.query('SELECT Id, Name FROM Product__c ' + whereClause + ' WITH USER_MODE');
    String queryString = 'SELECT Id FROM Account LIMIT 1';
    Database.query(queryString, AccessLevel.USER_MODE);
    String q2 = 'SELECT Id, Name ' + 'FROM Lead ' + 'WHERE Name = :name';
    Database.queryWithBinds(q2, new Map<String, Object>(), AccessLevel.USER_MODE);
    Database.getQueryLocator(batchQuery);
    Database.query('SELECT ' + fields + ' FROM Case');
    Database.query(fields);
    Database.query(buildQuery());
    Database.query(laterName);
    String laterName = 'SELECT Id FROM Opportunity';
    String built = '';
    built += 'SELECT Name ';
    built += 'FROM Task ';
    Database.query(built + 'LIMIT 1');
  }
  public void b(String batchQuery) { Database.query(batchQuery); }
}
"""
    ex = _ex("classes/Q.cls", source)
    got = sobject_accesses(parser("apex").parse(source.encode()).root_node, SourceText(source.encode()), ex)
    assert got == [
        SObjectAccess("reads", "Product__c", "select", "Q.a", 4, 16),
        SObjectAccess("reads", "Product__c", "select", "Q.a", 5, 22, ["Id", "Name"]),
        # through a local's or a field's initialiser: inferred
        SObjectAccess("reads", "Account", "select", "Q.a", 7, 4, ["Id"], resolution="inferred"),
        SObjectAccess("reads", "Lead", "select", "Q.a", 9, 4, ["Id", "Name"], resolution="inferred"),
        SObjectAccess("reads", "Contact", "select", "Q.a", 10, 4, ["Id", "Name"], resolution="inferred"),
        # a hole in the select list: the sObject, no columns
        SObjectAccess("reads", "Case", "select", "Q.a", 11, 4),
        # `built` replayed: '' then two appends
        SObjectAccess("reads", "Task", "select", "Q.a", 19, 4, ["Name"], resolution="inferred"),
    ]  # not: a parameter (`fields`; Q.b's `batchQuery` hides the field), a call's result, a local declared after the call


def test_platform_events_are_published_to_and_consumed_from_the_salesforce_event_bus() -> None:
    ex = _ex("classes/Pub.cls", """public class Pub {
  private List<Order_Shipped__e> pending = new List<Order_Shipped__e>();
  public static Database.SaveResult one(Order_Shipped__e e) { return EventBus.publish(e); }
  public void many() {
    EventBus.publish(this.pending);
    EventBus.publish(new List<Audit__e>{ new Audit__e() }, new Callback());
  }
  public void unknown(List<SObject> raw) {
    EventBus.publish(raw);
    EventBus.publish(build());
    Other.publish(new Audit__e());
  }
}
""")
    assert [(t.framework, t.role, t.topic.literal(), t.owner, t.line, t.broker) for t in ex.topics] == [
        ("apex-platform-event", "produces", "order_shipped__e", "Pub.one", 3, "salesforce"),
        ("apex-platform-event", "produces", "order_shipped__e", "Pub.many", 5, "salesforce"),
        ("apex-platform-event", "produces", "audit__e", "Pub.many", 6, "salesforce"),
    ]  # not: a List<SObject>, a call's result, `publish` on another receiver
    trig = _ex("triggers/AuditTrigger.trigger", "trigger AuditTrigger on Audit__E (after insert) { }")
    assert [(t.role, t.topic.literal(), t.owner, t.broker) for t in trig.topics] == [
        ("consumes", "audit__e", "AuditTrigger", "salesforce")]
    # an ordinary sObject's trigger runs on DML (record_triggers), not from the event bus
    assert [(t.framework, t.role, t.topic.literal()) for t in
            _ex("triggers/A.trigger", "trigger A on Account (after insert) { }").topics] == [
        ("apex-dml", "consumes", "account.insert")]


def test_lwc_wire_adapters_are_calls_and_lifecycle_hooks_entries() -> None:
    ex = _ex("lwc/card/card.js", """import { LightningElement, wire } from 'lwc';
import getThing from '@salesforce/apex/Things.getThing';
export default class Card extends LightningElement {
    @wire(getThing, { id: '$recordId' }) thing;
    @wire(getThing) wired({ data }) {}
    connectedCallback() {}
    renderedCallback() {}
    notAHook() {}
}
class Helper { connectedCallback() {} }
""")
    assert [c for c in ex.calls if c.name == "getThing"] == [CallSite("Card", "getThing", None, 1, 4, 10),
                                                             CallSite("Card", "getThing", None, 1, 5, 10)]
    assert [(e.framework, e.kind, e.owner, e.name) for e in ex.entries] == [
        ("lwc", "runtime", "Card.connectedCallback", "lifecycle"),
        ("lwc", "runtime", "Card.renderedCallback", "lifecycle"),
    ]


def test_lwc_detector_ignores_files_that_do_not_import_lwc() -> None:
    ex = _ex("src/plain.js", "class Card extends LightningElement { connectedCallback() {} }\n"
                             "function wire(x) { return () => {}; }\n")
    assert ex.entries == [] and [c.name for c in ex.calls] == []


def test_dml_raises_the_record_events_that_run_the_triggers_on_its_sobject() -> None:
    ex = _ex("classes/W.cls", """public class W {
  public void m(Account acc, List<Contact> cs, SObject any) {
    insert new Case(Subject = 'x');
    update acc;
    upsert cs;
    delete any;
    Database.merge(acc, acc);
    Database.undelete(acc);
    EventBus.publish(new Audit__e());
  }
}""")
    assert all(t.needs_consumer for t in ex.topics if t.framework == "apex-dml")  # kept where a trigger runs
    assert [(t.framework, t.role, t.topic.literal(), t.owner, t.line, t.broker) for t in ex.topics
            if t.framework == "apex-dml"] == [
        ("apex-dml", "produces", "case.insert", "W.m", 3, "salesforce"),
        ("apex-dml", "produces", "account.update", "W.m", 4, "salesforce"),
        ("apex-dml", "produces", "contact.insert", "W.m", 5, "salesforce"),  # upsert: insert and update
        ("apex-dml", "produces", "contact.update", "W.m", 5, "salesforce"),
        ("apex-dml", "produces", "account.update", "W.m", 7, "salesforce"),  # merge: update and delete
        ("apex-dml", "produces", "account.delete", "W.m", 7, "salesforce"),
        ("apex-dml", "produces", "account.undelete", "W.m", 8, "salesforce"),
    ]  # not: `delete any` (an SObject), the platform event (the event bus's)
    trig = _ex("triggers/T.trigger",
               "trigger T on Account (before insert, after insert, after update, before delete) { }")
    assert [(t.role, t.topic.literal(), t.owner) for t in trig.topics] == [
        ("consumes", "account.insert", "T"), ("consumes", "account.update", "T"), ("consumes", "account.delete", "T")]
    event_trigger = _ex("triggers/E.trigger", "trigger E on Audit__e (after insert) { }")
    assert [t.framework for t in event_trigger.topics] == ["apex-platform-event"]
