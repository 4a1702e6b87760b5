/**
 * The server process's life, without VS Code: how often a server that stops is started again, and
 * what it printed last on stderr (for the one message that says why it stopped).
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { problemLine } from './settings';

/**
 * Restarts of a server that stopped by itself: at most `max` within `windowMs`; one more stop in that
 * time means the server is left stopped (a server that crashes at every start is not started in a loop).
 */
export class RestartPolicy {
  private times: number[] = [];

  /** A policy of `max` restarts within `windowMs` milliseconds; `now` tells the time. */
  constructor(readonly max = 3, readonly windowMs = 180_000, private readonly now: () => number = Date.now) {}

  /** The server stopped: `true` when it may be started again (the restart is counted). */
  stopped(): boolean {
    const now = this.now();
    this.times = this.times.filter((t) => now - t < this.windowMs);
    if (this.times.length >= this.max) {
      return false;
    }
    this.times.push(now);
    return true;
  }
}

/** The last lines a process wrote to a stream (its stderr), each also handed to `echo`. */
export class OutputTail {
  private lines: string[] = [];
  private ended: Promise<void> = Promise.resolve();

  /** A tail keeping `keep` lines. */
  constructor(private readonly keep = 50) {}

  /** Follow `input` (a new process's stderr: what earlier processes wrote is forgotten). */
  follow(input: Readable, echo: (line: string) => void): void {
    this.lines = [];
    const reader = createInterface({ input, crlfDelay: Infinity, terminal: false, historySize: 0 });
    reader.on('line', (line) => {
      echo(line);
      this.lines.push(line);
      if (this.lines.length > this.keep) {
        this.lines.shift();
      }
    });
    this.ended = new Promise((resolve) => reader.once('close', () => resolve()));
  }

  /** What went wrong, by the lines kept (see {@link problemLine}), or `undefined` when nothing was written. */
  problem(): string | undefined {
    return problemLine(this.lines.join('\n'));
  }

  /** Resolves when the stream followed last has ended (the process exited), or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    return Promise.race([this.ended, timeout]).finally(() => clearTimeout(timer));
  }
}
