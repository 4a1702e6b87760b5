; Python names bound by iteration and by unpacking, typed by what the extractor can read locally:
; `for x in items` / `[... for x in items]` (the element type of `items`' annotation: a parameter,
; an annotated local, a class-body annotation read as `self.items`; `d.items()` / `.values()` /
; `.keys()` of a mapping), and `a, b = A(), B()` (each name bound to the value at its position,
; nested and starred patterns included), and `a, b = f()` (each name an item of the value: `f()[0]`,
; `f()[1]`, which the resolver reads from an annotated tuple). The pairing is done in Python
; (implied.ImpliedFacts.unpacking).
(for_statement
  left: (_) @for.target
  right: (_) @for.iter) @for

(for_in_clause
  left: (_) @for.target
  right: (_) @for.iter) @for

(assignment
  left: [(pattern_list) (tuple_pattern) (list_pattern)] @unpack.target
  right: [(expression_list) (tuple) (list)] @unpack.value) @unpack

(assignment
  left: [(pattern_list) (tuple_pattern)] @unpack.target
  right: [(call) (identifier) (attribute) (subscript)] @unpack.from) @unpack

; `a, b = c, d = f, g`: a chained assignment; the pattern takes the value the last `=` assigns
; (implied.ImpliedFacts.unpacking walks down the chain).
(assignment
  left: [(pattern_list) (tuple_pattern) (list_pattern)] @unpack.target
  right: (assignment) @unpack.chain) @unpack
