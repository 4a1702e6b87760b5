; Python return statements with a value, and yields: the source of `Definition.inferred_return`.
; The extractor groups them by the innermost enclosing definition (computed in Python from the body
; ranges, as for calls), so a return in a nested function counts for that function only. A function
; holding a `yield` is a generator: calling it never returns what its `return` statements name.
(return_statement (_) @return.value) @return

(yield) @yield
