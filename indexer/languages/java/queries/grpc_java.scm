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
; An anonymous server: `new OrderServiceGrpc.OrderServiceImplBase() { public void getOrder(...) {...} }`.
; @anon_type is the base, @anon_method each method it declares.
(object_creation_expression
  type: (_) @anon_type
  (class_body (method_declaration name: (identifier) @anon_method))) @anon
