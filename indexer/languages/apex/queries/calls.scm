; Apex call sites: method invocations, `new` expressions and `this(...)` / `super(...)`.

(method_invocation
  object: (_)? @receiver
  name: (identifier) @name
  arguments: (argument_list) @args) @call

(object_creation_expression
  type: (_) @type
  arguments: (argument_list) @args) @new

(explicit_constructor_invocation
  constructor: [(this) (super)] @name
  arguments: (argument_list) @args) @ctor
