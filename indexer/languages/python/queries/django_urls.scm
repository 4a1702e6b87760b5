; Django URL configuration: statements that fill a module's pattern lists. The extractor keeps the
; module-level ones (scope computed in Python) and walks their values, since a pattern's prefix comes
; from the include() chain around it, which a query cannot accumulate.

; NAME = [...] / NAME = i18n_patterns(...) / NAME: list = [...]
(assignment
  left: (identifier) @name
  right: (_) @value) @assign

; NAME += [...]
(augmented_assignment
  left: (identifier) @name
  operator: "+="
  right: (_) @value) @assign

; NAME.append(path(...)) / NAME.extend([...])
(call
  function: (attribute
    object: (identifier) @name
    attribute: (identifier) @method)
  arguments: (argument_list . (_) @value .)
  (#any-of? @method "append" "extend")) @assign
