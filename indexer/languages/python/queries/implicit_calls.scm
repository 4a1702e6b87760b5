; Calls Python makes for the code written (CallSite.implicit): the extractor pairs each capture with
; its dunder method and the receiver it is called on (extractor._implicit_calls).
; with x: / with x as y:  -> x.__enter__(), x.__exit__(...)
(with_item value: (as_pattern . (_) @with.value))
(with_item value: [(identifier) (attribute) (call)] @with.value)

; for a in x / [... for a in x]  -> x.__iter__() (and __next__ when x is its own iterator)
(for_statement right: (_) @iter.value)
(for_in_clause right: (_) @iter.value)

; a + b, a < b, b in a, -a, a += b, a[k] / a[k] = v / del a[k]
(binary_operator left: (_) @binary.left right: (_)) @binary
(comparison_operator) @comparison
(unary_operator argument: (_) @unary.arg) @unary
(augmented_assignment left: (_) @augmented.left) @augmented
(subscript value: (_) @subscript.value) @subscript

; len(x), iter(x), next(x), ... -> x.__len__(), ...
(call
  function: (identifier) @builtin
  arguments: (argument_list . (_) @builtin.arg .)
  (#any-of? @builtin "len" "iter" "next" "str" "repr" "hash" "bool" "abs" "reversed" "format" "bytes"))
