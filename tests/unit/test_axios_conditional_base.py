"""An axios instance whose ``baseURL`` is a conditional (session 66, acc66b): branches that are all literals naming
the same path (``isDev ? "http://localhost:8080/api" : "/api"``) are that path after an unknown origin, so the
instance's requests, in the file creating it or in a file importing it, reach the one endpoint their known end
names; branches naming different paths, or one that is no literal, leave the base unknown (no link)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.index_harness import index_files

SERVER = """const express = require("express");
const app = express();
app.get("/api/users", (req, res) => res.json([]));
app.get("/api/users/:id", (req, res) => res.json({}));
app.get("/v2/users", (req, res) => res.json([]));
app.listen(3000);
"""

FILES = {
    "server/app.js": SERVER,
    "web/src/api/index.js": (
        "import axios from 'axios';\n\n"
        "const service = axios.create({\n"
        "  baseURL: process.env.NODE_ENV === 'production' ? 'https://shop.example.com/api/' : '/api',\n"
        "});\n"
        "export const mixed = axios.create({ baseURL: isDev ? 'http://localhost:8080/api' : '/v2' });\n"
        "export const computed = axios.create({ baseURL: isDev ? 'http://localhost:8080/api' : window.origin });\n"
        "export function here() { return service.get('/users'); }\n"
        "export default service;\n"),
    "web/src/api/users.js": (
        "import service, { mixed, computed } from './index';\n\n"
        "export const listUsers = () => service.get('/users');\n"
        "export const getUser = (id) => service.get('/users/' + id);\n"
        "export const mixedUsers = () => mixed.get('/users');\n"
        "export const computedUsers = () => computed.get('/users');\n"),
}


def test_a_conditional_base_naming_one_path_links_by_its_known_end(tmp_path: Path) -> None:
    index_files(tmp_path / "shop", FILES, "shop", tmp_path / "x.db").close()
    conn = sqlite3.connect(tmp_path / "x.db")
    try:
        rows = conn.execute("SELECT src, dst, props FROM edges WHERE kind IN ('CALLS_HTTP', 'UNLINKED')").fetchall()
    finally:
        conn.close()
    found = sorted((src.rsplit("/", 1)[-1], dst, json.loads(props).get("url")) for src, dst, props in rows)
    assert found == [
        ("index.here(0)", "endpoint:GET /api/users", "{}/api/users"),
        ("users.getUser(1)", "endpoint:GET /api/users/{}", "{}/api/users/{}"),
        ("users.listUsers(0)", "endpoint:GET /api/users", "{}/api/users"),
    ]  # mixed (/api or /v2) and computed (window.origin): the base is unknown, nothing is linked
