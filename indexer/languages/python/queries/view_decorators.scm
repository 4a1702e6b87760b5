; Decorated functions and classes: where the decorators of a route's handler are read (which
; definitions handle a route, and which decorators wrap it, is decided in Python).
(decorated_definition
  definition: [(function_definition name: (identifier) @name)
               (class_definition name: (identifier) @name)]) @decorated
