; A parameter of any function, a callback's too (`function (object: T) { ... }`), is a variable that
; shadows a function of the same name (indexer/languages/ecmascript/reads.py).
(required_parameter pattern: (identifier) @param)
(optional_parameter pattern: (identifier) @param)
