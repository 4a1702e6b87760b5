; The statements that may narrow a name's type (indexer/languages/python/narrowing.py reads their
; tests): an `if`, an `assert`, a `match`. Found in the extractor's shared walk, not by a walk in Python.
(if_statement) @narrowing.stmt
(assert_statement) @narrowing.stmt
(match_statement) @narrowing.stmt
