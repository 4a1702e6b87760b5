/// <reference lib="dom" />
// (the callbacks given to page.evaluate run in the browser)
/**
 * The blast-radius view in a real browser: the bundled extension (stub of the VS Code API) asks the
 * real `ripple serve` for the blast radius of `forget_owner_name` in the multi-service fixture
 * (tests/fixtures/services: four repositories in one index; the walk crosses a Kafka topic into the
 * Java service and ends at its PUT endpoint), and the page it shows is opened in headless Chromium
 * (the distribution's package, driven by puppeteer-core over CDP; nothing is downloaded) from a file,
 * the bundled script out/diagram.js loaded under the page's own content security policy. The test
 * reads the drawn SVG: exactly the expected nodes, edges and services, each code node a link to its
 * file and line; a click goes back to the extension, which opens the editor there. A screenshot is
 * saved to $RIPPLE_DIAGRAM_SCREENSHOT (default /tmp/diagram/blast-radius.png).
 *
 * Skipped, saying so in its name, when no Chromium is installed ($CHROMIUM, else `chromium`,
 * `chromium-browser` or `google-chrome` on PATH); .ci/run installs Debian's `chromium`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { URI } from 'vscode-uri';
import { findExecutable } from '../../src/lib/settings';
import { activate, loadExtension, server, waitFor } from './harness';
import { createVscodeStub, type StubWebviewPanel } from './vscodeStub';

const CHROMIUM = [process.env.CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome']
  .map((name) => (name ? findExecutable(name, process.env.PATH) : undefined)).find((path) => path !== undefined);
const SERVICES = resolve(__dirname, '../../../tests/fixtures/services');
const REPOS = ['owners-service', 'visits-service', 'frontend', 'notifications-service'];
const JAVA = 'owners-service/src/main/java/org/shop/owners';
const SCREENSHOT = process.env.RIPPLE_DIAGRAM_SCREENSHOT || join(tmpdir(), 'diagram', 'blast-radius.png');

interface DrawnNode {
  id: string;
  text: string;
  uri: string | undefined;
  line: string | undefined;
  role: string | null;
}

const title = CHROMIUM === undefined
  ? 'the blast-radius view in headless Chromium — SKIPPED: no Chromium installed (apt-get install chromium, or set CHROMIUM)'
  : 'the blast-radius view in headless Chromium';

if (CHROMIUM === undefined) {
  process.stderr.write('diagram.test.ts: SKIPPED: no Chromium installed (apt-get install chromium, or set CHROMIUM to a Chromium binary)\n');
}

describe.skipIf(CHROMIUM === undefined)(title, () => {
  let root: string;
  let stub: ReturnType<typeof createVscodeStub>;
  let active: Awaited<ReturnType<typeof activate>>;
  let browser: Browser;
  let page: Page;
  let panel: StubWebviewPanel;
  const requested: string[] = [];
  const uriOf = (rel: string) => URI.file(join(root, rel)).toString();
  // the other repositories are not workspace folders: their files are `ripple:` documents
  const rippleUri = (rel: string) => `ripple:/${rel}`;
  const node = (id: string) => `figure.ripple-diagram svg g.node[id$="-flowchart-${id}-${'t0 c0 c1 c2 c3 e0 k0'.split(' ').indexOf(id)}"]`;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'ripple-diagram-'));
    cpSync(SERVICES, root, { recursive: true });
    const db = join(root, 'visits-service', '.ripple', 'index.db');
    for (const repo of REPOS) {
      execFileSync(server(), ['index', join(root, repo), '--db', db, '--repo', repo, '--product', 'shop', '--no-embed', '--jobs', '1', '--json'],
        { stdio: 'pipe' });
    }
    stub = createVscodeStub({
      settings: { 'server.command': server(), 'server.embed': false },
      folders: [{ name: 'visits-service', path: join(root, 'visits-service') }],
    });
    active = await activate(loadExtension(stub));
    await waitFor('the index', () => /^\$\(database\) ripple: 1 repository · \d+ files$/.test(stub.recorder.statusItems.at(-1)?.text ?? ''));
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    page.on('request', (request) => {
      requested.push(request.url());
    });
    // what the webview host gives the page: acquireVsCodeApi (posted messages kept), and a record of CSP violations
    await page.evaluateOnNewDocument(() => {
      const w = window as any;
      w.posted = [];
      w.violations = [];
      w.acquireVsCodeApi = () => ({ postMessage: (message: unknown) => w.posted.push(message) });
      document.addEventListener('securitypolicyviolation', (e: SecurityPolicyViolationEvent) => w.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await active?.stop();
    if (root) {
      rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    }
  });

  it('draws targets -> callers -> topic / endpoint by service, each code node a link to its file and line', async () => {
    stub.setCursor(join(root, 'visits-service', 'visits', 'store.py'), 8, 6);
    await stub.vscode.commands.executeCommand('ripplegraph.blastRadius');
    panel = stub.recorder.panels.at(-1)!;
    expect(panel.title).toBe('Blast radius of forget_owner_name');
    expect(panel.options).toEqual({ enableScripts: true, enableCommandUris: ['ripplegraph.openLocation'],
      localResourceRoots: [URI.file(resolve(__dirname, '../../out'))] });
    const html = panel.webview.html;
    const [, nonce] = /<script nonce="([^"]+)" src="file:[^"]+\/out\/diagram\.js"><\/script>/.exec(html) ?? [];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`content="default-src 'none'; style-src vscode-webview://stub 'unsafe-inline'; script-src 'nonce-${nonce}';"`);
    const file = join(root, 'view.html');
    writeFileSync(file, html);
    await page.goto(URI.file(file).toString());
    await page.waitForSelector('figure.ripple-diagram[data-state]', { timeout: 60_000 });
    expect(await page.$eval('figure.ripple-diagram', (f) => (f as HTMLElement).dataset.state)).toBe('drawn');

    const nodes: DrawnNode[] = await page.$$eval('figure.ripple-diagram svg g.node', (gs) => gs.map((g) => ({
      id: /flowchart-(.+)-\d+$/.exec(g.id)?.[1] ?? g.id, // mermaid's node id: <diagram>-flowchart-<id>-<n>
      text: (g.querySelector('.nodeLabel, text')?.textContent ?? '').trim(),
      uri: (g as SVGGElement).dataset.uri,
      line: (g as SVGGElement).dataset.line,
      role: g.getAttribute('role'),
    })));
    const store = uriOf('visits-service/visits/store.py');
    const events = uriOf('visits-service/visits/events.py');
    const controller = rippleUri(`${JAVA}/OwnerController.java`);
    const sorted = (list: DrawnNode[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
    expect(sorted(nodes)).toEqual(sorted([
      { id: 't0', text: 'forget_owner_name', uri: store, line: '9', role: 'link' },
      { id: 'c0', text: 'consume_owner_events', uri: events, line: '7', role: 'link' },
      { id: 'c1', text: 'OwnerEventPublisher.ownerChanged', uri: rippleUri(`${JAVA}/OwnerEventPublisher.java`), line: '14', role: 'link' },
      { id: 'c2', text: 'OwnerService.rename', uri: rippleUri(`${JAVA}/OwnerService.java`), line: '19', role: 'link' },
      { id: 'c3', text: 'OwnerController.renameOwner', uri: controller, line: '24', role: 'link' },
      { id: 'e0', text: 'PUT /api/owners/{ownerId}', uri: controller, line: '24', role: 'link' },
      { id: 'k0', text: 'topic owner-events', uri: events, line: '7', role: 'link' },
    ]));
    const edges: string[] = await page.$$eval('figure.ripple-diagram svg path[data-edge="true"]',
      (paths) => paths.map((p) => p.getAttribute('data-id') ?? p.id));
    expect(edges.map((id) => /^L_(\w+?)_(\w+?)_\d+$/.exec(id)?.slice(1).join(' -> ')).sort()).toEqual(
      ['c0 -> k0', 'c1 -> c2', 'c2 -> c3', 'c3 -> e0', 'k0 -> c1', 't0 -> c0']);
    const services: string[] = await page.$$eval('figure.ripple-diagram svg g.cluster',
      (gs) => gs.map((g) => (g.querySelector('.nodeLabel, text')?.textContent ?? '').trim()));
    expect(services.sort()).toEqual(['owners-service', 'visits-service']);

    // nothing but the page and its script was loaded, and the page's CSP blocked nothing
    expect([...new Set(requested)].map((u) => u.slice(u.lastIndexOf('/') + 1))).toEqual(['view.html', 'diagram.js']);
    expect(await page.evaluate(() => (window as any).violations)).toEqual([]);
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT as `${string}.png`, fullPage: true });
  }, 120_000);

  it('a click on a node (or Enter on it) opens its code in the editor at its line', async () => {
    await page.click(node('c3'));
    await page.$eval(node('c1'), (g) => (g as SVGGElement).focus()); // tabindex 0: reachable from the keyboard
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('link');
    await page.keyboard.press('Enter');
    const posted: unknown[] = await page.evaluate(() => (window as any).posted);
    const controller = rippleUri(`${JAVA}/OwnerController.java`);
    const publisher = rippleUri(`${JAVA}/OwnerEventPublisher.java`);
    expect(posted).toEqual([{ command: 'open', uri: controller, line: 24 }, { command: 'open', uri: publisher, line: 14 }]);
    stub.recorder.opened.length = 0;
    panel.receive(posted[0]);
    await waitFor('the editor', () => stub.recorder.opened.length === 1);
    expect(stub.recorder.opened[0]).toMatchObject({ uri: controller, selection: { line: 23, character: 0 }, viewColumn: 1 });
    expect(stub.recorder.opened[0].text.split('\n')[23]).toBe('    @PutMapping(Paths.OWNER)');
    // a message that is not an open request, or names no valid line, opens nothing
    for (const bad of [{ command: 'run', uri: controller, line: 3 }, { command: 'open', uri: controller, line: 0 }, 'open', null]) {
      panel.receive(bad);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(stub.recorder.opened.length).toBe(1);
  }, 60_000);
});
