"""TypeORM 0.2's custom repositories: ``@EntityRepository(User) class UserRepository extends
Repository<User>`` injected by type (``@OrmRepository() private userRepository: UserRepository``,
typedi), so ``this.userRepository.find()`` reads ``User``'s table though no ``Repository<User>`` is
written at the call. Exact READS / WRITES, and what must not be linked: a method the custom class
declares itself (its body is what accesses the table), an array's ``find``, a class of the same
method names that is no repository."""

from __future__ import annotations

import json
from pathlib import Path

from tests.golden.harness import edges_of_kinds

ENTITY = """\
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'app_user' })
export class User {
    @PrimaryColumn('uuid')
    public id: string;

    @Column()
    public name: string;
}
"""

REPOSITORY = """\
import { EntityRepository, Repository } from 'typeorm';
import { User } from './User';

@EntityRepository(User)
export class UserRepository extends Repository<User> {
    public findByName(name: string): Promise<User[]> {
        return this.find({ where: { name } });
    }
}
"""

SERVICE = """\
import { OrmRepository } from 'typeorm-typedi-extensions';
import { UserRepository } from './UserRepository';

class Cache {
    public delete(key: string): void { }
    public save(value: string): void { }
}

export class UserService {
    private cache = new Cache();

    constructor(@OrmRepository() private userRepository: UserRepository) { }

    public list() { return this.userRepository.find(); }

    public async add(user: any) { return this.userRepository.save(user); }

    public remove(id: string) { return this.userRepository.delete(id); }

    public named(name: string) { return this.userRepository.findByName(name); }

    public pick(users: any[]) { return users.find((u) => u.id === '1'); }

    public forget(key: string) { this.cache.delete(key); this.cache.save(key); }
}
"""


def test_custom_repository_calls_read_and_write_the_entity_table(tmp_path: Path) -> None:
    rows = edges_of_kinds(tmp_path / "app", {"src/User.ts": ENTITY, "src/UserRepository.ts": REPOSITORY, "src/UserService.ts": SERVICE}, ("READS", "WRITES"))
    got = sorted((kind, src.split(":", 1)[1], dst, line, json.loads(props)["resolution"])
                 for kind, src, dst, line, props in rows)
    assert got == [
        ("READS", "src/UserRepository.UserRepository.findByName(1)", "table:app:.app_user", 7, "inferred"),  # this.find
        ("READS", "src/UserService.UserService.list(0)", "table:app:.app_user", 14, "inferred"),
        ("WRITES", "src/UserService.UserService.add(1)", "table:app:.app_user", 16, "inferred"),
        ("WRITES", "src/UserService.UserService.remove(1)", "table:app:.app_user", 18, "inferred"),
    ]  # not named (findByName is the class's own: its body reads), pick (an array), forget (Cache)
