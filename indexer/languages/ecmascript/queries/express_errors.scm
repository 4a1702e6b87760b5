; Express error handlers a factory returns (indexer/languages/ecmascript/frameworks/express_errors.py):
; `return (err, req, res, next) => ...`, `return function (err, req, res, next) {...}`, and an arrow's
; expression body `() => (err, req, res, next) => ...`. The four parameters are checked in Python.
(return_statement [(arrow_function) (function_expression) (parenthesized_expression)] @fn)
(arrow_function body: [(arrow_function) (function_expression) (parenthesized_expression)] @fn)
