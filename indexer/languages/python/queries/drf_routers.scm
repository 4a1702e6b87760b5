; Django REST framework routers: module-level router objects and their register() calls. Scope and
; callee names are checked in Python.

; router = DefaultRouter(trailing_slash=False) / routers.SimpleRouter() / NestedSimpleRouter(router, "a", lookup="a")
(assignment
  left: (identifier) @name
  right: (call
    function: [(identifier) (attribute)] @callee
    arguments: (argument_list) @args)) @router

; router.register(r"articles", ArticleViewSet, basename="article")
(call
  function: (attribute
    object: (identifier) @name
    attribute: (identifier) @method)
  arguments: (argument_list) @args
  (#eq? @method "register")) @register
