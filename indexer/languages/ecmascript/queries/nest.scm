; NestJS (indexer/frameworks/nest.py): class decorators @Controller(...) and method decorators
; @Get / @Post / @Put / @Delete / @Patch / @Options / @Head / @All(...). @decorator is the decorator
; node (TypeScript puts a member's decorators before it in the class body, JavaScript inside it;
; Python finds the decorated class or method), @name the called name, @args its arguments.
(decorator
  (call_expression
    function: [(identifier) (member_expression)] @name
    arguments: (arguments) @args)
  (#match? @name "(^|\\.)(Controller|Get|Post|Put|Delete|Patch|Options|Head|All)$")) @decorator
