"""TypeORM query builders: ``getRepository(E).createQueryBuilder("e")...getMany()`` (the
nestjs-realworld-example-app's services, and TypeORM's documented way to write a join or a
condition its ``find`` options cannot) reads ``E``'s table; a builder whose chain calls ``delete()``
/ ``update()`` / ``insert()`` writes it. Exact READS / WRITES, and what must not be linked: a
``createQueryBuilder`` of a receiver that is no repository (a DataSource with no entity named), and
an unrelated class's method of that name."""

from __future__ import annotations

import json
from pathlib import Path

from tests.golden.harness import edges_of_kinds

ENTITY = """\
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('article')
export class ArticleEntity {
    @PrimaryGeneratedColumn()
    id: number;

    @Column()
    slug: string;
}
"""

SERVICE = """\
import { getRepository, Repository } from 'typeorm';
import { InjectRepository } from '@nestjs/typeorm';
import { ArticleEntity } from './article.entity';

class Sketch {
    createQueryBuilder(alias: string) { return alias; }
}

export class ArticleService {
    constructor(
        @InjectRepository(ArticleEntity)
        private readonly articleRepository: Repository<ArticleEntity>,
        private readonly dataSource: any,
    ) {}

    async findAll(tag: string) {
        const qb = await getRepository(ArticleEntity)
            .createQueryBuilder('article')
            .where('article.tagList LIKE :tag', { tag });
        return qb.getMany();
    }

    async count() {
        return this.articleRepository.createQueryBuilder('a').getCount();
    }

    async purge(slug: string) {
        await this.articleRepository.createQueryBuilder().delete().where('slug = :slug', { slug }).execute();
    }

    async raw() {
        return this.dataSource.createQueryBuilder().select('1').getRawOne();
    }

    draw() {
        return new Sketch().createQueryBuilder('x');
    }
}
"""


def test_query_builders_of_repositories_read_or_write_the_entity_table(tmp_path: Path) -> None:
    rows = edges_of_kinds(tmp_path / "app", {"src/article.entity.ts": ENTITY, "src/article.service.ts": SERVICE}, ("READS", "WRITES"))
    got = sorted((kind, src.split(":", 1)[1], dst, line, json.loads(props)["resolution"])
                 for kind, src, dst, line, props in rows)
    assert got == [
        ("READS", "src/article.service.ArticleService.count(0)", "table:app:.article", 24, "inferred"),
        ("READS", "src/article.service.ArticleService.findAll(1)", "table:app:.article", 18, "inferred"),
        ("WRITES", "src/article.service.ArticleService.purge(1)", "table:app:.article", 28, "inferred"),
    ]  # not raw (a DataSource's builder names no entity), nor draw (Sketch is no repository)
