"""Flask-SQLAlchemy as an application writes it (indexer/languages/python/frameworks/orm_tables.py):
``db.Table(...)`` join tables of an application's ``db`` (the models file imports no SQLAlchemy),
``M.query`` reads, ``db.session`` writes and ``Model(...).save()``; nothing that is no mapped class
links."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

FIXTURE = """
# --- path: app/__init__.py ---
# --- path: app/extensions.py ---
from flask_sqlalchemy import SQLAlchemy
db = SQLAlchemy()
# --- path: app/models.py ---
from app.extensions import db

tag_assoc = db.Table("tag_assoc",
                     db.Column("tag", db.Integer, db.ForeignKey("tags.id")),
                     db.Column("article", db.Integer, db.ForeignKey("article.id")))
plain = db.Table("not_a_table")


class Tags(db.Model):
    __tablename__ = "tags"
    id = db.Column(db.Integer, primary_key=True)
    tagname = db.Column(db.String(100))


class Article(db.Model):
    __tablename__ = "article"
    id = db.Column(db.Integer, primary_key=True)
    slug = db.Column(db.Text)
    tagList = db.relationship("Tags", secondary=tag_assoc)

    def is_tagged(self):
        return self.query.filter(tag_assoc.c.tag == 1).count()

    def save(self):
        db.session.add(self)

    def add_tag(self, tag):
        self.tagList.append(tag)
# --- path: app/views.py ---
from app.extensions import db
from app.models import Article, Tags


class Request:
    query = None


def get_articles():
    res = Article.query
    return res.all()


def get_article(slug):
    return Article.query.filter_by(slug=slug).first()


def get_tags():
    return [t.tagname for t in Tags.query.all()]


def purge(slug):
    Article.query.filter_by(slug=slug).delete()


def make(title):
    Article(title=title).save()
    db.session.add(Tags(title))


def other(req: Request):
    Request.query.get(1)
    return db.session.query(Tags).all()
"""


def test_db_table_is_declared_and_the_relationship_through_it_links():
    result = resolve_fixture(FIXTURE)
    # `plain`: a `db.Table` with no column is no table; the models file imports no SQLAlchemy
    assert edges(result, "DECLARES") == [
        "app/models.Article -> table:t:.article",
        "app/models.Tags -> table:t:.tags",
        "app/models.py -> table:t:.tag_assoc",
    ]
    assert edges(result, "HAS_COLUMN") == [
        "table:t:.article -> column:t:.article.id",
        "table:t:.article -> column:t:.article.slug",
        "table:t:.tag_assoc -> column:t:.tag_assoc.article",
        "table:t:.tag_assoc -> column:t:.tag_assoc.tag",
        "table:t:.tags -> column:t:.tags.id",
        "table:t:.tags -> column:t:.tags.tagname",
    ]


def test_query_property_reads_and_session_and_save_writes():
    result = resolve_fixture(FIXTURE)
    # `Request.query`: no mapped class, no table
    assert edges(result, "READS") == [
        "app/models.Article.is_tagged(0) -> table:t:.article",
        "app/views.get_article(1) -> table:t:.article",
        "app/views.get_articles(0) -> table:t:.article",
        "app/views.get_tags(0) -> table:t:.tags",
        "app/views.other(1) -> table:t:.tags",
        "app/views.purge(1) -> table:t:.article",
    ]
    assert edges(result, "WRITES") == [
        "app/models.Article.add_tag(1) -> table:t:.tag_assoc",
        "app/models.Article.save(0) -> table:t:.article",
        "app/views.make(1) -> table:t:.article",
        "app/views.make(1) -> table:t:.tags",
        "app/views.purge(1) -> table:t:.article",
    ]


def test_filter_by_keywords_are_the_columns_read():
    result = resolve_fixture(FIXTURE)
    found = sorted((e.src.removeprefix("t:"), e.props.get("columns")) for f in result.files for e in f.edges
                   if e.kind == "READS" and "views" in e.src)
    assert found == [
        ("app/views.get_article(1)", ["slug"]),
        ("app/views.get_articles(0)", None),
        ("app/views.get_tags(0)", None),
        ("app/views.other(1)", None),
        ("app/views.purge(1)", ["slug"]),
    ]
