import { describe, expect, it } from 'vitest';
import { callersText, fqnOf, hitToItem, kindIcon, searchItems, similarView, type SearchHit } from '../../src/lib/searchItems';

const range = (line: number) => ({ start: { line, character: 0 }, end: { line: line + 3, character: 0 } });
const folders = [{ uri: 'file:///ws/client', name: 'client' }];

const HIT: SearchHit = {
  uri: 'file:///ws/client/client/api.py', range: range(7), name: 'fetch_owner',
  id: 'client:client/api.OwnerClient.fetch_owner(1)', kind: 'method', score: 0.0325, callers: 1,
  fqn: 'client.api.OwnerClient.fetch_owner',
};

describe('search rows', () => {
  it('a hit shows kind, dotted name and path:line (1-based)', () => {
    expect(hitToItem(HIT, folders)).toEqual({
      label: '$(symbol-method) client.api.OwnerClient.fetch_owner',
      description: 'method · 1 caller',
      detail: 'client/client/api.py:8',
      uri: 'file:///ws/client/client/api.py',
      line: 7,
    });
  });

  it('without fqn the dotted name comes from the node id', () => {
    expect(fqnOf({ id: 'client:client/api.OwnerClient.fetch_owner(1)', name: 'fetch_owner' })).toBe('client.api.OwnerClient.fetch_owner');
    expect(fqnOf({ id: 'petclinic:src/main/java/org/example/OwnerRepository.OwnerRepository.findById(int)', name: 'findById' }))
      .toBe('src.main.java.org.example.OwnerRepository.OwnerRepository.findById');
    expect(fqnOf({ id: '', name: 'x' })).toBe('x');
  });

  it('ripple: hits show repo/path; kinds have icons; callers pluralised', () => {
    const [item] = searchItems({ hits: [{ ...HIT, uri: 'ripple:/billing/billing/service.py', range: range(0), kind: 'function',
      callers: 0, fqn: undefined, id: 'billing:billing/service.charge_owner(2)' }] }, folders);
    expect([item.label, item.description, item.detail]).toEqual([
      '$(symbol-function) billing.service.charge_owner', 'function · 0 callers', 'billing/billing/service.py:1']);
    expect(['class', 'file_section', 'config', 'sql', 'doc', 'other'].map(kindIcon)).toEqual([
      'symbol-class', 'symbol-file', 'settings-gear', 'database', 'book', 'symbol-misc']);
    expect(callersText(2)).toBe('2 callers');
    expect(searchItems(null, folders)).toEqual([]);
  });
});

describe('similar code view', () => {
  const target = { id: 'client:client/api.OwnerClient.fetch_owner(1)', name: 'client.api.OwnerClient.fetch_owner' };

  it('rows like search rows under a title naming the symbol', () => {
    const view = similarView({ target, hits: [{ ...HIT, id: 'client:client/api.OwnerClient._get(1)', fqn: 'client.api.OwnerClient._get',
      range: range(10) }], notes: [] }, folders);
    expect(view).toEqual({
      kind: 'pick', title: 'Ripple: Code Similar to client.api.OwnerClient.fetch_owner', empty: 'No similar code',
      items: [{ label: '$(symbol-method) client.api.OwnerClient._get', description: 'method · 1 caller',
        detail: 'client/client/api.py:11', uri: 'file:///ws/client/client/api.py', line: 10 }],
    });
  });

  it('no hits: the server\'s note says why', () => {
    expect(similarView({ target, hits: [], notes: ['client:client/api.OwnerClient.fetch_owner(1) has no embedding yet'] }, folders))
      .toEqual({ kind: 'pick', title: 'Ripple: Code Similar to client.api.OwnerClient.fetch_owner', items: [],
        empty: 'No similar code: client:client/api.OwnerClient.fetch_owner(1) has no embedding yet' });
  });

  it('no symbol at the cursor: a message, no QuickPick', () => {
    expect(similarView({ target: null, hits: [], notes: ['no class, method or function here: put the cursor on one'] }, folders))
      .toEqual({ kind: 'message', text: 'ripplegraph: no class, method or function here: put the cursor on one' });
    expect(similarView(null, folders)).toEqual({ kind: 'message', text: 'ripplegraph: no class, method or function at the cursor.' });
  });
});
