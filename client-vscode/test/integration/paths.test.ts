/**
 * Awkward names through the bundled extension and the real `ripple serve` (stub of the VS Code API,
 * ./vscodeStub.ts): a workspace folder and files whose paths hold spaces, `#` and non-ASCII letters,
 * a repository that is not on this disk with such paths (`ripple:` URIs), and search queries that are
 * punctuation, very long or not Latin.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { URI } from 'vscode-uri';
import { activate, loadExtension, server, waitFor } from './harness';
import { createVscodeStub } from './vscodeStub';

const FOLDER = 'my ws#1 ü';
const FILE = 'pkg/a b#c ü.py';
const SOURCE = 'def target_fn(x):\n    return x\n\n\ndef caller_fn():\n    return target_fn(1)\n';
const REMOTE = 'def remote_helper():\n    return 2\n';

let root: string;
let ws: string;
let stub: ReturnType<typeof createVscodeStub>;
let active: Awaited<ReturnType<typeof activate>>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ripple-paths-'));
  ws = join(root, FOLDER);
  mkdirSync(join(ws, 'pkg'), { recursive: true });
  writeFileSync(join(ws, FILE), SOURCE);
  // a repository indexed into the folder's index from a checkout that is then deleted
  const checkout = join(root, 'other checkout');
  mkdirSync(join(checkout, 'dir #2'), { recursive: true });
  writeFileSync(join(checkout, 'dir #2', 'ü x.py'), REMOTE);
  const db = join(ws, '.ripple', 'index.db');
  for (const [path, repo] of [[ws, FOLDER], [checkout, 'other repo']]) {
    execFileSync(server(), ['index', path, '--db', db, '--repo', repo, '--no-embed', '--jobs', '1', '--json'], { stdio: 'pipe' });
  }
  rmSync(checkout, { recursive: true });
  stub = createVscodeStub({ settings: { 'server.command': server(), 'server.embed': false }, folders: [{ name: FOLDER, path: ws }] });
  active = await activate(loadExtension(stub));
  await waitFor('the index', () => stub.recorder.statusItems.at(-1)!.text === '$(database) ripple: 1 repository · 1 file');
}, 120_000);

afterAll(async () => {
  await active?.stop();
  // a stopped server may still be closing its index (journal files come and go): retry
  rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
});

async function search(query: string) {
  await stub.vscode.commands.executeCommand('ripplegraph.semanticSearch');
  const pick = stub.recorder.quickPicks.at(-1)!;
  pick.type(query);
  await waitFor('the answer', () => pick.items.length > 0 && !pick.busy);
  return pick;
}

describe('paths with spaces, # and non-ASCII letters', () => {
  it('a search row shows the decoded path and opens the file', async () => {
    const pick = await search('target_fn');
    const row = pick.items.find((i) => String(i.label).endsWith('target_fn'))!;
    expect([row.description, row.detail]).toEqual(['function · 1 caller', `${FOLDER}/${FILE}:1`]);
    stub.recorder.opened.length = 0;
    pick.accept(row);
    await waitFor('the editor', () => stub.recorder.opened.length === 1);
    expect(stub.recorder.opened[0]).toMatchObject({ uri: URI.file(join(ws, FILE)).toString(), text: SOURCE, selection: { line: 0, character: 0 } });
  });

  it('a file of a repository not on disk: ripple: URI with encoded characters, read through the server', async () => {
    const pick = await search('remote_helper');
    const row = pick.items.find((i) => String(i.label).endsWith('remote_helper'))!;
    expect(row.detail).toBe('other repo/dir #2/ü x.py:1');
    stub.recorder.opened.length = 0;
    pick.accept(row);
    await waitFor('the editor', () => stub.recorder.opened.length === 1);
    expect(stub.recorder.opened[0]).toMatchObject({ uri: 'ripple:/other%20repo/dir%20%232/%C3%BC%20x.py', text: REMOTE });
  });

  it('Blast Radius: the links of such paths open them', async () => {
    stub.setCursor(join(ws, FILE), 0, 5);
    await stub.vscode.commands.executeCommand('ripplegraph.blastRadius');
    const panel = stub.recorder.panels.at(-1)!;
    expect(panel.title).toBe('Blast radius of target_fn');
    const links = [...panel.webview.html.matchAll(/href="command:ripplegraph\.openLocation\?([^"]+)"/g)]
      .map((m) => JSON.parse(decodeURIComponent(m[1])));
    const uri = URI.file(join(ws, FILE)).toString();
    expect(links).toEqual([[uri, 1], [uri, 6], [uri, 5]]); // the target, the call site, the caller (callers by hop)
    stub.recorder.opened.length = 0;
    await stub.vscode.commands.executeCommand('ripplegraph.openLocation', ...links[1]);
    expect(stub.recorder.opened).toMatchObject([{ uri, selection: { line: 5, character: 0 } }]);
    // a line past the end of the file opens its last line
    stub.recorder.opened.length = 0;
    await stub.vscode.commands.executeCommand('ripplegraph.openLocation', uri, 9999);
    expect(stub.recorder.opened).toMatchObject([{ uri, selection: { line: SOURCE.split('\n').length - 1, character: 0 } }]);
    expect(readFileSync(join(ws, FILE), 'utf8')).toBe(SOURCE);
  });

  it('a location that cannot be opened (deleted since indexed): a message, from the panel and the search', async () => {
    const gone = URI.file(join(ws, 'pkg', 'gone now.py')).toString();
    stub.recorder.messages.length = 0;
    await stub.vscode.commands.executeCommand('ripplegraph.openLocation', gone, 3);
    const pick = await search('target_fn');
    pick.accept({ label: 'x', hit: { uri: gone, line: 0 } });
    await waitFor('the message', () => stub.recorder.messages.length === 2);
    const text = `ripplegraph: ENOENT: no such file or directory, open '${join(ws, 'pkg', 'gone now.py')}'`;
    expect(stub.recorder.messages).toEqual([{ kind: 'error', text, items: [] }, { kind: 'error', text, items: [] }]);
    expect(stub.recorder.opened.at(-1)?.uri).not.toBe(gone);
  });
});

describe('search queries', () => {
  it.each([['punctuation', '"*()-:^{'], ['search syntax', 'NEAR(a'], ['not Latin', 'ü日本語😀'], ['5000 letters', 'x'.repeat(5000)]])(
    '%s: no match, no error', async (_what, query) => {
    stub.recorder.messages.length = 0;
      const pick = await search(query);
      expect(pick.items.map((i) => i.label)).toEqual(['No match']);
      pick.hide();
      expect(stub.recorder.messages).toEqual([]);
    });

  it('an empty or blank query sends nothing and shows nothing', async () => {
    await stub.vscode.commands.executeCommand('ripplegraph.semanticSearch');
    const pick = stub.recorder.quickPicks.at(-1)!;
    pick.type('target');
    await waitFor('the answer', () => pick.items.length > 0 && !pick.busy);
    pick.type('   ');
    expect([pick.items, pick.busy]).toEqual([[], false]);
    await new Promise((r) => setTimeout(r, 400));
    expect(pick.items).toEqual([]);
    pick.hide();
  });
});
