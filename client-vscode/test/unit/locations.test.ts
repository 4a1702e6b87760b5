import { describe, expect, it } from 'vitest';
import { displayPath, isDocumentUri, parseLocationTarget, parseRippleUri } from '../../src/lib/locations';

describe('parseLocationTarget', () => {
  it.each([
    ['file:///ws/petclinic/src/Owner.java#L12', { uri: 'file:///ws/petclinic/src/Owner.java', line: 12 }],
    ['ripple:/billing/billing/service.py#L3', { uri: 'ripple:/billing/billing/service.py', line: 3 }],
    ['file:///ws/a%20b/x.py#L7C4', { uri: 'file:///ws/a%20b/x.py', line: 7 }],
    ['file:///ws/x.py#L7-L9', { uri: 'file:///ws/x.py', line: 7 }],
    ['FILE:///ws/x.py#L1', { uri: 'FILE:///ws/x.py', line: 1 }],
  ])('%s', (target, expected) => {
    expect(parseLocationTarget(target)).toEqual(expected);
  });

  it.each([
    'https://example.com/a#L3',
    'file:///ws/x.py',
    'file:///ws/x.py#L0',
    'file:///ws/x.py#line3',
    'ripple:#L3',
    'ripple:/#L3',
    '#L3',
    'javascript:alert(1)#L3',
    'command:ripplegraph.openLocation?x#L2',
  ])('%s is not a location', (target) => {
    expect(parseLocationTarget(target)).toBeUndefined();
  });
});

describe('uris', () => {
  it('isDocumentUri', () => {
    expect([isDocumentUri('file:///a.py'), isDocumentUri('ripple:/r/a.py'), isDocumentUri('untitled:x'),
      isDocumentUri('file://')]).toEqual([true, true, false, false]);
  });

  it('parseRippleUri is the inverse of the server ripple_uri', () => {
    expect(parseRippleUri('ripple:/billing/billing/service.py')).toEqual({ repo: 'billing', path: 'billing/service.py' });
    expect(parseRippleUri('ripple:/my%2Frepo/src/a%20b.py')).toEqual({ repo: 'my/repo', path: 'src/a b.py' });
    expect(parseRippleUri('ripple:/only')).toBeUndefined();
    expect(parseRippleUri('ripple:/repo/')).toBeUndefined();
    expect(parseRippleUri('file:///a/b')).toBeUndefined();
  });

  it('displayPath: innermost workspace folder, ripple repo, else the file path', () => {
    const folders = [
      { uri: 'file:///ws/petclinic', name: 'petclinic' },
      { uri: 'file:///ws/petclinic/module/', name: 'module' },
      { uri: 'file:///ws/client', name: 'client' },
    ];
    expect(displayPath('file:///ws/petclinic/src/Owner.java', folders)).toBe('petclinic/src/Owner.java');
    expect(displayPath('file:///ws/petclinic/module/A.java', folders)).toBe('module/A.java');
    expect(displayPath('file:///ws/client%20x/a.py', folders)).toBe('/ws/client x/a.py');
    expect(displayPath('file:///ws/clientele/a.py', folders)).toBe('/ws/clientele/a.py');
    expect(displayPath('ripple:/billing/billing/service.py', folders)).toBe('billing/billing/service.py');
    expect(displayPath('untitled:Untitled-1', folders)).toBe('untitled:Untitled-1');
  });
});
