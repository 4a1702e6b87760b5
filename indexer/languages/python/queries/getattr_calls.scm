; `getattr(obj, NAME)` with NAME built from literal parts: what indexer/languages/python/getattr_calls.py
; reads as a call of obj's methods whose names match those parts.
(call
  function: (identifier) @ga.fn
  arguments: (argument_list . (_) @ga.obj . (_) @ga.name)
  (#eq? @ga.fn "getattr")) @ga
