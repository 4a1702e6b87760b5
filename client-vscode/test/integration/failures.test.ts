/**
 * A server that is not what it should be, through the bundled extension and the stub of the VS Code
 * API (./vscodeStub.ts): a file that cannot run, a server that fails at start, one that stops while it
 * runs (restarted a few times, then one message; never a loop), and the environment the server gets.
 * The servers are shell scripts in front of the real `ripple` ($RIPPLE_SERVER, see ./harness.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { activate, loadExtension, script, server, waitFor, type Extension } from './harness';
import { createVscodeStub } from './vscodeStub';

const INSTALL = 'Install it from a clone of ripplegraph with `python3 -m venv .venv && .venv/bin/pip install -q -e .`, '
  + 'then set ripplegraph.server.command to the full path of .venv/bin/ripple.';

let root: string;
let stub: ReturnType<typeof createVscodeStub>;
let ext: Extension;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ripple-failures-'));
  mkdirSync(join(root, 'ws'));
  writeFileSync(join(root, 'ws', 'app.py'), 'def main():\n    return 1\n');
  stub = createVscodeStub({ settings: { 'server.embed': false }, folders: [{ name: 'ws', path: join(root, 'ws') }] });
  ext = loadExtension(stub);
});

afterAll(() => {
  // a stopped server may still be closing its index (journal files come and go): retry
  rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
});

let active: Awaited<ReturnType<typeof activate>> | undefined;

afterEach(async () => {
  await active?.stop();
  active = undefined;
  stub.setFolders([{ name: 'ws', path: join(root, 'ws') }]);
});

/** Activate with `settings`, from a clean record of messages (deactivated after the test). */
async function activateWith(settings: Record<string, unknown>) {
  stub.configure(settings);
  stub.recorder.messages.length = 0;
  stub.recorder.output.length = 0;
  active = await activate(ext);
  return active;
}

describe('a server that cannot run', () => {
  it('a file that is not executable: one message that says so', async () => {
    const path = script(root, 'not executable', 'exit 0', 0o644);
    const { api } = await activateWith({ 'server.command': path });
    expect(api.session.running).toBeUndefined();
    expect(stub.recorder.messages).toEqual([{ kind: 'error', items: ['Open Settings'], text:
      `ripplegraph: the language server cannot start: "${path}" is not an executable file (ripplegraph.server.command). ${INSTALL}` }]);
    expect(stub.recorder.statusItems.at(-1)!.text).toBe('$(warning) ripple: no server');
  });

  it('a server that fails at start: one message, with what it printed, not the client\'s own', async () => {
    const path = script(root, 'crash', 'echo "Traceback (most recent call last):" >&2; '
      + 'echo "ImportError: cannot import name \'x\' from \'stores\'" >&2; exit 1');
    const { api } = await activateWith({ 'server.command': path });
    expect(api.session.running).toBeUndefined();
    const text = `ripplegraph: the language server cannot start: "${path} serve --no-embed" failed at start `
      + `(ImportError: cannot import name 'x' from 'stores'; more in the "ripplegraph" output). ${INSTALL}`;
    expect(stub.recorder.messages).toEqual([{ kind: 'error', items: ['Open Settings'], text }]);
    expect(stub.recorder.output).toContain("[error] ImportError: cannot import name 'x' from 'stores'");
    expect(stub.recorder.statusItems.at(-1)!.text).toBe('$(warning) ripple: no server');
    await stub.vscode.commands.executeCommand('ripplegraph.semanticSearch');
    expect(stub.recorder.messages.at(-1)).toEqual({ kind: 'error', items: [], text });
    expect(stub.recorder.messages.length).toBe(2);
  });
});

describe('a running server', () => {
  it('gets VS Code\'s environment plus the settings\' variables', async () => {
    const dump = join(root, 'env.txt');
    const path = script(root, 'env dump', `env > '${dump}'; exec '${server()}' "$@"`);
    const { api } = await activateWith({ 'server.command': path, 'server.env': { RIPPLE_TEST_VAR: 'a b' } });
    expect(api.session.running).toBeDefined();
    const env = new Map(readFileSync(dump, 'utf8').trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    expect([env.get('PATH'), env.get('HOME'), env.get('RIPPLE_TEST_VAR')]).toEqual([process.env.PATH, process.env.HOME, 'a b']);
    expect(stub.recorder.messages).toEqual([]);
  });

  it('stops: restarted (its progress forgotten); stops again and again: one message, then Restart Server works', async () => {
    const pidFile = join(root, 'pid');
    const broken = join(root, 'broken');
    const path = script(root, 'flaky', `if [ -e '${broken}' ]; then echo "MemoryError: out of memory" >&2; exit 3; fi\n`
      + `echo $$ > '${pidFile}'\nexec '${server()}' "$@"`);
    const { api } = await activateWith({ 'server.command': path, 'server.env': {} });
    const item = stub.recorder.statusItems.at(-1)!;
    const idle = '$(database) ripple: 1 repository · 1 file';
    await waitFor('the index', () => item.text === idle);
    const first = Number(readFileSync(pidFile, 'utf8'));
    // the server reported progress, then died before its end
    api.status.progress('lost', { kind: 'begin', title: 'ripple: indexing ws' });
    expect(item.text).toBe('$(sync~spin) ripple: indexing ws');
    const before = item.texts.length;
    process.kill(first, 'SIGKILL');
    await waitFor('a new server', () => Number(readFileSync(pidFile, 'utf8')) !== first && api.session.running);
    await waitFor('the index again', () => item.text === idle);
    expect(item.texts.slice(before)).toContain('$(sync~spin) ripple: restarting');
    expect(stub.recorder.messages).toEqual([]);
    // from now on every start fails: 2 more restarts are allowed within 3 minutes, then it stays stopped
    writeFileSync(broken, '');
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    await waitFor('the message', () => stub.recorder.messages.length > 0, 60_000);
    const text = 'ripplegraph: the language server stopped again after 3 restarts within 3 minutes (last: MemoryError: '
      + 'out of memory) and is not started again. See the "ripplegraph" output, then run "Ripple: Restart Server".';
    expect(stub.recorder.messages).toEqual([{ kind: 'error', items: ['Show Output', 'Restart Server'], text }]);
    expect([item.text, item.tooltip, api.session.running]).toEqual(['$(warning) ripple: no server', text, undefined]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(stub.recorder.messages.length).toBe(1); // no loop
    await stub.vscode.commands.executeCommand('ripplegraph.semanticSearch');
    expect(stub.recorder.messages.at(-1)).toEqual({ kind: 'error', items: [], text });
    // the server is fixed: Restart Server starts it (its commands registered again)
    rmSync(broken);
    stub.recorder.messages.length = 0;
    await stub.vscode.commands.executeCommand('ripplegraph.restartServer');
    expect(api.session.running).toBeDefined();
    await waitFor('the index', () => item.text === idle);
    expect(stub.recorder.messages).toEqual([]);
    expect(existsSync(broken)).toBe(false);
  }, 120_000);
});

describe('no folder open', () => {
  it('the server runs; the status bar says there is no folder; search finds nothing', async () => {
    stub.setFolders([]);
    const { api } = await activateWith({ 'server.command': server() });
    expect(api.session.running).toBeDefined();
    const item = stub.recorder.statusItems.at(-1)!;
    await waitFor('the status', () => item.text === '$(circle-slash) ripple: no folder');
    await stub.vscode.commands.executeCommand('ripplegraph.semanticSearch');
    const pick = stub.recorder.quickPicks.at(-1)!;
    pick.type('main');
    await waitFor('the answer', () => pick.items.length > 0 && !pick.busy);
    expect(pick.items.map((i) => i.label)).toEqual(['No match']);
    pick.hide();
    expect(stub.recorder.messages).toEqual([]);
  });
});
