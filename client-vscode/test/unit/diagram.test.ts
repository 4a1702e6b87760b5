import { describe, expect, it } from 'vitest';
import { DIAGRAM_LINKS_ID, diagramLinks, linksBlock, openMessageLocation } from '../../src/lib/diagram';

describe('diagram links', () => {
  it('reads the links of a ripple/blastRadius diagram, leaving out malformed entries', () => {
    const good = { id: 'c0', label: 'show', uri: 'file:///w/a.py', line: 10 };
    expect(diagramLinks({ mermaid: 'flowchart LR', links: [good, { ...good, extra: 1, id: 'c1' }] }))
      .toEqual([good, { ...good, id: 'c1' }]);
    expect(diagramLinks({ links: [{ ...good, line: 0 }, { ...good, line: 1.5 }, { ...good, uri: 3 }, { ...good, id: undefined },
      { id: 'x', uri: 'u', line: 1 }, null, 'c0']})).toEqual([]);
    // an older server sends no diagram
    expect([diagramLinks(undefined), diagramLinks(null), diagramLinks({}), diagramLinks({ links: 'x' })]).toEqual([[], [], [], []]);
  });

  it('the JSON block cannot be closed or turned into markup by a label or path', () => {
    const block = linksBlock([{ id: 't0', label: '</script><script>alert(1)</script>', uri: 'file:///a&b\u2028', line: 1 }]);
    expect(block).toBe(`<script type="application/json" id="${DIAGRAM_LINKS_ID}">`
      + '[{"id":"t0","label":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e","uri":"file:///a\\u0026b\\u2028","line":1}]'
      + '</script>');
    const json = block.slice(block.indexOf('>') + 1, block.lastIndexOf('</script>'));
    expect(JSON.parse(json)[0].label).toBe('</script><script>alert(1)</script>');
    expect(JSON.parse(json)[0].uri).toBe('file:///a&b\u2028');
  });

  it('a message from the page opens a location only when it is an open request with a 1-based line', () => {
    expect(openMessageLocation({ command: 'open', uri: 'ripple:/r/a.py', line: 3 })).toEqual({ uri: 'ripple:/r/a.py', line: 3 });
    for (const bad of [{ command: 'run', uri: 'x', line: 3 }, { command: 'open', uri: 'x', line: 0 }, { command: 'open', uri: 1, line: 2 },
      { command: 'open', uri: 'x', line: '2' }, 'open', null, undefined]) {
      expect(openMessageLocation(bad)).toBeUndefined();
    }
  });
});
