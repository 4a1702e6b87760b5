"""Apex resolution: one org-wide namespace, case-insensitive type names, inheritance, triggers,
platform dispatch, and Lightning Web Components importing Apex methods."""

from __future__ import annotations

from tests.resolution_harness import check, edges, short

CLASSES = """
// --- path: classes/AccountRepo.cls ---
public inherited sharing class AccountRepo extends BaseRepo {
    public void save(List<Account> records) { upsert records; log(); }
}
// --- path: classes/BaseRepo.cls ---
public virtual class BaseRepo {
    protected void log() {}
    public virtual void flush() {}
}
// --- path: classes/AccountService.cls ---
public with sharing class AccountService implements Queueable {
    private AccountRepo repo = new AccountRepo();
    @AuraEnabled
    public static void sync(List<Account> accounts) {
        accountrepo r = new accountRepo();
        r.save(accounts);
        r.flush();
        System.enqueueJob(new AccountService());
        System.enqueueJob(new NoExecute());
        Unknown.thing();
        r.SAVE(accounts);
    }
    public void execute(QueueableContext ctx) { this.repo.save(null); }
}
// --- path: classes/NoExecute.cls ---
public class NoExecute {}
// --- path: triggers/AccountTrigger.trigger ---
trigger AccountTrigger on Account (after insert) {
    AccountService.sync(Trigger.new);
}
"""


def test_types_resolve_org_wide_case_insensitively_and_through_bases() -> None:
    check(CLASSES, [
        "classes/AccountRepo.AccountRepo.save(1) -> classes/BaseRepo.BaseRepo.log(0) [inferred]",
        # field initialiser: the class calls the (implicit) constructor's class
        "classes/AccountService.AccountService -> classes/AccountRepo.AccountRepo [exact]",
        "classes/AccountService.AccountService.execute(1) -> classes/AccountRepo.AccountRepo.save(1) [exact]",
        # `accountrepo r = new accountRepo()`: the type is found whatever its case
        "classes/AccountService.AccountService.sync(1) -> classes/AccountRepo.AccountRepo [exact]",
        "classes/AccountService.AccountService.sync(1) -> classes/AccountRepo.AccountRepo.save(1) [exact]",
        "classes/AccountService.AccountService.sync(1) -> classes/BaseRepo.BaseRepo.flush(0) [inferred]",
        # System.enqueueJob(new AccountService()) runs its execute; NoExecute declares none: no edge
        "classes/AccountService.AccountService.sync(1) -> classes/AccountService.AccountService [exact]",
        "classes/AccountService.AccountService.sync(1) -> classes/AccountService.AccountService.execute(1) [exact]",
        "classes/AccountService.AccountService.sync(1) -> classes/NoExecute.NoExecute [exact]",
        "triggers/AccountTrigger.AccountTrigger(0) -> classes/AccountService.AccountService.sync(1) [exact]",
    ])


LWC = """
// --- path: classes/ContactController.cls ---
public with sharing class ContactController {
    @AuraEnabled(cacheable=true)
    public static List<Contact> getContacts(Id accountId) { return null; }
    @AuraEnabled
    public static void saveContact(Contact c) {}
}
// --- path: lwc/contactList/contactList.js ---
import { LightningElement, api, wire } from 'lwc';
import getContacts from '@salesforce/apex/ContactController.getContacts';
import saveContact from '@salesforce/apex/ContactController.saveContact';
import missing from '@salesforce/apex/NoSuchController.method';
import { getRecord } from 'lightning/uiRecordApi';

export default class ContactList extends LightningElement {
    @api recordId;
    @wire(getContacts, { accountId: '$recordId' }) contacts;
    @wire(getRecord, { recordId: '$recordId' }) record;

    handleSave(event) {
        saveContact({ c: event.detail }).then(() => this.refresh());
        missing();
    }

    refresh() {}
}
"""


def test_lwc_imports_of_apex_methods_are_calls_into_apex() -> None:
    check(LWC, [
        # @wire(getContacts, ...): the engine calls the adapter for the component class
        "lwc/contactList/contactList.ContactList -> classes/ContactController.ContactController.getContacts(1) [exact]",
        "lwc/contactList/contactList.ContactList.handleSave(1) -> classes/ContactController.ContactController.saveContact(1) [exact]",
        "lwc/contactList/contactList.ContactList.handleSave(1) -> lwc/contactList/contactList.ContactList.refresh(0) [exact]",
    ])


HANDED_JOBS = """
// --- path: classes/Chain.cls ---
public class Chain implements Queueable {
    private Sweep next = new Sweep();
    public void execute(QueueableContext ctx) {
        Sweep job = new Sweep();
        System.enqueueJob(job);
        System.enqueueJob(this.next);
        Database.executeBatch(new Purge(), 200);
        Purge batch = new Purge();
        Database.executeBatch(batch);
        Queueable generic = job;
        System.enqueueJob(generic);
        System.enqueueJob(undeclared);
    }
    public void later(Object o) { System.enqueueJob(o); }
}
// --- path: classes/Sweep.cls ---
public class Sweep implements Queueable {
    public void execute(QueueableContext ctx) { System.enqueueJob(this); }
}
// --- path: classes/Purge.cls ---
public class Purge implements Database.Batchable<SObject> {
    public Database.QueryLocator start(Database.BatchableContext bc) { return null; }
    public void execute(Database.BatchableContext bc, List<SObject> scope) {}
    public void finish(Database.BatchableContext bc) {}
}
"""


def test_jobs_handed_to_the_platform_by_name_run_their_methods() -> None:
    check(HANDED_JOBS, [
        "classes/Chain.Chain -> classes/Sweep.Sweep [exact]",
        "classes/Chain.Chain.execute(1) -> classes/Sweep.Sweep [exact]",
        # System.enqueueJob(job) / (this.next): the declared type's execute runs
        "classes/Chain.Chain.execute(1) -> classes/Sweep.Sweep.execute(1) [exact]",
        # Database.executeBatch(new Purge(), 200) and (batch): start, execute and finish run
        "classes/Chain.Chain.execute(1) -> classes/Purge.Purge [exact]",
        "classes/Chain.Chain.execute(1) -> classes/Purge.Purge.start(1) [exact]",
        "classes/Chain.Chain.execute(1) -> classes/Purge.Purge.execute(2) [exact]",
        "classes/Chain.Chain.execute(1) -> classes/Purge.Purge.finish(1) [exact]",
        # System.enqueueJob(this): the class's own execute
        "classes/Sweep.Sweep.execute(1) -> classes/Sweep.Sweep.execute(1) [exact]",
        # not linked: `Queueable generic` (the platform's interface), an undeclared name, `Object o`
    ])


EVENTS = """
// --- path: classes/Shipping.cls ---
public class Shipping {
    public static void ship(Id orderId) {
        Order_Shipped__e e = new Order_Shipped__e(OrderId__c = orderId);
        EventBus.publish(e);
    }
    public static void other(List<SObject> raw) { EventBus.publish(raw); }
    public static void record(Account acc, Contact c) { insert acc; update c; }
}
// --- path: triggers/OrderShipped.trigger ---
trigger OrderShipped on order_shipped__e (after insert) {
    new ShippedHandler().run();
}
// --- path: triggers/AccountTrigger.trigger ---
trigger AccountTrigger on Account (after insert) { }
// --- path: classes/ShippedHandler.cls ---
public class ShippedHandler { public void run() {} }
"""


def test_platform_events_link_the_publisher_to_the_trigger_on_the_event() -> None:
    result = check(EVENTS, [
        "triggers/OrderShipped.OrderShipped(0) -> classes/ShippedHandler.ShippedHandler [exact]",
        "triggers/OrderShipped.OrderShipped(0) -> classes/ShippedHandler.ShippedHandler.run(0) [exact]",
    ])
    # the event's name folds case; `List<SObject> raw` publishes nothing; the Account trigger consumes the
    # record events of Account (DML: tests/unit/test_frameworks_apex.py), not the platform event
    # `insert acc` runs AccountTrigger (after insert); `update c` no trigger: no topic
    assert edges(result, "PRODUCES") == ["classes/Shipping.Shipping.record(2) -> topic:salesforce:account.insert",
                                         "classes/Shipping.Shipping.ship(1) -> topic:salesforce:order_shipped__e"]
    assert edges(result, "CONSUMES") == ["triggers/AccountTrigger.AccountTrigger(0) -> topic:salesforce:account.insert",
                                         "triggers/OrderShipped.OrderShipped(0) -> topic:salesforce:order_shipped__e"]


OVERLOADS = """
// --- path: classes/CanTheUser.cls ---
public class CanTheUser {
    public static Boolean create(SObject obj) { return true; }
    public static Boolean create(List<SObject> objs) { return true; }
    public static Boolean create(String objName) { return true; }
    public static void log(Integer n) {}
    public static void log(Decimal d) {}
}
// --- path: classes/Caller.cls ---
public class Caller {
    private List<Contact> contacts;
    public void go(Invoice__c inv, List<SObject> records, Account acc, Id recordId, Contact[] arr) {
        List<Invoice__c> invoices = new List<Invoice__c>();
        // (a Map is read with get(), never indexed)
        CanTheUser.create(invoices[0]);
        CanTheUser.create(arr[0]);
        CanTheUser.create(inv);
        CanTheUser.create(records);
        CanTheUser.create('Account');
        CanTheUser.create(this.contacts);
        CanTheUser.create(arr);
        CanTheUser.create(recordId);
        CanTheUser.create(acc);
        CanTheUser.log(1.5);
        CanTheUser.log(2);
    }
}
"""


def test_overloads_are_chosen_by_the_arguments_types() -> None:
    create, log = "classes/CanTheUser.CanTheUser.create(1)", "classes/CanTheUser.CanTheUser.log(1)"
    result = check(OVERLOADS, [
        f"classes/Caller.Caller.go(5) -> {create} [exact]",
        f"classes/Caller.Caller.go(5) -> {create}#2 [exact]",
        f"classes/Caller.Caller.go(5) -> {create}#3 [exact]",
        f"classes/Caller.Caller.go(5) -> {log} [exact]",
        f"classes/Caller.Caller.go(5) -> {log}#2 [exact]",
    ])
    sites = sorted((e.line, short(e.dst).removeprefix("classes/CanTheUser.CanTheUser."))
                   for f in result.files for e in f.edges if e.kind == "CALLS")
    assert sites == [
        (6, "create(1)"),      # invoices[0]: an element of a List<Invoice__c>
        (7, "create(1)"),      # arr[0]: an element of a Contact[]
        (8, "create(1)"),      # Invoice__c: a custom object is an SObject, not a List nor a String
        (9, "create(1)#2"),    # List<SObject>
        (10, "create(1)#3"),   # a string literal
        (11, "create(1)#2"),   # this.contacts: List<Contact>
        (12, "create(1)#2"),   # Contact[]: a list
        (13, "create(1)#3"),   # an Id converts to a String only
        (14, "create(1)"),     # Account: a standard object, not known to be an SObject; not a List, nor a String
        (15, "log(1)#2"),      # 1.5 is a Decimal
        (16, "log(1)"),        # 2: an Integer fits both; the exact one
    ]


CASES = """
// --- path: classes/TestDataHelpers.cls ---
public class TestDataHelpers {
    public static List<Account> genXNumberOfAccounts(Integer n) { return null; }
    public static void reset() {}
    public static void Reset(Integer hard) {}
}
// --- path: classes/Caller.cls ---
public class Caller extends Base {
    public void go(Account acc) {
        TestDataHelpers.genXnumberOfAccounts(5);
        TestDataHelpers.RESET();
        TestDataHelpers.reset();
        acc.getsobjecttype();
        logit();
    }
}
// --- path: classes/Base.cls ---
public virtual class Base { protected void logIt() {} }
"""


def test_member_names_fold_case_when_none_is_spelled_as_called() -> None:
    check(CASES, [
        "classes/Caller.Caller.go(1) -> classes/TestDataHelpers.TestDataHelpers.genXNumberOfAccounts(1) [exact]",
        # RESET() folds to both spellings; arity 0 keeps `reset()` only; `reset()` is spelled exactly
        "classes/Caller.Caller.go(1) -> classes/TestDataHelpers.TestDataHelpers.reset(0) [exact]",
        # an inherited member, called bare, folds too
        "classes/Caller.Caller.go(1) -> classes/Base.Base.logIt(0) [inferred]",
    ])  # not: `acc.getsobjecttype()` (a method of the platform's Account)
