"""Mongoose models and queries (ecmascript/frameworks/mongoose.py): exact collections and READS / WRITES."""

from __future__ import annotations

from indexer.languages import extractor_for_path

FIXTURE = """
// --- path: backend/models/productModel.js ---
import mongoose from 'mongoose';
const reviewSchema = mongoose.Schema({ name: { type: String }, rating: Number });
const productSchema = new mongoose.Schema({ user: { type: mongoose.Schema.Types.ObjectId, ref: 'User' }, name: String,
  reviews: [reviewSchema], price: Number }, { timestamps: true });
const Product = mongoose.model('Product', productSchema);
export default Product;
// --- path: backend/models/categoryModel.js ---
import { Schema, model } from 'mongoose';
const categorySchema = new Schema({ title: String }, { collection: 'product_categories' });
export const Category = model('Category', categorySchema);
export const Legacy = model('Legacy', new Schema({ a: String }), 'old_stuff');
// --- path: backend/controllers/productController.js ---
import Product from '../models/productModel.js';
import { Category } from '../models/categoryModel.js';
import Stripe from 'stripe';
export const getProducts = async (req, res) => {
  const count = await Product.countDocuments({ name: req.query.keyword });
  const products = await Product.find({ price: { $gt: 1 } }).limit(10);
  const cheapest = products.find((p) => p.price < 5);
  res.json({ count, products, cheapest, kind: Object.create(null) });
};
export const createProduct = async (req, res) => {
  const product = new Product({ name: 'Sample', price: 0 });
  const created = await product.save();
  res.status(201).json(created);
};
export const updateProduct = async (req, res) => {
  const product = await Product.findById(req.params.id).populate('user');
  product.name = req.body.name;
  await product.save();
  await Category.updateOne({ title: 'x' }, { title: req.body.category });
};
export const pay = async (req, res) => {
  const session = await Stripe.create({ amount: 1 });
  const cart = req.session.cart;
  await cart.save();
  await session.save();
};
"""


def test_collections_exact() -> None:
    # the collection: Mongoose's default (lower case, plural), the schema's `collection` option, model()'s third
    # argument; columns the schema's top-level keys when the schema is a const of the file
    src = FIXTURE.split("// --- path: backend/models/categoryModel.js ---")[1].split("// ---")[0].encode()
    ex = extractor_for_path("m.js").extract("m.js", src)
    assert [(t.framework, t.name, t.columns, t.entity) for t in ex.tables] == [
        ("mongoose", "product_categories", [("title", None)], "Category"),
        ("mongoose", "old_stuff", [], "Legacy"),
    ]


def test_model_queries_read_and_write_their_collection() -> None:
    # proshop-v2's controllers: statics of an imported model (filter / values keys as columns), a document's
    # save() through the model it came from (`new Product`, `await Product.findById(...)`). Not: an array's
    # find, Object.create, a library class's create (Stripe), a document of unknown origin (cart, session)
    from tests.resolution_harness import edges, resolve_fixture
    result = resolve_fixture(FIXTURE)
    assert edges(result, "READS") + edges(result, "WRITES") == [
        "backend/controllers/productController.getProducts(2) -> table:t:.products",
        "backend/controllers/productController.updateProduct(2) -> table:t:.products",
        "backend/controllers/productController.createProduct(2) -> table:t:.products",
        "backend/controllers/productController.updateProduct(2) -> table:t:.product_categories",
        "backend/controllers/productController.updateProduct(2) -> table:t:.products",
    ]
    columns = sorted((e.kind, e.line, tuple(e.props.get("columns") or ())) for f in result.files for e in f.edges
                     if e.kind in ("READS", "WRITES"))
    assert columns == [
        ("READS", 5, ("name",)), ("READS", 6, ("price",)), ("READS", 16, ()),
        ("WRITES", 12, ()), ("WRITES", 18, ()), ("WRITES", 19, ("title",)),
    ]
