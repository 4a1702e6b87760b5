"""Sequelize models (sequelize-typescript ``@Table`` classes, ``Model.init``, ``sequelize.define``) are
tables, and model queries (``Star.findAll``, ``star.save()``, ``Star.scope("x").findOne()``) read or
write them: exact DECLARES / HAS_COLUMN / READS / WRITES, and what must not be linked (a query name
on something that is no model, a class that is no model)."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.languages.ecmascript.frameworks.sequelize import pluralize
from tests.resolution_harness import edges, resolve_fixture

MODELS = """
// --- path: server/models/base/IdModel.ts ---
import { Column, CreatedAt, Model, DataType } from "sequelize-typescript";
class IdModel extends Model {
  @Column(DataType.UUID)
  id: string;
  @CreatedAt
  createdAt: Date;
}
export default IdModel;
// --- path: server/models/Star.ts ---
import { Column, Table, DataType } from "sequelize-typescript";
import IdModel from "./base/IdModel";
@Table({ tableName: "stars", modelName: "star" })
class Star extends IdModel {
  @Column(DataType.STRING)
  index: string | null;
  @Column({ type: DataType.UUID, field: "user_id" })
  userId: string;
  notAColumn: string;
  async touch() { return this.save(); }
}
export default Star;
// --- path: server/models/Category.ts ---
import { Table, Model } from "sequelize-typescript";
@Table
class Category extends Model {}
export default Category;
// --- path: server/models/index.ts ---
export { default as Star } from "./Star";
export { default as Category } from "./Category";
// --- path: server/commands/starCreator.ts ---
import { Star, Category } from "../models";
import Cache from "../utils/Cache";
export default async function starCreator(user, index) {
  const star = await Star.create({ userId: user.id, index });
  await Star.scope("withUser").findAll({ where: { userId: user.id } });
  return star;
}
export async function starUpdater(star: Star) {
  await star.update({ index: "b" });
}
export async function categories() {
  return Category.count();
}
export async function notQueries(list, cache: Cache) {
  list.update({ a: 1 });
  cache.save();
  await Cache.findAll();
}
// --- path: server/utils/Cache.ts ---
export default class Cache {
  save() {}
  static findAll() { return []; }
}
"""


def test_sequelize_typescript_models_are_tables_with_their_columns() -> None:
    r = resolve_fixture(MODELS)
    assert edges(r, "DECLARES") == [
        "server/models/Category.Category -> table:t:.categories",  # no tableName: the pluralised class name
        "server/models/Star.Star -> table:t:.stars",
    ]
    assert edges(r, "HAS_COLUMN") == [  # IdModel's columns are its subclasses'; `notAColumn` is none
        "table:t:.stars -> column:t:.stars.createdat",
        "table:t:.stars -> column:t:.stars.id",
        "table:t:.stars -> column:t:.stars.index",
        "table:t:.stars -> column:t:.stars.user_id",
    ]


def test_model_queries_read_and_write_and_other_receivers_link_nothing() -> None:
    r = resolve_fixture(MODELS)
    assert edges(r, "READS") == [
        "server/commands/starCreator.categories(0) -> table:t:.categories",
        "server/commands/starCreator.starCreator(2) -> table:t:.stars",  # scope() looked through
    ]
    assert edges(r, "WRITES") == [
        "server/commands/starCreator.starCreator(2) -> table:t:.stars",
        "server/commands/starCreator.starUpdater(1) -> table:t:.stars",  # an instance typed Star
        "server/models/Star.Star.touch(0) -> table:t:.stars",  # this.save()
    ]  # not notQueries: `list` is untyped, Cache is no model


def test_model_init_and_define_and_the_default_table_name() -> None:
    src = b"""
const { Model, DataTypes } = require("sequelize");
class User extends Model {}
User.init({ name: DataTypes.STRING, email: { type: DataTypes.STRING, field: "email_address" } },
  { sequelize, modelName: "user", underscored: true });
const Task = sequelize.define("Task", { title: DataTypes.STRING }, { freezeTableName: true });
"""
    ex = extractor_for_path("models.js").extract("models.js", src)
    assert [(t.name, t.entity, t.columns) for t in ex.tables] == [
        ("users", "User", [("name", "STRING"), ("email_address", "STRING")]),
        ("Task", "Task", [("title", "STRING")]),
    ]
    assert [pluralize(w) for w in ("user", "category", "key", "address", "match", "person")] == [
        "users", "categories", "keys", "addresses", "matches", "people"]


PROCESSORS = {
    "server/models/Star.ts": """import { Column, Table, Model } from "sequelize-typescript";
@Table({ tableName: "stars" })
export default class Star extends Model {
  @Column
  index: string;
}
""",
    "server/queues/BaseProcessor.ts": """export default abstract class BaseProcessor {
  abstract perform(event: unknown): Promise<void>;
}
""",
    "server/queues/StarsProcessor.ts": """import BaseProcessor from "./BaseProcessor";
import Star from "../models/Star";
export default class StarsProcessor extends BaseProcessor {
  async perform(event) { await Star.destroy({ where: { index: event.index } }); }
}
""",
    "server/queues/MailProcessor.ts": """import BaseProcessor from "./BaseProcessor";
export default class MailProcessor extends BaseProcessor {
  async perform(event) { send(event); }
}
function send(e) {}
""",
    "server/queues/run.ts": """import BaseProcessor from "./BaseProcessor";
export async function runAll(processors: BaseProcessor[], event) {
  for (const p of processors) { await p.perform(event); }
}
""",
}


def test_a_tables_accessors_are_targets_not_the_other_implementations_of_their_interface(tmp_path) -> None:
    from analysis.impact import SymbolQuery, blast_radius
    from tests.golden.harness import index_fixture

    root = tmp_path / "src"
    for rel, text in PROCESSORS.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    store = index_fixture(root, tmp_path / "i.db", "r")
    report = blast_radius(store, SymbolQuery("table:stars"))
    store.close()
    assert [(t.node.qualname, t.role) for t in report.targets] == [
        ("StarsProcessor.perform", "selected"),
        ("BaseProcessor.perform", "declaration"),  # its callers dispatch to the accessor
    ]  # not MailProcessor.perform: another implementation, which touches no star
    assert [c.node.qualname for c in report.callers] == ["runAll"]


REGISTRY = """
// --- path: sequelize/models/user.model.js ---
const { DataTypes } = require("sequelize");
module.exports = (sequelize) => {
  sequelize.define("user", { username: { type: DataTypes.STRING } });
};
// --- path: sequelize/index.js ---
const { Sequelize } = require("sequelize");
const sequelize = new Sequelize({});
require("./models/user.model")(sequelize);
module.exports = sequelize;
// --- path: express/routes/users.js ---
const { models } = require("../../sequelize");
async function getAll(req, res) { res.json(await models.user.findAll()); }
async function create(req, res) { await models.user.create(req.body); }
async function other(req, res) { await models.cache.findAll(); await req.user.save(); }
module.exports = { getAll, create, other };
// --- path: sequelize/models/band.model.js ---
const { DataTypes } = require("sequelize");
module.exports = (sequelize) => {
  sequelize.define("band", { name: { type: DataTypes.STRING } });
  sequelize.define("instrument", { kind: { type: DataTypes.STRING } });
};
// --- path: express/routes/bands.js ---
const { models } = require("../../sequelize");
async function withMembers(req, res) {
  await models.band.findAll({ include: [{ model: models.instrument }, "author"] });
}
module.exports = { withMembers };
"""


def test_a_model_definers_model_is_reached_through_the_registry() -> None:
    r = resolve_fixture(REGISTRY)
    assert edges(r, "DECLARES") == [
        "sequelize/models/band.model.js -> table:t:.bands",
        "sequelize/models/band.model.js -> table:t:.instruments",
        "sequelize/models/user.model.js -> table:t:.users",
    ]
    assert edges(r, "READS") == [
        "express/routes/bands.withMembers(2) -> table:t:.bands",
        "express/routes/bands.withMembers(2) -> table:t:.instruments",  # included; "author" names no model
        "express/routes/users.getAll(2) -> table:t:.users",
    ]
    assert edges(r, "WRITES") == ["express/routes/users.create(2) -> table:t:.users"]
    # not `other`: `models.cache` names no model, `req.user` is no registry read
