import { describe, expect, it } from 'vitest';
import { hasTargets, locationArgs, openLocationHref, renderReport, reportLocations, reportPage, reportTitle } from '../../src/lib/report';

const MD = [
  '# Blast radius of `OwnerRepository.findById`',
  '',
  '- [petclinic/src/Owner.java:11](file:///ws/petclinic/src/Owner.java#L11) `show`',
  '- [billing/service.py:3](ripple:/billing/billing/service.py#L3) charge_owner',
  '- [docs](https://example.com/docs) and [bad](javascript:alert(1)) and <script>alert(1)</script>',
  '',
].join('\n');

/** What indexed code may put into a report: names and paths are anyone's. */
const HOSTILE = [
  '# Blast radius of `get_owner_by_id`',
  '',
  '- ![pixel](https://evil.example/p.png?leak=1) ![x](data:image/png;base64,AAAA)',
  '- [run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D) and [open](command:ripplegraph.openLocation?%5B%22file%3A%2F%2F%2Fetc%2Fpasswd%22%2C1%5D)',
  '- [**a** `b`](https://evil.example) [file:///etc/passwd#L0](file:///etc/passwd#L0) <img src=x onerror=alert(1)>',
  '',
].join('\n');

describe('report', () => {
  it('location links become command links; other links are their text; html is escaped', () => {
    const show = encodeURIComponent(JSON.stringify(['file:///ws/petclinic/src/Owner.java', 11]));
    const charge = encodeURIComponent(JSON.stringify(['ripple:/billing/billing/service.py', 3]));
    expect(renderReport(MD)).toBe([
      '<h1>Blast radius of <code>OwnerRepository.findById</code></h1>',
      '<ul>',
      `<li><a href="command:ripplegraph.openLocation?${show}" title="file:///ws/petclinic/src/Owner.java:11">petclinic/src/Owner.java:11</a> <code>show</code></li>`,
      `<li><a href="command:ripplegraph.openLocation?${charge}" title="ripple:/billing/billing/service.py:3">billing/service.py:3</a> charge_owner</li>`,
      '<li>docs and [bad](javascript:alert(1)) and &lt;script&gt;alert(1)&lt;/script&gt;</li>',
      '</ul>',
      '',
    ].join('\n'));
  });

  it('no image, no other command, no web link: only the text of what the indexed code wrote', () => {
    expect(renderReport(HOSTILE)).toBe([
      '<h1>Blast radius of <code>get_owner_by_id</code></h1>',
      '<ul>',
      '<li>pixel x</li>',
      '<li>run and open</li>',
      '<li><strong>a</strong> <code>b</code> [file:///etc/passwd#L0](file:///etc/passwd#L0) &lt;img src=x onerror=alert(1)&gt;</li>',
      '</ul>',
      '',
    ].join('\n'));
    expect(reportLocations(HOSTILE)).toEqual([]);
  });

  it('paths with spaces, #, unicode and brackets in location links', () => {
    const uri = 'file:///ws/my%20ws%231%20%C3%BC/pkg/a%20b%23c%20%C3%BC.py';
    const md = `- [pkg/a b#c ü.py:3](${uri}#L3) and [x](ripple:/my%20repo/x%5Dy.py#L9999)`;
    expect(reportLocations(md)).toEqual([{ uri, line: 3 }, { uri: 'ripple:/my%20repo/x%5Dy.py', line: 9999 }]);
    expect(renderReport(md)).toContain(`>pkg/a b#c ü.py:3</a>`);
  });

  it('the command href carries [uri, line] and locationArgs reads it back', () => {
    const href = openLocationHref({ uri: 'file:///a%20b/x.py', line: 4 });
    expect(href).toBe('command:ripplegraph.openLocation?%5B%22file%3A%2F%2F%2Fa%2520b%2Fx.py%22%2C4%5D');
    expect(locationArgs(JSON.parse(decodeURIComponent(href.split('?')[1])))).toEqual({ uri: 'file:///a%20b/x.py', line: 4 });
    expect([locationArgs(['x', 0]), locationArgs(['x', 1.5]), locationArgs([3, 1]), locationArgs([])]).toEqual(
      [undefined, undefined, undefined, undefined]);
  });

  it('lists the locations a report links to, in order', () => {
    expect(reportLocations(MD)).toEqual([
      { uri: 'file:///ws/petclinic/src/Owner.java', line: 11 },
      { uri: 'ripple:/billing/billing/service.py', line: 3 },
    ]);
  });

  it('title from the first heading', () => {
    expect(reportTitle(MD)).toBe('Blast radius of OwnerRepository.findById');
    expect(reportTitle('## [x](file:///a#L1) impact ##\n# second')).toBe('x impact');
    expect(reportTitle('no heading')).toBe('Blast radius');
    expect(reportTitle('# Blast radius of `target_fn`')).toBe('Blast radius of target_fn');
    expect(reportTitle('# Blast radius of ``a`b__c``\n')).toBe('Blast radius of a`b__c');
    expect(reportTitle('#    \n')).toBe('Blast radius');
  });

  it('the page has a strict CSP (no script, image or other resource) and no script', () => {
    const page = reportPage('# A <b>', 'A <b>', 'vscode-webview://abc');
    expect(page).toBe([
      '<!DOCTYPE html>',
      '<html lang="en">',
      '<head>',
      '<meta charset="UTF-8">',
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src vscode-webview://abc 'unsafe-inline';">`,
      '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
      '<title>A &lt;b&gt;</title>',
      page.split('\n')[7],
      '</head>',
      '<body>',
      '<h1>A &lt;b&gt;</h1>',
      '</body>',
      '</html>',
      '',
    ].join('\n'));
    expect(page.split('\n')[7]).toMatch(/^<style>body\{.*<\/style>$/);
    expect(page).not.toContain('<script');
  });

  it('with the diagram script: only that script, by its nonce; the Mermaid block a figure of its escaped source', () => {
    const md = '# B\n\n```mermaid\nflowchart LR\n  t0(["a#lt;b"]) --> c0["</code></pre><script>x()</script>"]\n```\n\n```\nplain\n```\n';
    const links = [{ id: 't0', label: 'a<b', uri: 'file:///w/a.py', line: 3 }];
    const page = reportPage(md, 'B', 'vscode-webview://abc', { scriptUri: 'vscode-resource://x/out/diagram.js?a&b', nonce: 'n0+/=', links });
    expect(page).toContain(`content="default-src 'none'; style-src vscode-webview://abc 'unsafe-inline'; script-src 'nonce-n0+/=';"`);
    expect(page).toContain([
      '<h1>B</h1>',
      '<figure class="ripple-diagram"><pre><code class="language-mermaid">flowchart LR',
      '  t0([&quot;a#lt;b&quot;]) --&gt; c0[&quot;&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;x()&lt;/script&gt;&quot;]',
      '</code></pre></figure>',
      '<pre><code>plain',
      '</code></pre>',
      '<script type="application/json" id="ripple-diagram-links">[{"id":"t0","label":"a\\u003cb","uri":"file:///w/a.py","line":3}]</script>',
      '<script nonce="n0+/=" src="vscode-resource://x/out/diagram.js?a&amp;b"></script>',
      '</body>',
    ].join('\n'));
    expect(page.match(/<script/g)).toHaveLength(2);
    expect(() => reportPage(md, 'B', 'c', { scriptUri: 'x', nonce: "a' 'unsafe-inline", links })).toThrow('not a nonce');
  });

  it('a report without targets found nothing', () => {
    expect([hasTargets({ targets: [] }), hasTargets({ targets: [{ id: 'x' }] }), hasTargets({}), hasTargets(null)])
      .toEqual([false, true, true, true]);
  });
});
