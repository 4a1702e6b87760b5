; Strawberry fields declared with a resolver function (indexer/languages/python/frameworks/strawberry.py):
; `owner: Owner = strawberry.field(resolver=get_owner)` in a class body. @name the field, @fn the
; callee (strawberry.field / mutation / subscription, checked in Python), @args its arguments.
(class_definition
  body: (block
    [(expression_statement
       (assignment
         left: (identifier) @name
         right: (call function: [(identifier) (attribute)] @fn arguments: (argument_list) @args)))
     (assignment
       left: (identifier) @name
       right: (call function: [(identifier) (attribute)] @fn arguments: (argument_list) @args))]))
