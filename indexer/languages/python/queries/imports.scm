; Python imports, anywhere in the file; one match per bound name.

; import a.b.c  -> binds `a` (the first component of the dotted name)
(import_statement
  name: (dotted_name . (identifier) @module))

; import a.b as c
(import_statement
  name: (aliased_import
    name: (dotted_name) @module
    alias: (identifier) @local))

; from x.y import f / from ..pkg import f / from . import mod
(import_from_statement
  module_name: [
    (dotted_name) @from
    (relative_import (import_prefix) @prefix (dotted_name)? @from)
  ]
  name: (dotted_name) @name)

; from x.y import f as g
(import_from_statement
  module_name: [
    (dotted_name) @from
    (relative_import (import_prefix) @prefix (dotted_name)? @from)
  ]
  name: (aliased_import
    name: (dotted_name) @name
    alias: (identifier) @local))

; from x import *
(import_from_statement
  module_name: [
    (dotted_name) @from
    (relative_import (import_prefix) @prefix (dotted_name)? @from)
  ]
  (wildcard_import) @star)

; mod = importlib.import_module("a.b") / import_module("a.b") -> binds `mod` to module a.b;
; mod = __import__("a.b") -> binds `mod` to `a` (what __import__ returns). A literal name only.
(assignment
  left: (identifier) @dynamic.local
  right: (call
    function: [(identifier) (attribute)] @dynamic.function
    arguments: (argument_list . (string) @dynamic.module))
  (#match? @dynamic.function "^(importlib[.])?(import_module|__import__)$"))
