"""TypeORM relation paths in query-builder joins (``.leftJoinAndSelect("u.photos", "p")``): the alias's
entity's relation property leads to the related entity's table (its declared type, an array of it, or
the relation decorator's class), read with the columns the chain's strings name on the joined alias
(``.where("p.isRemoved = :r")``); a path goes on from a joined alias (``"p.tags"``). Not linked: a path
on an alias of unknown entity, a property that is no relation (a column), a builder of unknown entity."""

from __future__ import annotations

import json
from pathlib import Path

from tests.golden.harness import edges_of_kinds

ENTITIES = """\
import { Column, Entity, ManyToOne, ManyToMany, OneToMany, PrimaryGeneratedColumn } from 'typeorm';

@Entity('users')
export class User {
    @PrimaryGeneratedColumn()
    id: number;
    @Column()
    name: string;
    @OneToMany(() => Photo, (photo) => photo.user)
    photos: Photo[];
}

@Entity('photos')
export class Photo {
    @PrimaryGeneratedColumn()
    id: number;
    @Column()
    isRemoved: boolean;
    @ManyToOne(() => User, (user) => user.photos)
    user: User;
    @ManyToMany(() => Tag)
    tags;
}

@Entity('tags')
export class Tag {
    @PrimaryGeneratedColumn()
    id: number;
    @Column()
    label: string;
}
"""

SERVICE = """\
import { DataSource, Repository } from 'typeorm';
import { User, Photo } from './entities';

export class UserService {
    constructor(private readonly dataSource: DataSource, private readonly users: Repository<User>) {}

    withPhotos() {
        return this.users.createQueryBuilder('u')
            .leftJoinAndSelect('u.photos', 'p')
            .innerJoin('p.tags', 't')
            .where('p.isRemoved = :r AND t.label = :l', { r: false, l: 'x' })
            .loadRelationIdAndMap('p.tagIds', 'p.tags')
            .getMany();
    }

    fromManager() {
        return this.dataSource.manager.createQueryBuilder(Photo, 'ph').innerJoinAndSelect('ph.user', 'owner')
            .orderBy('owner.name').getMany();
    }

    notRelations(x: any) {
        return this.users.createQueryBuilder('u')
            .leftJoinAndSelect('u.name', 'n')
            .leftJoinAndSelect('z.photos', 'zp')
            .getMany();
    }

    unknown(repo: any) {
        return repo.createQueryBuilder('u').leftJoinAndSelect('u.photos', 'p').getMany();
    }
}
"""


def test_relation_paths_read_the_related_entity_table(tmp_path: Path) -> None:
    rows = edges_of_kinds(tmp_path / "app", {"src/entities.ts": ENTITIES, "src/user.service.ts": SERVICE},
                          ("READS", "WRITES"))
    got = sorted((kind, src.split(":", 1)[1].split(".", 2)[-1], dst, line, tuple(json.loads(props or "{}").get("columns") or ()))
                 for kind, src, dst, line, props in rows)
    assert got == [
        ("READS", "UserService.fromManager(0)", "table:app:.photos", 17, ()),  # the builder's own
        ("READS", "UserService.fromManager(0)", "table:app:.users", 17, ("name",)),  # ph.user: a User
        ("READS", "UserService.notRelations(1)", "table:app:.users", 22, ()),  # u.name is a column; z unknown
        ("READS", "UserService.withPhotos(0)", "table:app:.photos", 9, ("isremoved",)),  # u.photos: Photo[]; not `tagIds`
        ("READS", "UserService.withPhotos(0)", "table:app:.tags", 10, ("label",)),  # p.tags: the decorator's Tag
        ("READS", "UserService.withPhotos(0)", "table:app:.users", 8, ()),
        # unknown(repo: any): no entity for `u`, nothing read (line 30)
    ]
