import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debounce, LiveSearch } from '../../src/lib/debounce';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('debounce', () => {
  it('calls once with the last arguments after the quiet time', () => {
    const calls: string[] = [];
    const f = debounce((s: string) => calls.push(s), 200);
    f('a');
    vi.advanceTimersByTime(150);
    f('ab');
    vi.advanceTimersByTime(150);
    f('abc');
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(199);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['abc']);
  });

  it('cancel drops the pending call; flush runs it now, once', () => {
    const calls: string[] = [];
    const f = debounce((s: string) => calls.push(s), 100);
    f('x');
    f.cancel();
    vi.advanceTimersByTime(500);
    expect(calls).toEqual([]);
    f('y');
    f.flush();
    f.flush();
    vi.advanceTimersByTime(500);
    expect(calls).toEqual(['y']);
  });
});

interface Pending {
  query: string;
  signal: AbortSignal;
  resolve: (value: string[]) => void;
  reject: (error: unknown) => void;
}

function harness() {
  const pending: Pending[] = [];
  const events: string[] = [];
  const live = new LiveSearch<string[]>({
    delayMs: 200,
    search: (query, signal) => new Promise((resolve, reject) => pending.push({ query, signal, resolve, reject })),
    onResult: (query, result) => events.push(`result ${query}: ${result.join(',')}`),
    onError: (query, error) => events.push(`error ${query}: ${(error as Error).message}`),
    onEmpty: () => events.push('empty'),
    onBusy: (busy) => events.push(`busy ${busy}`),
  });
  return { live, pending, events };
}

describe('LiveSearch', () => {
  it('sends one request per pause in typing, trimmed', async () => {
    const { live, pending, events } = harness();
    for (const text of ['f', 'fe', 'fetch ', ' fetch o ']) {
      live.update(text);
      vi.advanceTimersByTime(50);
    }
    vi.advanceTimersByTime(200);
    expect(pending.map((p) => p.query)).toEqual(['fetch o']);
    pending[0].resolve(['a', 'b']);
    await vi.runAllTimersAsync();
    expect(events).toEqual(['busy true', 'busy false', 'result fetch o: a,b']);
  });

  it('aborts the request of a superseded query and drops its late answer', async () => {
    const { live, pending, events } = harness();
    live.update('owner');
    vi.advanceTimersByTime(200);
    live.update('owner repo');
    expect(pending[0].signal.aborted).toBe(true);
    vi.advanceTimersByTime(200);
    pending[0].resolve(['stale']);
    pending[1].resolve(['fresh']);
    await vi.runAllTimersAsync();
    expect(pending.map((p) => p.query)).toEqual(['owner', 'owner repo']);
    expect(events).toEqual(['busy true', 'busy true', 'busy false', 'result owner repo: fresh']);
  });

  it('reports the error of the latest query only', async () => {
    const { live, pending, events } = harness();
    live.update('a');
    vi.advanceTimersByTime(200);
    live.update('b');
    vi.advanceTimersByTime(200);
    pending[0].reject(new Error('cancelled'));
    pending[1].reject(new Error('ripple: store is down'));
    await vi.runAllTimersAsync();
    expect(events).toEqual(['busy true', 'busy true', 'busy false', 'error b: ripple: store is down']);
  });

  it('an empty query sends nothing and clears', () => {
    const { live, pending, events } = harness();
    live.update('abc');
    live.update('   ');
    vi.advanceTimersByTime(1000);
    expect(pending).toEqual([]);
    expect(events).toEqual(['busy false', 'empty']);
  });

  it('flush sends at once; after dispose nothing is sent or reported', async () => {
    const { live, pending, events } = harness();
    live.update('now');
    live.flush();
    expect(pending.map((p) => p.query)).toEqual(['now']);
    live.dispose();
    expect(pending[0].signal.aborted).toBe(true);
    pending[0].resolve(['late']);
    live.update('more');
    vi.advanceTimersByTime(1000);
    await vi.runAllTimersAsync();
    expect(pending.length).toBe(1);
    expect(events).toEqual(['busy true']);
  });
});
