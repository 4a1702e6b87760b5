"""ASP.NET minimal APIs mapped through an application's own extension methods (``group.MapPut(Handler,
"{id}")``: a handler first, the pattern after it or left out) on a ``RouteGroupBuilder`` handed to an
endpoint-group class's method (grouped at run time, by reflection): routes ``/{}/<class>/<pattern>``,
and what keeps its old reading or is no route."""

from __future__ import annotations

from tests.unit.test_frameworks_csharp import extract, routes

GROUPS = '''namespace Shop.Web.Endpoints;

public class TodoItems : IEndpointGroup
{
    public static void Map(RouteGroupBuilder groupBuilder)
    {
        groupBuilder.RequireAuthorization();
        groupBuilder.MapPost(CreateTodoItem);
        groupBuilder.MapPut(UpdateTodoItem, "{id:int}");
        groupBuilder.MapPatch(UpdateDetail, "UpdateDetail/{id}");
        groupBuilder.MapGet("/all", ListAll);
        groupBuilder.MapDelete(DeleteTodoItem, Routes.Id);
    }

    public static void Other(IEndpointRouteBuilder app, RouteGroupBuilder group)
    {
        app.MapGet(Health);
        var api = app.MapGroup("/api/v2");
        api.MapGet(Version, "version");
    }

    public static Task CreateTodoItem(ISender sender) => null;
    public static Task UpdateTodoItem(ISender sender, int id) => null;
    public static Task UpdateDetail(ISender sender, int id) => null;
    public static Task ListAll() => null;
    public static Task DeleteTodoItem(int id) => null;
    public static Task Health() => null;
    public static Task Version() => null;
}
'''


def test_routes_of_an_endpoint_group_class_and_of_handler_first_extensions() -> None:
    assert routes(extract(GROUPS)) == [
        ("aspnet", ["POST"], "/{groupBuilder}/TodoItems", None, "CreateTodoItem"),
        ("aspnet", ["PUT"], "/{groupBuilder}/TodoItems/{id}", None, "UpdateTodoItem"),
        ("aspnet", ["PATCH"], "/{groupBuilder}/TodoItems/UpdateDetail/{id}", None, "UpdateDetail"),
        ("aspnet", ["GET"], "/{groupBuilder}/TodoItems/all", None, "ListAll"),
        ("aspnet", ["GET"], "/", None, "Health"),
        ("aspnet", ["GET"], "/api/v2/version", None, "Version"),
    ]  # MapDelete(DeleteTodoItem, Routes.Id): a handler then a name, no shape known (not a route);
    # RequireAuthorization: no route; Health on an IEndpointRouteBuilder: no group, the pattern left out


EXTENSIONS = '''namespace Shop.Web;

public static class TodoEndpoints
{
    public static RouteGroupBuilder MapTodos(this RouteGroupBuilder group)
    {
        group.MapGet("/", GetAll);
        group.MapPost(Create, "drafts");
        return group;
    }

    public static void Plain(RouteGroupBuilder orders)
    {
        orders.MapGet("/{id}", GetAll);
    }

    public static Task GetAll() => null;
    public static Task Create() => null;
}
'''


def test_a_group_extension_or_a_class_of_no_base_keeps_the_head_unknown_and_names_no_class() -> None:
    """``app.MapGroup("/todos").MapTodos()`` names the prefix at the call: an extension method's ``this``
    group and a group parameter of a class with no base type or interface (no group found by
    reflection) are an unknown head only, never ``/TodoEndpoints``."""
    assert routes(extract(EXTENSIONS)) == [
        ("aspnet", ["GET"], "/{group}", None, "GetAll"),
        ("aspnet", ["POST"], "/{group}/drafts", None, "Create"),
        ("aspnet", ["GET"], "/{orders}/{id}", None, "GetAll"),
    ]
