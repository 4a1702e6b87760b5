; Starlette (indexer/languages/python/frameworks/starlette.py): NAME = Starlette(routes=...) /
; Router(routes=...) at module level, and module-level route lists (NAME = [...]) a routes= argument
; may name. The Route / Mount entries inside are read in Python (lists nest through Mount(routes=...)).
(module
  (assignment
    left: (identifier) @app.name
    right: (call
      function: [(identifier) (attribute)] @app.callee
      arguments: (argument_list) @app.args))
  (#match? @app.callee "(^|[.])(Starlette|Router)$"))

(module
  (assignment
    left: (identifier) @list.name
    right: (list) @list))
