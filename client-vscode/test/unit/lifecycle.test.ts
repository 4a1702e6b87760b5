import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { OutputTail, RestartPolicy } from '../../src/lib/lifecycle';

describe('RestartPolicy', () => {
  it('allows max restarts within the window, then refuses until old ones leave it', () => {
    let now = 0;
    const policy = new RestartPolicy(3, 180_000, () => now);
    const answers = [];
    for (const t of [0, 1_000, 2_000, 3_000, 179_999, 180_000, 181_000, 182_000, 400_000]) {
      now = t;
      answers.push(policy.stopped());
    }
    // 0, 1s, 2s restart; 3s and 179.999s are refused (3 within 3 minutes); at 180s the first left the window
    expect(answers).toEqual([true, true, true, false, false, true, true, true, true]);
  });

  it('a server that stops once a day is always restarted', () => {
    let now = 0;
    const policy = new RestartPolicy(3, 180_000, () => now);
    const answers = [];
    for (let day = 0; day < 10; day += 1) {
      now = day * 86_400_000;
      answers.push(policy.stopped());
    }
    expect(answers.every((a) => a)).toBe(true);
  });
});

describe('OutputTail', () => {
  it('keeps the last lines of the process followed last, echoes each, settles when the stream ends', async () => {
    const tail = new OutputTail(2);
    const echoed: string[] = [];
    const first = new PassThrough();
    tail.follow(first, (l) => echoed.push(l));
    first.end('Traceback (most recent call last):\nImportError: old\n');
    await tail.settled(1000);
    expect(tail.problem()).toBe('ImportError: old');
    const second = new PassThrough();
    tail.follow(second, (l) => echoed.push(l));
    expect(tail.problem()).toBeUndefined();
    second.write('a\nb\n');
    second.end('c\nd');
    await tail.settled(1000);
    expect([tail.problem(), echoed]).toEqual(['d', ['Traceback (most recent call last):', 'ImportError: old', 'a', 'b', 'c', 'd']]);
  });

  it('settled gives up after the timeout when the stream stays open', async () => {
    const tail = new OutputTail();
    tail.follow(new PassThrough(), () => undefined);
    const start = Date.now();
    await tail.settled(50);
    expect(Date.now() - start).toBeGreaterThanOrEqual(45);
    expect(tail.problem()).toBeUndefined();
  });
});
