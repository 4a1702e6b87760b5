"""TypeORM query builders whose entity is named later in the chain (``dataSource.createQueryBuilder()
.from(User, "u")``, ``.insert().into(User)``, ``.update(User)``, ``.delete().from(User)``: TypeORM's
documented forms, used throughout its own test suite) and builders kept in a variable and turned into
a write later (``const qb = repo.createQueryBuilder(); qb.delete().execute()``). Exact READS / WRITES,
and what must not be linked: a chain naming no entity, a lower-case argument, a sub-query callback,
and the same variable name in another function."""

from __future__ import annotations

import json
from pathlib import Path

from tests.golden.harness import edges_of_kinds

ENTITIES = """\
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('users')
export class User {
    @PrimaryGeneratedColumn()
    id: number;
}

@Entity('photos')
export class Photo {
    @PrimaryGeneratedColumn()
    id: number;
}
"""

SERVICE = """\
import { DataSource, Repository } from 'typeorm';
import { User, Photo } from './entities';

export class UserService {
    constructor(private readonly dataSource: DataSource, private readonly photos: Repository<Photo>) {}

    list() {
        return this.dataSource.createQueryBuilder().select('u.id').from(User, 'u').getMany();
    }

    add(name: string) {
        return this.dataSource.createQueryBuilder().insert().into(User).values({ name }).execute();
    }

    rename(id: number) {
        return this.dataSource.createQueryBuilder().update(User).set({ name: 'x' }).where('id = :id', { id }).execute();
    }

    remove(id: number) {
        return this.dataSource.createQueryBuilder().delete().from(User).where('id = :id', { id }).execute();
    }

    async purge(id: number) {
        const qb = this.photos.createQueryBuilder();
        qb.where('id = :id', { id });
        await qb.delete().execute();
    }

    async browse() {
        const qb = this.photos.createQueryBuilder('p');
        return qb.getMany();
    }

    async later() {
        const qb = this.dataSource.createQueryBuilder();
        return qb.select('*').from(Photo, 'p').getRawMany();
    }

    raw() {
        return this.dataSource.createQueryBuilder().select('1').from('users', 'u').getRawOne();
    }

    sub() {
        return this.dataSource.createQueryBuilder().select('x').from((q) => q.from(Photo, 'p'), 'x').getRawMany();
    }

    lower(model: any) {
        return this.dataSource.createQueryBuilder().from(model, 'm').getMany();
    }

    other() {
        const qb = this.dataSource.createQueryBuilder();
        return qb.getRawMany();
    }
}
"""


def test_builders_take_the_entity_their_chain_names_and_a_kept_builder_its_later_write(tmp_path: Path) -> None:
    rows = edges_of_kinds(tmp_path / "app", {"src/entities.ts": ENTITIES, "src/user.service.ts": SERVICE}, ("READS", "WRITES"))
    got = sorted((kind, src.split(":", 1)[1].split(".", 2)[-1], dst, line, json.loads(props)["resolution"])
                 for kind, src, dst, line, props in rows)
    assert got == [
        ("READS", "UserService.browse(0)", "table:app:.photos", 30, "inferred"),
        ("READS", "UserService.later(0)", "table:app:.photos", 35, "inferred"),
        ("READS", "UserService.list(0)", "table:app:.users", 8, "inferred"),
        ("WRITES", "UserService.add(1)", "table:app:.users", 12, "inferred"),
        ("WRITES", "UserService.purge(1)", "table:app:.photos", 24, "inferred"),
        ("WRITES", "UserService.remove(1)", "table:app:.users", 20, "inferred"),
        ("WRITES", "UserService.rename(1)", "table:app:.users", 16, "inferred"),
    ]  # not raw (a string: no entity), sub (the sub-query's entity is inside a callback), lower, other


JOINS = """\
import { DataSource, Repository } from 'typeorm';
import { User, Photo } from './entities';

export class PhotoService {
    constructor(private readonly dataSource: DataSource, private readonly users: Repository<User>) {}

    withPhotos() {
        return this.users.createQueryBuilder('u').innerJoin(Photo, 'p', 'p.userId = u.id').getMany();
    }

    mapped() {
        return this.dataSource.createQueryBuilder().from(User, 'u')
            .leftJoinAndMapMany('u.pictures', Photo, 'p', 'p.userId = u.id').getMany();
    }

    relation() {
        return this.users.createQueryBuilder('u').leftJoinAndSelect('u.photos', 'p').getMany();
    }

    lower(model: any) {
        return this.users.createQueryBuilder('u').leftJoin(model, 'm', 'm.id = u.id').getMany();
    }
}
"""


def test_the_entities_a_builder_joins_are_read(tmp_path: Path) -> None:
    rows = edges_of_kinds(tmp_path / "app", {"src/entities.ts": ENTITIES, "src/photo.service.ts": JOINS}, ("READS", "WRITES"))
    got = sorted((kind, src.split(":", 1)[1].split(".", 2)[-1], dst, line)
                 for kind, src, dst, line, props in rows)
    assert got == [
        ("READS", "PhotoService.lower(1)", "table:app:.users", 21),  # the builder's own; not the lower-case join
        ("READS", "PhotoService.mapped(0)", "table:app:.photos", 13),  # leftJoinAndMapMany's second argument
        ("READS", "PhotoService.mapped(0)", "table:app:.users", 12),
        ("READS", "PhotoService.relation(0)", "table:app:.users", 17),  # a relation path: no class named
        ("READS", "PhotoService.withPhotos(0)", "table:app:.photos", 8),
        ("READS", "PhotoService.withPhotos(0)", "table:app:.users", 8),
    ]
