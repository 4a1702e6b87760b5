; Salesforce data access: SOQL queries (inline `[SELECT ...]`) and DML statements (`insert x;`).
; @from: the sObject a query reads; @fields: its select clause; @dml: a DML statement, @op its
; operation, @target what it writes.

(soql_query_body
  select_clause: (select_clause) @fields
  from_clause: (from_clause (storage_identifier) @from)) @soql

(dml_expression (dml_type) @op target: (_) @target) @dml
