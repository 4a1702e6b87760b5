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

; @<receiver>.before_request / @<receiver>.errorhandler(404) ... on a function (request hooks and
; error handlers; which names, and whether app-wide, in flask.py).
(decorated_definition
  (decorator
    [(attribute
       object: (_) @receiver
       attribute: (identifier) @hook.name)
     (call
       function: (attribute
         object: (_) @receiver
         attribute: (identifier) @hook.name))])
  definition: (function_definition name: (identifier) @handler)
  (#any-of? @hook.name
    "before_request" "after_request" "teardown_request" "teardown_appcontext" "url_value_preprocessor"
    "url_defaults" "before_app_request" "after_app_request" "teardown_app_request"
    "app_url_value_preprocessor" "app_url_defaults" "errorhandler" "app_errorhandler")) @hook

; <receiver>.before_request(fn) / .register_error_handler(404, fn) called as functions, and
; <receiver>.errorhandler(E)(fn) (the call the decorator makes; flask.py keeps only that form).
(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @hook.name)
  arguments: (argument_list) @args
  (#any-of? @hook.name
    "before_request" "after_request" "teardown_request" "teardown_appcontext" "url_value_preprocessor"
    "url_defaults" "before_app_request" "after_app_request" "teardown_app_request"
    "app_url_value_preprocessor" "app_url_defaults" "register_error_handler" "errorhandler"
    "app_errorhandler")) @hook.call

; DispatcherMiddleware(app.wsgi_app, {"/backend": backend_app}) (werkzeug): apps mounted under prefixes.
(call
  function: [(identifier) (attribute)] @dispatch.fn
  arguments: (argument_list . (_) @dispatch.parent . (dictionary) @dispatch.mounts)
  (#match? @dispatch.fn "(^|[.])DispatcherMiddleware$")) @dispatch
