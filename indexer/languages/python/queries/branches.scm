; Statements whose branches may each bind a name: the value after the statement is any branch's
; (indexer/languages/python/branches.py writes the union as bindings on the statement's last line).
(if_statement) @branch.if
(try_statement) @branch.try
