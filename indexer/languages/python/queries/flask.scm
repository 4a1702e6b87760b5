; Flask: route decorators, app / blueprint construction and the calls that add rules or register
; blueprints. Whether a receiver is a Flask app or blueprint is decided in Python (bindings, imports).

; @<receiver>.route("/x", methods=[...]) / @<receiver>.get("/x") (Flask 2) on a function.
(decorated_definition
  (decorator
    (call
      function: (attribute
        object: (_) @receiver
        attribute: (identifier) @verb)
      arguments: (_) @args))
  definition: (function_definition name: (identifier) @handler)
  (#any-of? @verb "route" "get" "post" "put" "delete" "patch")) @route

; NAME = Flask(__name__) / Blueprint("name", __name__, url_prefix="/x")
(assignment
  left: (identifier) @router.name
  right: (call
    function: [(identifier) (attribute)] @router.callee
    arguments: (_) @args)
  (#match? @router.callee "(^|[.])(Flask|Blueprint)$")) @router

; <receiver>.register_blueprint(bp, url_prefix=...) / .add_url_rule("/x", view_func=f)
(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @call.name)
  arguments: (_) @args
  (#any-of? @call.name "register_blueprint" "add_url_rule")) @call
