; Program entry points (indexer/languages/python/frameworks/python_cli.py).
; `if __name__ == "__main__":` at module level
(module (if_statement condition: (comparison_operator) @cond) @main)
; argparse `parser.set_defaults(func=handler)`
(call
  function: (attribute attribute: (identifier) @method)
  arguments: (argument_list (keyword_argument name: (identifier) @key value: (_) @handler))
  (#eq? @method "set_defaults")
  (#eq? @key "func")) @call
