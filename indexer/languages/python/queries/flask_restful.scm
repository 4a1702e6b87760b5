; Flask-RESTful / Flask-RESTX: resources (classes whose get / post / ... methods handle a path), the
; Api and Namespace objects they hang on, and how those attach to an app or blueprint. Which receivers
; are such objects is decided in Python (bindings, imports).

; NAME = Api(app, prefix="/v1") / Namespace("todos", path="/todos") / api.namespace("todos")
(assignment
  left: (identifier) @holder.name
  right: (call
    function: [(identifier) (attribute)] @holder.callee
    arguments: (argument_list) @args)
  (#match? @holder.callee "(^|[.])(Api|Namespace|namespace)$")) @holder

; <api>.add_resource(Resource, "/a", "/b") / <api>.add_namespace(ns, path="/x") / <api>.init_app(app)
(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @call.name)
  arguments: (argument_list) @args
  (#any-of? @call.name "add_resource" "add_namespace" "init_app")) @call

; @<api or ns>.route("/a", "/b") on a class (a Flask route decorates a function, flask.scm).
(decorated_definition
  (decorator
    (call
      function: (attribute
        object: (_) @receiver
        attribute: (identifier) @verb)
      arguments: (argument_list) @args))
  definition: (class_definition name: (identifier) @resource)
  (#eq? @verb "route")) @route
