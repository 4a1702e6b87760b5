; NestJS GraphQL / TypeGraphQL resolvers (indexer/languages/ecmascript/frameworks/nest_graphql.py):
; @Resolver(...) on a class, @Query / @Mutation / @Subscription / @ResolveField / @FieldResolver on
; its methods. @decorator is the decorator, @name the called name, @args its arguments.
(decorator
  (call_expression
    function: [(identifier) (member_expression)] @name
    arguments: (arguments) @args)
  (#match? @name "(^|\\.)(Resolver|Query|Mutation|Subscription|ResolveField|FieldResolver)$")) @decorator
