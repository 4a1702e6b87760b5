; What a constructor function's instances inherit (prototypes.py). @owner is the constructor's name.
;   @member  `X.prototype.m = foo` / `= a.b`: the instance member `m` is that function (@value)
;   @object  `X.prototype = { m: foo, n }`: its name-valued properties are instance members (the
;            function-valued ones are methods: definitions.scm)
;   @parent  `X.prototype = Object.create(P.prototype)`, `Object.setPrototypeOf(X.prototype,
;            P.prototype)`, `util.inherits(X, P)`: X's instances inherit P's members (P a name or a
;            dotted name: `util.inherits(X, base.P)`, `Object.create(require('./a').P.prototype)`
;            is no name)

(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @owner property: (property_identifier) @_p)
    property: (property_identifier) @member)
  right: [(identifier) (member_expression)] @value
  (#eq? @_p "prototype"))

(assignment_expression
  left: (member_expression object: (identifier) @owner property: (property_identifier) @_p)
  right: (object) @object
  (#eq? @_p "prototype"))

(assignment_expression
  left: (member_expression object: (identifier) @owner property: (property_identifier) @_p)
  right: (call_expression
    function: (member_expression object: (identifier) @_object property: (property_identifier) @_create)
    arguments: (arguments .
      (member_expression object: [(identifier) (member_expression)] @parent property: (property_identifier) @_p2)))
  (#eq? @_p "prototype")
  (#eq? @_p2 "prototype")
  (#eq? @_object "Object")
  (#eq? @_create "create"))

(call_expression
  function: (member_expression object: (identifier) @_object property: (property_identifier) @_set)
  arguments: (arguments .
    (member_expression object: (identifier) @owner property: (property_identifier) @_p) .
    (member_expression object: [(identifier) (member_expression)] @parent property: (property_identifier) @_p2))
  (#eq? @_p "prototype")
  (#eq? @_p2 "prototype")
  (#eq? @_object "Object")
  (#eq? @_set "setPrototypeOf"))

(call_expression
  function: [(identifier) @_inherits (member_expression property: (property_identifier) @_inherits)]
  arguments: (arguments . (identifier) @owner . [(identifier) (member_expression)] @parent .)
  (#eq? @_inherits "inherits"))
