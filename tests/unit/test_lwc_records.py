"""Lightning Web Components reading records through ``lightning/uiRecordApi`` wires: the sObjects and
fields each component reads, and the look-alikes that read nothing."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import resolve_fixture


def _reads(path: str, source: str) -> list[tuple[str, str, str | None, list[str], str | None, int]]:
    ex = extractor_for_path(path).extract(path, source.encode())
    assert ex.errors == [], ex.errors
    return [(t.framework, t.role, t.table, t.columns, t.owner, t.line) for t in ex.table_uses]


COMPONENT = """import { LightningElement, api, wire } from 'lwc';
import { getRecord, getRecords } from 'lightning/uiRecordApi';
import NAME_FIELD from '@salesforce/schema/Contact.Name';
import TITLE_FIELD from '@salesforce/schema/Contact.Title';
import ACCOUNT_NAME from '@salesforce/schema/Contact.Account.Name';
import ACCOUNT_OBJECT from '@salesforce/schema/Account';
import getContacts from '@salesforce/apex/ContactController.getContacts';

const fields = [NAME_FIELD, TITLE_FIELD, ACCOUNT_NAME];

export default class ContactCard extends LightningElement {
    @api recordId;
    @wire(getRecord, { recordId: '$recordId', fields }) contact;
    @wire(getRecord, { recordId: '$recordId', fields: ['Account.Name', 'Account.Industry'], optionalFields: [ACCOUNT_OBJECT] })
    account;
    @wire(getRecords, { records: [{ recordIds: ['001'], fields: [TITLE_FIELD] }] }) many;
    @wire(getRecords, { records: '$records' }) dynamic;
    @wire(getContacts, { fields }) apexList;
}
"""


def test_get_record_wires_read_the_objects_of_their_fields() -> None:
    assert _reads("lwc/contactCard/contactCard.js", COMPONENT) == [
        # the shorthand `fields`: the module's const; Contact.Account.Name names Contact, no column of it
        ("lwc", "reads", "Contact", ["Name", "Title"], "ContactCard", 13),
        # strings `Object.Field`; ACCOUNT_OBJECT names no field
        ("lwc", "reads", "Account", ["Name", "Industry"], "ContactCard", 14),
        ("lwc", "reads", "Contact", ["Title"], "ContactCard", 16),
    ]  # not: getRecords with a reactive '$records', an Apex method's wire given `fields`


def test_adapters_not_from_ui_record_api_read_nothing() -> None:
    source = """import { LightningElement, wire } from 'lwc';
import { getRecord } from './myAdapters';
import NAME_FIELD from '@salesforce/schema/Contact.Name';
export default class Other extends LightningElement {
    @wire(getRecord, { recordId: '$recordId', fields: [NAME_FIELD] }) contact;
}
"""
    assert _reads("lwc/other/other.js", source) == []


def test_component_reads_share_the_table_of_the_apex_reads() -> None:
    result = resolve_fixture("""
// --- path: classes/ContactController.cls ---
public with sharing class ContactController {
    @AuraEnabled(cacheable=true)
    public static List<Contact> getContacts() { return [SELECT Id, Name FROM Contact]; }
}
// --- path: lwc/contactCard/contactCard.js ---
import { LightningElement, wire } from 'lwc';
import { getRecord } from 'lightning/uiRecordApi';
import NAME_FIELD from '@salesforce/schema/Contact.Name';
export default class ContactCard extends LightningElement {
    @wire(getRecord, { recordId: '$recordId', fields: [NAME_FIELD] }) contact;
}
""")
    reads = sorted((e.src.rsplit(":", 1)[-1], e.dst) for f in result.files for e in f.edges if e.kind == "READS")
    assert reads == [
        ("classes/ContactController.ContactController.getContacts(0)", "table:t:.contact"),
        ("lwc/contactCard/contactCard.ContactCard", "table:t:.contact"),
    ]


WRITER = """import { LightningElement, api } from 'lwc';
import { createRecord, updateRecord, deleteRecord } from 'lightning/uiRecordApi';
import { createRecord as other } from './local';
import ACCOUNT_OBJECT from '@salesforce/schema/Account';
import NAME_FIELD from '@salesforce/schema/Account.Name';
import ID_FIELD from '@salesforce/schema/Contact.Id';
import FIRST_FIELD from '@salesforce/schema/Contact.FirstName';

export default class Editor extends LightningElement {
    @api recordId;
    async create() {
        const fields = {};
        fields[NAME_FIELD.fieldApiName] = this.name;
        const recordInput = { apiName: ACCOUNT_OBJECT.objectApiName, fields };
        return createRecord(recordInput);
    }
    async save() {
        const fields = {};
        fields[ID_FIELD.fieldApiName] = this.recordId;
        fields[FIRST_FIELD.fieldApiName] = 'x';
        await updateRecord({ fields });
    }
    async handed(recordInput) {
        return updateRecord(recordInput);
    }
    async remove() {
        return deleteRecord(this.recordId);
    }
    async notMine() {
        return other({ apiName: ACCOUNT_OBJECT.objectApiName });
    }
}
"""


def test_create_and_update_record_write_the_object_their_input_names() -> None:
    # acc62: the schema object (objectApiName) or the fields' object (fieldApiName) the calling function
    # names. Not: an input handed in (handed), deleteRecord (an id names no object), a createRecord that
    # is not uiRecordApi's (notMine)
    assert _reads("lwc/editor/editor.js", WRITER) == [
        ("lwc", "writes", "Account", ["Name"], "Editor.create", 15),
        ("lwc", "writes", "Contact", ["Id", "FirstName"], "Editor.save", 21),
    ]
