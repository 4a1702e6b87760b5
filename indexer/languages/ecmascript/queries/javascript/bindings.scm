; Names bound to a type or to another name (model.Binding). @name is the bound name (an identifier,
; or `this.x` as a member expression); the capture holding the type says how it was bound:
;   @constructed  the constructor of a `new` expression
;   @alias        a name or member expression assigned without a call (calls are dropped in Python)

; const x = new Foo()
(variable_declarator name: (identifier) @name value: (new_expression constructor: (_) @constructed))

; const x = f() / const x = a.f(): what the call returns (a function's returned function or return type)
(variable_declarator
  name: (identifier) @name
  value: (call_expression function: [(identifier) (member_expression)] @constructed)
  (#not-eq? @constructed "require"))

; const x = await f() / await a.f(): what the awaited call gives (a Promise<T> return is read as T)
(variable_declarator
  name: (identifier) @name
  value: (await_expression (call_expression function: [(identifier) (member_expression)] @constructed)))

; const s = cached ?? new Service() / a || make() / c ? new A() : b: the name holds either operand,
; each operand bound as above (@either: the expression; operands.py reads it), also written in
; parentheses: const t = (c ? new A() : new B())
(variable_declarator
  name: (identifier) @name
  value: [(binary_expression operator: ["??" "||"]) (ternary_expression)
         (parenthesized_expression [(binary_expression operator: ["??" "||"]) (ternary_expression)])] @either)

; const g = f / const g = a.b
(variable_declarator name: (identifier) @name value: [(identifier) (member_expression)] @alias)

; this.x = new Foo()   (bound in the class scope)
(assignment_expression
  left: (member_expression object: (this)) @name
  right: (new_expression constructor: (_) @constructed))

; this.x = y / this.x = a.b   (a name kept in a field, a constructor's or setter's parameter: bound in the class
; scope as an alias of it, as Python's `self.x = y`; held_arguments reads a parameter so kept)
(assignment_expression
  left: (member_expression object: (this)) @name
  right: [(identifier) (member_expression)] @alias)
