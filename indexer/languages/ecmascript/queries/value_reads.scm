; Member reads that are no call (indexer/languages/ecmascript/reads.py): `r.text` may run a
; `get text()` accessor. Which ones are called, assigned, updated or deleted is decided in Python.
(member_expression
  object: (_) @receiver
  property: (property_identifier) @name) @read
