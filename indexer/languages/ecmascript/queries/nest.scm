; NestJS (indexer/frameworks/nest.py): class decorators @Controller(...) and method decorators @Version(...),
; @Get / @Post / @Put / @Delete / @Patch / @Options / @Head / @All(...). @decorator is the decorator
; node (TypeScript puts a member's decorators before it in the class body, JavaScript inside it;
; Python finds the decorated class or method), @name the called name, @args its arguments.
(decorator
  (call_expression
    function: [(identifier) (member_expression)] @name
    arguments: (arguments) @args)
  (#match? @name "(^|\\.)(Controller|JsonController|Get|Post|Put|Delete|Patch|Options|Head|All|Version)$")) @decorator

; Cross-cutting code (issue 14): @UseGuards / @UseInterceptors / @UsePipes / @UseFilters(...) on a
; controller class or a handler method share the captures above (nest.py tells them apart by name).
(decorator
  (call_expression
    function: [(identifier) (member_expression)] @name
    arguments: (arguments) @args)
  (#match? @name "(^|\\.)(UseGuards|UseInterceptors|UsePipes|UseFilters)$")) @decorator

; An application's own decorator on a controller class or a handler (@Auth([RoleType.USER]), @AdminOnly): the
; linker expands it into the Use* wrappers its function composes with applyDecorators (nest.py).
(decorator
  [(call_expression function: (identifier) @composed_name arguments: (arguments))
   (identifier) @composed_name]) @composed

; app.useGlobalGuards(new AuthGuard()) / useGlobalInterceptors / useGlobalPipes / useGlobalFilters.
(call_expression
  function: (member_expression property: (property_identifier) @global)
  arguments: (arguments) @args
  (#match? @global "^useGlobal(Guards|Interceptors|Pipes|Filters)$")) @call

; { provide: APP_GUARD, useClass: RolesGuard } (APP_INTERCEPTOR, APP_PIPE, APP_FILTER).
(object
  (pair
    key: (property_identifier) @_provide
    value: [(identifier) (member_expression)] @token)
  (#eq? @_provide "provide")
  (#match? @token "(^|\\.)APP_(GUARD|INTERCEPTOR|PIPE|FILTER)$")) @provider

; consumer.apply(LoggerMiddleware).forRoutes("cats") (an .exclude(...) link may sit between).
(call_expression
  function: (member_expression
    object: (call_expression) @chain
    property: (property_identifier) @_for)
  arguments: (arguments) @routes
  (#eq? @_for "forRoutes")) @call

; app.setGlobalPrefix("api", { exclude: [...] }): a prefix before every route of the application.
(call_expression
  function: (member_expression property: (property_identifier) @_prefix)
  arguments: (arguments) @prefix_args
  (#eq? @_prefix "setGlobalPrefix")) @prefix_call

; routing-controllers: createExpressServer({ routePrefix: "/api", controllers }) (useExpressServer(app, {...}),
; createKoaServer, useKoaServer): the prefix before every controller route, as setGlobalPrefix's.
(call_expression
  function: [(identifier) @_server (member_expression property: (_) @_server)]
  arguments: (arguments) @server_args
  (#match? @_server "^(create|use)(Express|Koa)Server$")) @server_call

; app.enableVersioning({ type: VersioningType.URI, prefix: "v", defaultVersion: "1" }).
(call_expression
  function: (member_expression property: (property_identifier) @_versioning)
  arguments: (arguments) @versioning_args
  (#eq? @_versioning "enableVersioning")) @versioning_call

; registerAs("app", () => ({ apiPrefix: "api" })) (@nestjs/config): values under configuration keys.
(call_expression
  function: (identifier) @_register
  arguments: (arguments . [(string) (template_string)] @config_ns . [(arrow_function) (function_expression)] @config_fn)
  (#eq? @_register "registerAs")) @config_call
