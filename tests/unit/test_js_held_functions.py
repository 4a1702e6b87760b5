"""TypeScript / JavaScript functions kept in a field and called through it (session 67, acc67c): ``this.cb = cb`` in a
constructor or a setter is bound in the class as an alias of the parameter (as Python's ``self.cb = cb``), so
``this.cb()`` in the class's methods calls what ``new X(fn)`` / ``x.on(fn)`` hand
(:mod:`indexer.resolve.held_arguments`). Exact edges, and what must stay unlinked: a parameter re-bound before it is
kept, a field given another value elsewhere, a method of the field's name."""

from __future__ import annotations

from tests.resolution_harness import check


def test_a_function_kept_in_a_field_runs_where_the_class_calls_it() -> None:
    check(
        """
        // --- path: src/jobs.ts ---
        export function work(): number { return 1; }
        export function retry(): number { return 2; }
        export function audit(): void {}
        export function wrap(f: () => number): () => number { return f; }
        // --- path: src/runner.ts ---
        export class Runner {
          private cb: () => number;
          private onError: () => number;
          constructor(cb: () => number) {
            this.cb = cb;
          }
          on(handler: () => number) {
            this.onError = handler;
          }
          run() {
            try { return this.cb(); } catch (e) { return this.onError(); }
          }
        }
        // --- path: src/others.js ---
        export class Rebound {
          constructor(cb) {
            cb = wrapIt(cb);
            this.cb = cb;
          }
          run() { return this.cb(); }
        }
        export class Twice {
          constructor(cb) { this.cb = cb; }
          reset() { this.cb = console.log; }
          run() { return this.cb(); }
        }
        export class Own {
          constructor(cb) { this.cb = cb; }
          cb() { return 0; }
          run() { return this.cb(); }
        }
        function wrapIt(f) { return f; }
        // --- path: src/main.ts ---
        import { Runner } from './runner';
        import { Rebound, Twice, Own } from './others';
        import { work, retry, audit } from './jobs';
        export function main() {
          const r = new Runner(work);
          r.on(retry);
          new Rebound(audit);
          new Twice(audit);
          new Own(audit);
          return r.run();
        }
        """,
        [
            "src/main.main(0) -> src/others.Own.constructor(1) [exact]",
            "src/main.main(0) -> src/others.Rebound.constructor(1) [exact]",
            "src/main.main(0) -> src/others.Twice.constructor(1) [exact]",
            "src/main.main(0) -> src/runner.Runner.constructor(1) [exact]",
            "src/main.main(0) -> src/runner.Runner.on(1) [inferred]",
            "src/main.main(0) -> src/runner.Runner.run(0) [inferred]",
            "src/others.Own.run(0) -> src/others.Own.cb(0) [exact]",
            "src/others.Rebound.constructor(1) -> src/others.wrapIt(1) [exact]",
            # the constructor's and the setter's arguments
            "src/runner.Runner.run(0) -> src/jobs.retry(0) [inferred]",
            "src/runner.Runner.run(0) -> src/jobs.work(0) [inferred]",
            # never: Rebound.run -> audit (re-bound before kept), Twice.run -> audit (a second value), Own.run -> audit
        ],
    )


def test_a_typed_destructured_parameter_binds_each_name_to_the_types_member() -> None:
    # `({ dataSources }: Ctx)` outside any resolver map: `dataSources` is Ctx's member, as `ctx.dataSources` of a
    # `ctx: Ctx` is; OtherAPI.getAll (same name, another class) is never called; an untyped pattern, a union of two types
    # and an array type bind nothing (the call stays unresolved: two methods of that name)
    check(
        """
        // --- path: src/api.ts ---
        export class LaunchAPI { getAll() { return []; } }
        export class OtherAPI { getAll() { return []; } }
        // --- path: src/ctx.ts ---
        import { LaunchAPI } from './api';
        export interface DataSources { launchAPI: LaunchAPI }
        export interface Ctx { dataSources: DataSources; user?: string }
        // --- path: src/use.ts ---
        import { Ctx, DataSources } from './ctx';
        export function typed(ctx: Ctx) { return ctx.dataSources.launchAPI.getAll(); }
        export function destructured({ dataSources }: Ctx) { return dataSources.launchAPI.getAll(); }
        export function renamed({ dataSources: ds }: Ctx) { return ds.launchAPI.getAll(); }
        export const arrow = ({ dataSources }: Ctx) => dataSources.launchAPI.getAll();
        export function untyped({ dataSources }) { return dataSources.launchAPI.getAll(); }
        export function nullable({ dataSources }: Ctx | null) { return dataSources.launchAPI.getAll(); }
        export function union({ dataSources }: Ctx | DataSources) { return dataSources.launchAPI.getAll(); }
        export function listed({ length }: Ctx[]) { return length; }
        """,
        [
            "src/use.arrow(1) -> src/api.LaunchAPI.getAll(0) [exact]",
            "src/use.destructured(1) -> src/api.LaunchAPI.getAll(0) [exact]",
            "src/use.nullable(1) -> src/api.LaunchAPI.getAll(0) [exact]",  # `Ctx | null` is a Ctx
            "src/use.renamed(1) -> src/api.LaunchAPI.getAll(0) [exact]",
            "src/use.typed(1) -> src/api.LaunchAPI.getAll(0) [exact]",
        ],
    )
