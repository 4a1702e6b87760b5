; Assignments to a name (both dialects): bound as the declaration `let x = ...` would be, when the
; function the assignment is written in declares the name (assignments.py decides; the captures
; mean what they mean in <dialect>/bindings.scm).

; x = new Foo()
(assignment_expression left: (identifier) @name right: (new_expression constructor: (_) @constructed))

; x = f() / x = a.f()
(assignment_expression
  left: (identifier) @name
  right: (call_expression function: [(identifier) (member_expression)] @constructed)
  (#not-eq? @constructed "require"))

; x = await f()
(assignment_expression
  left: (identifier) @name
  right: (await_expression (call_expression function: [(identifier) (member_expression)] @constructed)))

; x = cached ?? new Service() / a || make() / c ? new A() : b
(assignment_expression
  left: (identifier) @name
  right: [(binary_expression operator: ["??" "||"]) (ternary_expression)
          (parenthesized_expression [(binary_expression operator: ["??" "||"]) (ternary_expression)])] @either)

; x = f / x = a.b
(assignment_expression left: (identifier) @name right: [(identifier) (member_expression)] @alias)
