; A parameter of any function, a callback's too (`function (object) { ... }`), is a variable that
; shadows a function of the same name (indexer/languages/ecmascript/reads.py).
(formal_parameters (identifier) @param)
(formal_parameters (assignment_pattern left: (identifier) @param))
