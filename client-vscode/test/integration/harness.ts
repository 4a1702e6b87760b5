/**
 * What the integration tests share: the bundled extension (out/extension.js) loaded with a stub of
 * the `vscode` module in its place, the `ripple` executable under test, fake server scripts, waiting.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { join } from 'node:path';
import { findExecutable } from '../../src/lib/settings';
import type { createVscodeStub } from './vscodeStub';

/** `$RIPPLE_SERVER` (.ci/run: .venv/bin/ripple), else `ripple` on PATH; `undefined` when neither is there. */
export const SERVER = findExecutable(process.env.RIPPLE_SERVER || 'ripple', process.env.PATH);

/** The `ripple` executable, or an error saying how to get one. */
export function server(): string {
  if (SERVER === undefined) {
    throw new Error('ripple is not installed: set RIPPLE_SERVER to the ripple executable (pip install -e . in the repository)');
  }
  return SERVER;
}

/** The `activate` / `deactivate` of the bundled extension. */
export interface Extension {
  activate(context: { subscriptions: { dispose(): unknown }[] }): Promise<any>;
  deactivate(): Promise<void>;
}

/** The bundled extension, its `require('vscode')` answered by `stub` (for this test file's process). */
export function loadExtension(stub: ReturnType<typeof createVscodeStub>): Extension {
  const originalLoad = (Module as any)._load;
  (Module as any)._load = function load(request: string, ...rest: unknown[]) {
    return request === 'vscode' ? stub.vscode : originalLoad.call(this, request, ...rest);
  };
  return createRequire(__filename)('../../out/extension.js');
}

/** An activation that can be undone: `stop` deactivates and disposes what it registered. */
export async function activate(ext: Extension): Promise<{ api: any; stop(): Promise<void> }> {
  const context = { subscriptions: [] as { dispose(): unknown }[] };
  const api = await ext.activate(context);
  return {
    api,
    async stop() {
      await ext.deactivate();
      for (const d of context.subscriptions) {
        await d.dispose();
      }
    },
  };
}

/** An executable shell script `dir/name` running `body`. */
export function script(dir: string, name: string, body: string, mode = 0o755): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, mode);
  return path;
}

/** Poll `probe` every 50 ms until it returns a value (not `undefined` or `false`). */
export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
