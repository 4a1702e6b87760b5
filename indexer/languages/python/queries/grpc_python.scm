; grpcio servicer registrations (indexer/languages/python/frameworks/grpc_python.py):
; `order_pb2_grpc.add_OrderServiceServicer_to_server(OrderServicer(), server)`. @fn is the callee,
; @impl its first argument (the implementation).
(call
  function: [(identifier) (attribute)] @fn
  arguments: (argument_list . (_) @impl)) @call
