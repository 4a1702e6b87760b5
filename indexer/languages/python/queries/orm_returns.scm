; The return statements under one function (orm_results' `returns_of`, run over that function's
; node, not the file) and the definitions nested in it, whose returns are their own: a return counts
; for the function when no nested definition (other than the function itself) spans it.
(return_statement) @return

[(function_definition) (class_definition) (lambda)] @nested
