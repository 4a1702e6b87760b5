; @grpc/grpc-js servers and clients (indexer/languages/ecmascript/frameworks/grpc_js.py).
; `const shop = grpc.loadPackageDefinition(def).shop.v1`: @pkg_var, @pkg_value.
(variable_declarator name: (identifier) @pkg_var value: (_) @pkg_value)
; `server.addService(shop.OrderService.service, { getOrder: ... })`: @svc, @impl.
(call_expression
  function: (member_expression property: (property_identifier) @add)
  arguments: (arguments . (_) @svc . (_) @impl)
  (#eq? @add "addService")) @add_call
; `new shop.OrderService(address, credentials)`, `new OrderServiceClient(...)`: @ctor, @args, @new.
(new_expression constructor: [(member_expression) (identifier)] @ctor arguments: (arguments) @args) @new
