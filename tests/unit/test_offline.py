"""Nothing touches the network: `ripple index` (real pipeline + embedding with the bundled model) and
`ripple search` run with every socket connection refused and Hugging Face offline, and search still
finds the right function."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from lsp_server.cli import main

FILES = {
    "shop/__init__.py": "",
    "shop/shipping.py": '''
def shipping_cost(parcel_weight_kg, destination_country):
    rate = 4.5 if destination_country == "FR" else 9.0
    return round(parcel_weight_kg * rate, 2)


def estimate_delivery_days(destination_country):
    return 2 if destination_country == "FR" else 7
''',
    "shop/cart.py": '''
from shop.shipping import shipping_cost


class Cart:
    def __init__(self):
        self.items = []

    def add_item(self, sku, quantity):
        self.items.append((sku, quantity))

    def total(self, prices, country):
        weight = sum(q for _, q in self.items)
        return sum(prices[s] * q for s, q in self.items) + shipping_cost(weight, country)
''',
    "shop/users.py": '''
def hash_password(password, salt):
    import hashlib
    return hashlib.sha256((salt + password).encode()).hexdigest()


def send_welcome_email(user):
    return f"Welcome {user}"
''',
}

PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy")


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Refuse every outgoing connection (and name lookup); return the list of attempts made."""
    attempts: list[str] = []

    def refuse(what: str):
        def raiser(*args: object, **kwargs: object) -> None:
            attempts.append(f"{what}{args[1:] if what.startswith('socket.') else args}")
            raise OSError(f"network disabled by test_offline: {what}")

        return raiser

    monkeypatch.setattr(socket.socket, "connect", refuse("socket.connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("socket.connect_ex"))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    for var in PROXY_VARS:
        monkeypatch.delenv(var, raising=False)
        monkeypatch.delenv(var.upper(), raising=False)
    return attempts


def test_the_guard_refuses_connections(no_network: list[str]) -> None:
    with pytest.raises(OSError), socket.socket() as s:
        s.connect(("127.0.0.1", 9))
    with pytest.raises(OSError):
        socket.create_connection(("example.org", 80))
    assert len(no_network) == 2


def test_index_embed_and_search_run_offline(tmp_path: Path, no_network: list[str]) -> None:
    root = tmp_path / "shop-repo"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    db = tmp_path / "index.db"
    runner = CliRunner()

    indexed = runner.invoke(main, ["index", str(root), "--db", str(db), "--repo", "shop", "--json"])
    assert indexed.exit_code == 0, indexed.output
    report = json.loads(indexed.stdout)
    assert report["files_indexed"] == 4
    embeddings = report["embeddings"]
    assert "skipped" not in embeddings and embeddings["model"].startswith("ripplegraph/all-MiniLM-L6-v2-int8@")
    assert embeddings["embedded"] == report["chunks"] > 0

    found = runner.invoke(main, ["search", "store a user's password securely", "--db", str(db), "--json"])
    assert found.exit_code == 0, found.output
    result = json.loads(found.stdout)
    assert result["lists"] == ["bm25", "knn"]  # the dense side ran: the query was embedded offline
    assert result["embedded"] == result["chunks"]
    top = result["hits"][0]
    assert top["fqn"] == "shop:shop/users.hash_password(2)"
    assert top["ranks"].get("knn") == 1

    assert no_network == []  # nothing even tried to connect
