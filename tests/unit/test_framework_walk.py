"""brk42: seeded random edits of small apps with framework facts of several kinds (Django models, abstract
models, managers, Meta db_table, urls naming views of other files, include(), DRF routers, middleware;
Flask routes, before_request, blueprints mounted elsewhere; FastAPI Depends, include_router; Express
routers mounted with prefixes of other files; Spring controllers, JPA repositories; HTTP clients):
the watcher's and one-shot runs' index equals a full index at every step (Workspace checks it).
RIPPLE_FUZZ_STEPS sets the steps per seed."""

import os
import random
from pathlib import Path

import pytest

from tests.unit.test_incremental import Workspace

D = "from django.db import models\n\n\n"
V: dict[str, list[str | None]] = {
    "app/__init__.py": [""],
    "app/models.py": [
        D + "class Note(models.Model):\n    title = models.CharField(max_length=9)\n",
        D + "class Note(models.Model):\n    title = models.CharField(max_length=9)\n\n    class Meta:\n        db_table = 'notes'\n",
        D + "class Stamped(models.Model):\n    at = models.DateTimeField()\n\n    class Meta:\n        abstract = True\n\n\n"
            "class NoteManager(models.Manager):\n    def recent(self):\n        return self.filter(at=1)\n\n\n"
            "class Note(Stamped):\n    title = models.CharField(max_length=9)\n    objects = NoteManager()\n",
        D + "class Memo(models.Model):\n    body = models.TextField()\n",
        None],
    "app/more_models.py": [None, D + "class Tag(models.Model):\n    name = models.CharField(max_length=3)\n    class Meta:\n        db_table = 'notes'\n",
                          "from app.models import Note\n\n\nclass Other(Note):\n    class Meta:\n        proxy = True\n"],
    "app/views.py": [
        "from app.models import Note\n\n\ndef show(request):\n    return Note.objects.filter(title='a')\n",
        "from app.models import Note\n\n\ndef display(request):\n    return Note.objects.filter(title='a')\n",
        "from app.models import Note\n\n\ndef show(request):\n    Note.objects.create(title='x')\n    return Note.objects.recent()\n\n\ndef extra(request):\n    return None\n",
        "\n\nfrom app.models import Note\n\n\ndef show(request):\n    return Note.objects.filter(title='a')\n",
        None],
    "app/views2.py": [None, "from app.models import Note\n\n\ndef show(request):\n    return Note.objects.all()\n\n\ndef display(request):\n    return 1\n"],
    "app/consts.py": ["PREFIX = 'notes/'\n", "PREFIX = 'memos/'\n", None],
    "app/urls.py": [
        "from django.urls import path\nfrom app import views\n\nurlpatterns = [path('notes/', views.show)]\n",
        "from django.urls import path\nfrom app import views\nfrom app.consts import PREFIX\n\nurlpatterns = [path(PREFIX, views.show), path('d/', views.display)]\n",
        "from django.urls import path\nfrom app import views2 as views\n\nurlpatterns = [path('notes/', views.show)]\n",
        "from django.urls import path, include\n\nurlpatterns = [path('api/', include('app.sub_urls'))]\n",
        None],
    "app/sub_urls.py": [None, "from django.urls import path\nfrom app import views\n\nurlpatterns = [path('x/', views.show)]\n",
                        "from django.urls import path\nfrom app.views2 import display\n\nurlpatterns = [path('y/<int:pk>/', display)]\n"],
    "app/other.py": ["from app.models import Note\n\n\ndef count():\n    return Note.objects.count()\n",
                     "from app.models import Note\n\n\ndef count():\n    return Note.objects.filter(title='b').count()\n",
                     "from app import models\n\n\ndef count():\n    return models.Note.objects.update(title='c')\n", None],
    "app/raw.py": [None, "def q(cur):\n    cur.execute('SELECT * FROM notes')\n", "def q(cur):\n    cur.execute('UPDATE app_note SET title = 1')\n"],
    # flask / fastapi
    "svc/__init__.py": [""],
    "svc/consts.py": ["BASE = '/api'\n", "BASE = '/v2'\n", None],
    "svc/app.py": [
        "from flask import Flask\nfrom svc.consts import BASE\n\napp = Flask(__name__)\n\n\n@app.before_request\ndef auth():\n    pass\n\n\n@app.get(BASE + '/owners')\ndef owners():\n    return []\n",
        "from flask import Flask\nfrom svc.consts import BASE\n\napp = Flask(__name__)\n\n\n@app.get(BASE + '/owners')\ndef owners():\n    return []\n",
        "from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.before_request\ndef auth():\n    pass\n\n\n@app.get('/api/owners/<int:id>')\ndef owners(id):\n    return []\n",
        None],
    "svc/fast.py": [None,
        "from fastapi import FastAPI, Depends\nfrom svc.deps import user\n\napp = FastAPI()\n\n\n@app.get('/items', dependencies=[Depends(user)])\ndef items():\n    return []\n",
        "from fastapi import APIRouter, Depends\nfrom svc.deps import user\n\nrouter = APIRouter(prefix='/r')\n\n\n@router.get('/items')\ndef items(u=Depends(user)):\n    return []\n"],
    "svc/deps.py": ["def user():\n    return 1\n", "def user(x=None):\n    return 2\n", None],
    "svc/client.py": ["import requests\nfrom svc.consts import BASE\n\n\ndef fetch():\n    return requests.get('http://h' + BASE + '/owners')\n",
                      "import requests\n\n\ndef fetch():\n    return requests.get('http://h/r/items')\n", None],
    # express
    "web/app.js": ["const express = require('express');\nconst users = require('./users');\nconst app = express();\napp.use(logger);\napp.use('/users', users);\nfunction logger(req, res, next) { next(); }\n",
                   "const express = require('express');\nconst users = require('./users');\nconst { P } = require('./prefix');\nconst app = express();\napp.use(P, users);\n",
                   None],
    "web/prefix.js": ["exports.P = '/people';\n", "exports.P = '/folk';\n", None],
    "web/users.js": ["const express = require('express');\nconst router = express.Router();\nrouter.get('/:id', show);\nfunction show(req, res) { res.send(1); }\nmodule.exports = router;\n",
                     "const express = require('express');\nconst router = express.Router();\nrouter.post('/', create);\nfunction create(req, res) { res.send(1); }\nmodule.exports = router;\n",
                     None],
    "web/client.js": ["export function load() { return fetch('/users/1'); }\n", "export function load() { return fetch('/people/2'); }\n", None],
    # spring + jpa
    "j/Owner.java": ["package j;\n\nimport javax.persistence.*;\n\n@Entity\npublic class Owner {\n    @Id Long id;\n}\n",
                     "package j;\n\nimport javax.persistence.*;\n\n@Entity\n@Table(name = \"owners\")\npublic class Owner {\n    @Id Long id;\n}\n",
                     None],
    "j/OwnerRepository.java": ["package j;\n\nimport org.springframework.data.jpa.repository.JpaRepository;\n\npublic interface OwnerRepository extends JpaRepository<Owner, Long> {}\n", None],
    "j/OwnerController.java": [
        "package j;\n\n@RestController\n@RequestMapping(\"/owners\")\npublic class OwnerController {\n    private OwnerRepository repo;\n    @GetMapping\n    public Object list() { return repo.findAll(); }\n}\n",
        "package j;\n\n@RestController\n@RequestMapping(Paths.BASE)\npublic class OwnerController {\n    private OwnerRepository repo;\n    @PostMapping(\"/{id}\")\n    public Object save() { return repo.save(null); }\n}\n",
        None],
    "j/Paths.java": ["package j;\n\npublic class Paths {\n    public static final String BASE = \"/o\";\n}\n",
                     "package j;\n\npublic class Paths {\n    public static final String BASE = \"/people\";\n}\n", None],
}


V2 = dict(V)
V2.update({
    "proj/__init__.py": [""],
    "proj/settings.py": ["MIDDLEWARE = ['proj.mw.Guard']\nROOT_URLCONF = 'proj.urls'\n",
                         "MIDDLEWARE = []\nROOT_URLCONF = 'proj.urls'\n", None],
    "proj/mw.py": ["class Guard:\n    def __init__(self, get_response):\n        self.g = get_response\n\n    def __call__(self, request):\n        return self.g(request)\n",
                   "class Guard:\n    def __init__(self, get_response):\n        self.g = get_response\n\n    def process_view(self, request, f, a, k):\n        return None\n", None],
    "proj/urls.py": ["from django.urls import path, include\n\nurlpatterns = [path('app/', include('app.urls'))]\n",
                     "from django.urls import path, include\nfrom rest_framework import routers\nfrom app.api import NoteViewSet\n\nrouter = routers.DefaultRouter()\nrouter.register('n', NoteViewSet)\n\nurlpatterns = [path('app/', include('app.urls')), path('api/', include(router.urls))]\n",
                     None],
    "app/api.py": [None, "from rest_framework import viewsets\nfrom app.models import Note\n\n\nclass NoteViewSet(viewsets.ModelViewSet):\n    queryset = Note.objects.all()\n\n    def list(self, request):\n        return Note.objects.all()\n",
                   "from rest_framework import viewsets\n\n\nclass NoteViewSet(viewsets.ViewSet):\n    def retrieve(self, request, pk=None):\n        return None\n"],
    "svc/bp.py": [None, "from flask import Blueprint\n\nbp = Blueprint('bp', __name__)\n\n\n@bp.route('/things')\ndef things():\n    return []\n",
                  "from flask import Blueprint\n\nbp = Blueprint('bp', __name__, url_prefix='/b')\n\n\n@bp.before_request\ndef check():\n    pass\n\n\n@bp.route('/things', methods=['POST'])\ndef things():\n    return []\n"],
    "svc/reg.py": [None, "from svc.app import app\nfrom svc.bp import bp\n\napp.register_blueprint(bp, url_prefix='/x')\n",
                   "from svc.app import app\nfrom svc.bp import bp\nfrom svc.consts import BASE\n\napp.register_blueprint(bp, url_prefix=BASE)\n"],
    "svc/main.py": [None, "from fastapi import FastAPI\nfrom svc.fast import router\n\napi = FastAPI()\napi.include_router(router, prefix='/m')\n",
                    "from fastapi import FastAPI, Depends\nfrom svc.fast import router\nfrom svc.deps import user\n\napi = FastAPI(dependencies=[Depends(user)])\napi.include_router(router)\n"],
    "j/OwnerRepository.java": ["package j;\n\nimport org.springframework.data.jpa.repository.JpaRepository;\n\npublic interface OwnerRepository extends JpaRepository<Owner, Long> {}\n",
                               "package j;\n\nimport org.springframework.data.jpa.repository.*;\n\npublic interface OwnerRepository extends JpaRepository<Owner, Long> {\n    @Query(\"select o from Owner o\")\n    java.util.List<Owner> findAll();\n}\n",
                               None],
    "j/Owner.java": ["package j;\n\nimport javax.persistence.*;\nimport java.util.List;\n\n@Entity\npublic class Owner {\n    @Id Long id;\n"
                     "    @OneToMany(cascade = CascadeType.ALL)\n    List<Pet> pets;\n}\n",
                     "package j;\n\nimport javax.persistence.*;\nimport java.util.List;\n\n@Entity\npublic class Owner {\n    @Id Long id;\n"
                     "    @OneToMany\n    List<Pet> pets;\n}\n", *V["j/Owner.java"]],
    "j/Pet.java": ["package j;\n\nimport javax.persistence.*;\n\n@Entity\npublic class Pet {\n    @Id Long id;\n}\n", None],
    "j/Svc.java": [None, "package j;\n\npublic class Svc {\n    private OwnerRepository repo;\n"
                         "    public void add(Owner o) { repo.save(o); }\n}\n"],
    "db/V1__init.sql": ["CREATE TABLE a (id int);\n", "CREATE TABLE a (id int, name text);\n", None],
    "db/V2__rename.sql": [None, "ALTER TABLE a RENAME TO b;\n", "ALTER TABLE a RENAME TO notes;\n"],
    "web/mount.js": [None, "const app = require('./app');\nconst users = require('./users');\napp.use('/u2', users);\n"],
})


@pytest.mark.parametrize("seed", [1, 11])  # 11 failed before the fix of _framework_facts (brk42)
def test_random_framework_edits_keep_the_index_equal_to_a_full_index(tmp_path: Path, seed: int) -> None:
    steps = int(os.environ.get("RIPPLE_FUZZ_STEPS", "12"))
    rng = random.Random(1000 + seed)
    start = {rel: rng.choice(versions) for rel, versions in V2.items()}
    w = Workspace(tmp_path, {k: v for k, v in start.items() if v is not None})
    cur = dict(start)
    try:
        for _ in range(steps):
            picked = rng.sample(sorted(V2), rng.choice([1, 1, 2, 3]))
            edit = {}
            for rel in picked:
                if rng.random() < 0.2 and cur.get(rel) is not None:
                    edit[rel] = None  # delete (recreated later)
                else:
                    edit[rel] = rng.choice(V2[rel])
            cur.update(edit)
            w.edit(edit)
    finally:
        w.close()
