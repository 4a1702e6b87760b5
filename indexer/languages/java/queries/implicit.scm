; Calls the Java compiler writes into the code (indexer/languages/java/implicit.py).

; try-with-resources (JLS 14.20.3): `try (Res r = open())` closes `r`, `try (this.res)` that field
(resource name: (identifier) @resource)
(resource . [(identifier) (field_access)] @resource .)

; the enhanced `for` (JLS 14.14.2): `for (T x : bag)` runs bag.iterator(), then hasNext() / next()
(enhanced_for_statement value: (_) @iterable)

; string concatenation (JLS 15.18.1): an operand that is no String is converted (JLS 5.1.11)
(binary_expression operator: "+") @concat
