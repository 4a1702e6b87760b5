; Names and attributes read without being called (indexer/languages/python/reads.py).
; Every attribute read: which ones are called, assigned or deleted is decided in Python (a call's
; callee, an assignment's left side), the receiver text by the extractor's receiver_text. Its object
; and name are read from the node only for the reads kept (most attributes are a call's callee): fewer
; captures, fewer objects per match.
(attribute
  object: (_)
  attribute: (identifier)) @read

; A bare name handed on as a value: an argument, a default, the right side of an assignment, an
; element of a list, tuple, set or dict, a returned value (`sorted(xs, key=by_name)`,
; `handlers = [on_start, on_stop]`, `return wrapper`).
(argument_list (identifier) @value)
(keyword_argument value: (identifier) @value)
(default_parameter value: (identifier) @value)
(typed_default_parameter value: (identifier) @value)
(assignment right: (identifier) @value)
(list (identifier) @value)
(tuple (identifier) @value)
(set (identifier) @value)
(pair value: (identifier) @value)
(return_statement (identifier) @value)
(return_statement (expression_list (identifier) @value))
