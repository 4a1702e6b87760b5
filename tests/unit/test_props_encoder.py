"""stores.embedded_write.props_encoder: the stored JSON of props, exactly JSONEncoder's."""

import json
import random

import pytest

import stores.embedded_write as embedded_write
from stores.embedded_write import props_encoder

_REFERENCE = json.JSONEncoder(separators=(",", ":"), sort_keys=True).encode


def test_exact_text() -> None:
    encode = props_encoder()
    assert encode({"b": [1, 2.5, "é"], "a": None, "c": {"z": True, "y": float("inf")}}) == (
        '{"a":null,"b":[1,2.5,"\\u00e9"],"c":{"y":Infinity,"z":true}}')
    assert encode({"route": "/api/<int:id>", "methods": ["GET", "POST"]}) == (
        '{"methods":["GET","POST"],"route":"/api/<int:id>"}')
    assert encode({}) == "{}"
    assert encode("x\n") == '"x\\n"'
    assert encode({"k": -0.0, "n": 10**20}) == '{"k":-0.0,"n":100000000000000000000}'
    assert encode({"a": 1}) != '{"a": 1}'  # no spaces


def _value(rng: random.Random, depth: int) -> object:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.randint(-(10**12), 10**12)
    if kind == 2:
        return rng.choice([rng.uniform(-1e6, 1e6), 1e-310, float("nan"), float("-inf")])
    if kind in (3, 4):
        return "".join(rng.choice("ab\"\\\n\t\u00e9\u4e2d\U0001f600/<>") for _ in range(rng.randrange(6)))
    if kind == 5:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 6:
        return tuple(_value(rng, depth + 1) for _ in range(rng.randrange(3)))
    return {str(_value(rng, 3)): _value(rng, depth + 1) for _ in range(rng.randrange(5))}


def test_same_as_the_standard_encoder_on_random_values() -> None:
    rng = random.Random(67)
    encode = props_encoder()
    for _ in range(2000):
        value = {str(k): _value(rng, 1) for k in range(rng.randrange(6))}
        assert encode(value) == _REFERENCE(value)


def test_errors_and_reuse_after_them() -> None:
    encode = props_encoder()
    with pytest.raises(TypeError):
        encode({"a": {1, 2}})
    loop: dict[str, object] = {"a": 1}
    loop["self"] = loop
    with pytest.raises(ValueError, match="Circular"):
        encode(loop)
    with pytest.raises(TypeError):
        encode({1: "a", "b": 2})  # mixed key types cannot be sorted
    shared = [1]
    # The same list twice is not circular, and nothing of the failed calls is left behind.
    assert encode({"x": shared, "y": shared, "z": {"w": loop["a"]}}) == '{"x":[1],"y":[1],"z":{"w":1}}'


def test_without_the_c_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedded_write.json.encoder, "c_make_encoder", None)
    encode = props_encoder()
    value = {"b": [1, 2.5, "é"], "a": None}
    assert encode(value) == '{"a":null,"b":[1,2.5,"\\u00e9"]}' == _REFERENCE(value)
