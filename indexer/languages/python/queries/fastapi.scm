; FastAPI: route decorators, router / app construction and the calls that add routes or mount
; routers. Whether a receiver is a FastAPI app or router is decided in Python (bindings, imports).

; @<receiver>.get("/x") ... / @<receiver>.api_route("/x", methods=[...]) on a function.
(decorated_definition
  (decorator
    (call
      function: (attribute
        object: (_) @receiver
        attribute: (identifier) @verb)
      arguments: (_) @args))
  definition: (function_definition name: (identifier) @handler)
  (#any-of? @verb "get" "post" "put" "delete" "patch" "head" "options" "trace" "api_route")) @route

; NAME = FastAPI(...) / APIRouter(...) / fastapi.APIRouter(...), and NAME = Other(...): a router when
; Other is a class of the repository deriving from one (decided in Python and by the linker)
(assignment
  left: (identifier) @router.name
  right: (call
    function: [(identifier) (attribute)] @router.callee
    arguments: (_) @args)) @router

; <receiver>.include_router(child, prefix=...) / .add_api_route(path, fn) / .mount(path, sub_app)
(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @call.name)
  arguments: (_) @args
  (#any-of? @call.name "include_router" "add_api_route" "mount" "add_middleware" "add_exception_handler")) @call

; @<receiver>.middleware("http") / @<receiver>.exception_handler(Exc) on a function.
(decorated_definition
  (decorator
    (call
      function: (attribute
        object: (_) @receiver
        attribute: (identifier) @hook.name)
      arguments: (_) @args))
  definition: (function_definition name: (identifier) @handler)
  (#any-of? @hook.name "middleware" "exception_handler")) @hook

; Every function with parameters: where ``Depends(...)`` / ``Security(...)`` parameters are read.
(function_definition
  name: (identifier) @function.name
  parameters: (parameters) @params) @function

; NAME = Annotated[T, Depends(f)] at any level (module-level ones are dependency aliases).
(assignment
  left: (identifier) @alias.name
  right: (subscript) @alias.value) @alias

; super().__init__(..., dependencies=[...]) in a method: a router class's own dependencies when the
; method is the __init__ of a class of the file (decided in Python).
(call
  function: (attribute
    object: (call function: (identifier) @super.callee)
    attribute: (identifier) @super.name)
  arguments: (argument_list) @args
  (#eq? @super.callee "super")
  (#eq? @super.name "__init__")) @super
