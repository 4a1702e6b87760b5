"""The "Tables" section of a blast radius follows messages too (session 67, r67e; :func:`analysis.tables.tables_reached`):
a MediatR request sent by the target is handled by a handler whose repository reads a table, so the table is
reached, one hop past the sender; a handler of a message the target does not send adds nothing."""

from __future__ import annotations

from analysis.impact import SymbolQuery, blast_radius
from tests.golden.harness import index_files

APP = {
    "src/Data/ShopContext.cs": '''
using Microsoft.EntityFrameworkCore;
using Shop.Entities;

namespace Shop.Data;

public class ShopContext : DbContext
{
    public DbSet<Order> Orders { get; set; }
    public DbSet<Basket> Baskets { get; set; }
}
''',
    "src/Entities/Entities.cs": '''
namespace Shop.Entities;

public class Order { public int Id { get; set; } }
public class Basket { public int Id { get; set; } }
''',
    "src/Features/GetMyOrders.cs": '''
using MediatR;
using Shop.Entities;
using Shop.Interfaces;

namespace Shop.Features;

public class GetMyOrders : IRequest<List<Order>>
{
    public string UserName { get; set; }
}

public class GetMyOrdersHandler : IRequestHandler<GetMyOrders, List<Order>>
{
    private readonly IReadRepository<Order> _orderRepository;

    public async Task<List<Order>> Handle(GetMyOrders request, CancellationToken cancellationToken)
    {
        return await _orderRepository.ListAsync(request.UserName);
    }
}

public class EmptyBasket : IRequest<bool> { }

public class EmptyBasketHandler : IRequestHandler<EmptyBasket, bool>
{
    private readonly IRepository<Basket> _basketRepository;

    public async Task<bool> Handle(EmptyBasket request, CancellationToken cancellationToken)
    {
        await _basketRepository.DeleteAsync(null);
        return true;
    }
}
''',
    "src/Controllers/OrderController.cs": '''
using MediatR;
using Shop.Features;

namespace Shop.Controllers;

public class OrderController
{
    private readonly IMediator _mediator;

    public async Task<object> MyOrders(string name)
    {
        return await _mediator.Send(new GetMyOrders { UserName = name });
    }
}
''',
}


def test_a_table_read_by_the_handler_of_a_request_the_target_sends(tmp_path) -> None:
    store = index_files(tmp_path, APP, "app")
    try:
        report = blast_radius(store, SymbolQuery("OrderController.MyOrders"))
        got = [(h.table.name, h.role, h.via.qualname, h.hops) for h in report.tables]
    finally:
        store.close()
    # Baskets, written by the handler of EmptyBasket (never sent here), is not reached
    assert got == [("Orders", "R", "GetMyOrdersHandler.Handle", 1)]
