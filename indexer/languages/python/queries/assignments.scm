; Python assignments that bind a name or a `self.<attr>` / `cls.<attr>` (in a classmethod): the source of bindings, class fields
; (`x = 1`, `x: int = 0`, `x: int` in a class body; `self.x = ...` in a method) and annotation type
; uses. Whether a target is a field depends on the enclosing definition, computed in Python.
; Tuple targets (`a, b = ...`) are not matched; in a chain `x = y = Foo()` each name is matched.

(assignment
  left: (identifier) @target
  type: (type)? @type
  right: (_)? @value) @assign

(assignment
  left: (attribute
    object: (identifier) @self
    attribute: (identifier) @attr) @target
  type: (type)? @type
  right: (_)? @value
  (#any-of? @self "self" "cls")) @assign

; with X(...) as y / async with X(...) as y: `y` is bound to what `X.__enter__` returns when the repository
; defines it, else to what the call builds (the instance, as most context managers return). Only a call of a plain
; or dotted name binds; `with f() as (a, b)` and `with lock:` bind nothing.
(with_item
  value: (as_pattern
    (call function: [(identifier) (attribute)] @with.callee)
    alias: (as_pattern_target (identifier) @with.target))) @with
