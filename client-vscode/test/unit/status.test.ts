import { describe, expect, it } from 'vitest';
import { ProgressTracker, isBusy, statusFromIndex, type FolderStatus } from '../../src/lib/status';

const folder = (repo: string, extra: Partial<FolderStatus>): FolderStatus => ({
  uri: `file:///ws/${repo}`, repo, db: `/ws/${repo}/.ripple/index.db`, state: 'ready', phase: null, error: null, ...extra,
});

describe('index status', () => {
  it('ready folders: repositories and files', () => {
    expect(statusFromIndex({ folders: [folder('petclinic', { files: 3, nodes: 20, phase: 'done' }), folder('client', { files: 1, nodes: 1 })] }))
      .toEqual({ text: '$(database) ripple: 2 repositories · 4 files',
        tooltip: 'petclinic: ready · 3 files · 20 nodes\nclient: ready · 1 file · 1 node', busy: false, error: false });
  });

  it('indexing wins over errors; embedding when the graph is ready', () => {
    const indexing = statusFromIndex({ folders: [
      folder('petclinic', { state: 'indexing', phase: 'extract', files: 0, nodes: 0 }),
      folder('broken', { state: 'error', error: 'not an index' }),
    ] });
    expect(indexing).toEqual({ text: '$(sync~spin) ripple: indexing petclinic',
      tooltip: 'petclinic: indexing (extract) · 0 files · 0 nodes\nbroken: error · not an index', busy: true, error: false });
    expect(statusFromIndex({ folders: [folder('client', { phase: 'embed', files: 2 })] }).text).toBe('$(sync~spin) ripple: embedding client');
  });

  it('an index behind its checkout: a warning naming the repository, the message in the tooltip', () => {
    const behind = { state: 'behind' as const, behind: 12, message: 'index of billing is 12 commits behind HEAD (3 changed files not indexed)' };
    expect(statusFromIndex({ folders: [folder('billing', { files: 3, freshness: behind }), folder('web', { files: 1, freshness: { state: 'current', message: null } })] }))
      .toEqual({ text: '$(warning) ripple: index behind (billing)',
        tooltip: 'billing: ready · 3 files · index of billing is 12 commits behind HEAD (3 changed files not indexed)\nweb: ready · 1 file',
        busy: false, error: false });
    expect(statusFromIndex({ folders: [folder('web', { files: 1, freshness: { state: 'unknown', message: 'freshness of web unknown' } })] }).text)
      .toBe('$(database) ripple: 1 repository · 1 file');
  });

  it('failed indexes; no folder', () => {
    expect(statusFromIndex({ folders: [folder('a', { files: 1 }), folder('broken', { state: 'error', error: 'corrupt' })] }))
      .toEqual({ text: '$(error) ripple: 1 of 2 indexes failed', tooltip: 'a: ready · 1 file\nbroken: error · corrupt', busy: false, error: true });
    expect(statusFromIndex({ folders: [] }).text).toBe('$(circle-slash) ripple: no folder');
  });

  it('busy: indexing, or a phase other than done', () => {
    expect([
      isBusy(folder('a', {})), isBusy(folder('a', { phase: 'done' })), isBusy(folder('a', { phase: 'embed' })),
      isBusy(folder('a', { state: 'indexing' })), isBusy(folder('a', { state: 'error', phase: 'done' })),
    ]).toEqual([false, false, true, true, false]);
  });
});

describe('progress', () => {
  it('follows begin / report / end per token', () => {
    const t = new ProgressTracker();
    expect(t.view()).toBeUndefined();
    expect(t.update('p', { kind: 'report', message: 'ignored before begin' })).toBe(false);
    expect(t.view()).toBeUndefined();
    t.update('p', { kind: 'begin', title: 'ripple: indexing petclinic', percentage: 0 });
    expect(t.view()?.text).toBe('$(sync~spin) ripple: indexing petclinic');
    t.update('p', { kind: 'report', message: 'extract 2/3', percentage: 66 });
    t.update(7, { kind: 'begin', title: 'ripple: indexing client' });
    expect(t.view()).toEqual({ text: '$(sync~spin) ripple: indexing petclinic · extract 2/3 (+1)',
      tooltip: 'ripple: indexing petclinic: extract 2/3\nripple: indexing client', busy: true, error: false });
    expect(t.update('p', { kind: 'end', message: '3 files indexed' })).toBe(true);
    expect(t.view()?.text).toBe('$(sync~spin) ripple: indexing client');
    t.update(7, { kind: 'end' });
    expect(t.view()).toBeUndefined();
  });

  it('clear forgets the progress of a server that stopped', () => {
    const t = new ProgressTracker();
    t.update('p', { kind: 'begin', title: 'ripple: indexing petclinic' });
    t.clear();
    expect(t.view()).toBeUndefined();
    expect(t.update('p', { kind: 'report', message: 'late' })).toBe(false);
    expect(t.view()).toBeUndefined();
  });
});
