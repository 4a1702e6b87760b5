"""A call through a C# generic repository of an entity reads or writes the entity's table (session 67, r67e;
:func:`indexer.languages.csharp.frameworks.efcore.detect`): eShopOnWeb's ``IRepository<Order> _orderRepository``
and ``await _orderRepository.AddAsync(order)`` in ``OrderService.CreateOrderAsync`` write ``Orders``."""

from __future__ import annotations

import json

from tests.golden.harness import edge_rows

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
public class Note { public int Id { get; set; } }
''',
    "src/Interfaces/IRepository.cs": '''
namespace Shop.Interfaces;

public interface IRepository<T> where T : class
{
    Task<T> AddAsync(T entity);
}
''',
    "src/Services/OrderService.cs": '''
using Shop.Entities;
using Shop.Interfaces;

namespace Shop.Services;

public class OrderService
{
    private readonly IRepository<Order> _orderRepository;
    private readonly IReadRepository<Basket> _baskets;
    private readonly IRepository<Note> _notes;
    private readonly IUriComposer _uriComposer;

    public async Task CreateOrderAsync(int basketId)
    {
        var basket = await _baskets.FirstOrDefaultAsync(basketId);
        var uri = _uriComposer.GetUri(basket);
        await this._orderRepository.AddAsync(new Order());
        await _orderRepository.SaveChangesAsync();
        await _notes.AddAsync(new Note());
    }

    public async Task DropAsync(Order order)
    {
        await _orderRepository.DeleteAsync(order);
        var n = await _orderRepository.CountAsync();
    }
}
''',
    "src/Services/BasketHandler.cs": '''
using Shop.Entities;
using Shop.Interfaces;

namespace Shop.Services;

public class BasketHandler(IRepository<Basket> baskets)
{
    public async Task Empty(IReadRepository<Order> orders, int id)
    {
        await baskets.UpdateAsync(await baskets.GetByIdAsync(id));
        await orders.AnyAsync(id);
        await other.UpdateAsync(id);
    }
}
''',
}


def test_generic_repository_calls_read_and_write_their_entitys_table(tmp_path) -> None:
    got = []
    for kind in ("READS", "WRITES"):
        for src, dst, line, props in edge_rows(tmp_path / kind, APP, kind):
            got.append((kind, src.split(":", 1)[1], dst, line, json.loads(props)["framework"]))
    # not linked: _uriComposer (no repository), SaveChangesAsync (no verb of a table), _notes (Note maps to no table)
    # a primary constructor's parameter and a method's parameter; `other` is no repository
    assert sorted(got) == [
        ("READS", "src/Services/BasketHandler.BasketHandler.Empty(2)", "table:app:.baskets", 11, "efcore"),
        ("READS", "src/Services/BasketHandler.BasketHandler.Empty(2)", "table:app:.orders", 12, "efcore"),
        ("READS", "src/Services/OrderService.OrderService.CreateOrderAsync(1)", "table:app:.baskets", 16, "efcore"),
        ("READS", "src/Services/OrderService.OrderService.DropAsync(1)", "table:app:.orders", 26, "efcore"),
        ("WRITES", "src/Services/BasketHandler.BasketHandler.Empty(2)", "table:app:.baskets", 11, "efcore"),
        ("WRITES", "src/Services/OrderService.OrderService.CreateOrderAsync(1)", "table:app:.orders", 18, "efcore"),
        ("WRITES", "src/Services/OrderService.OrderService.DropAsync(1)", "table:app:.orders", 25, "efcore"),
    ]
