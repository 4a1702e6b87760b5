; Protocol Buffers (indexer/languages/proto/extractor.py): the package, the java_package option,
; services with their rpcs, and top-level messages. @svc is a service, @svc_name its name, @rpc one of
; its rpcs and @rpc_name that rpc's name; @pkg the package's dotted name; @opt / @opt_value an option.
(package (full_ident) @pkg)
(option (identifier) @opt (constant (string) @opt_value))
(service (service_name (identifier) @svc_name)) @svc
(rpc (rpc_name (identifier) @rpc_name)) @rpc
(source_file (message (message_name (identifier) @msg_name)) @msg)
