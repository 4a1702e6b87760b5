; grpc-java stubs held in locals (indexer/languages/java/frameworks/grpc_java.py):
; `var stub = OrderServiceGrpc.newBlockingStub(channel)`, `stub = OrderServiceGrpc.newStub(channel)`.
; @var is the variable, @grpc the generated class, @factory the stub factory.
(local_variable_declaration
  declarator: (variable_declarator
    name: (identifier) @var
    value: (method_invocation object: (_) @grpc name: (identifier) @factory)))
(assignment_expression
  left: [(identifier) (field_access)] @var
  right: (method_invocation object: (_) @grpc name: (identifier) @factory))
