/**
 * Debouncing and "latest request wins" for live search. No VS Code here: the QuickPick wiring in
 * ../search.ts feeds {@link LiveSearch} the typed text and renders what it hands back.
 */

/** A debounced function: calls are postponed until `waitMs` passed without another call. */
export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Drop the pending call, if any. */
  cancel(): void;
  /** Run the pending call now, if any. */
  flush(): void;
}

/** `fn` debounced by `waitMs` milliseconds; the last call's arguments win. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, waitMs: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const run = (): void => {
    timer = undefined;
    const args = pending;
    pending = undefined;
    if (args !== undefined) {
      fn(...args);
    }
  };
  const debounced = (...args: A): void => {
    pending = args;
    if (timer !== undefined) {
      clearTimeout(timer);
    }
    timer = setTimeout(run, waitMs);
  };
  debounced.cancel = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
    }
    timer = undefined;
    pending = undefined;
  };
  debounced.flush = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      run();
    }
  };
  return debounced;
}

/** What {@link LiveSearch} needs: the request, and where its answers go. */
export interface LiveSearchOptions<T> {
  /** Quiet time after the last keystroke before a request is sent. */
  delayMs: number;
  /** Send the request; `signal` aborts when a newer query supersedes this one. */
  search(query: string, signal: AbortSignal): Promise<T>;
  /** The answer to the latest query (never an answer to a superseded one). */
  onResult(query: string, result: T): void;
  /** The latest query failed. */
  onError(query: string, error: unknown): void;
  /** The query is empty (after trimming): nothing is sent. */
  onEmpty(): void;
  /** A request is in flight (`true`) or the latest one settled (`false`). */
  onBusy(busy: boolean): void;
}

/**
 * Results that follow the text as it is typed: each change is debounced, a newer query aborts the
 * request of the previous one, and answers that arrive late for a superseded query are dropped.
 */
export class LiveSearch<T> {
  private readonly debounced: Debounced<[string]>;
  private controller: AbortController | undefined;
  private generation = 0;
  private disposed = false;

  /** A live search driven by {@link update}. */
  constructor(private readonly options: LiveSearchOptions<T>) {
    this.debounced = debounce((query: string) => void this.send(query), options.delayMs);
  }

  /** The text changed. */
  update(text: string): void {
    if (this.disposed) {
      return;
    }
    const query = text.trim();
    this.generation += 1;
    this.controller?.abort();
    this.controller = undefined;
    if (query === '') {
      this.debounced.cancel();
      this.options.onBusy(false);
      this.options.onEmpty();
      return;
    }
    this.debounced(query);
  }

  /** Send the pending query now (for Enter before the quiet time is over). */
  flush(): void {
    this.debounced.flush();
  }

  /** Stop: the pending query is dropped, the request in flight aborted, late answers ignored. */
  dispose(): void {
    this.disposed = true;
    this.debounced.cancel();
    this.controller?.abort();
    this.generation += 1;
  }

  private async send(query: string): Promise<void> {
    const generation = this.generation;
    const controller = new AbortController();
    this.controller = controller;
    this.options.onBusy(true);
    try {
      const result = await this.options.search(query, controller.signal);
      if (generation === this.generation) {
        this.options.onBusy(false);
        this.options.onResult(query, result);
      }
    } catch (error) {
      if (generation === this.generation) {
        this.options.onBusy(false);
        this.options.onError(query, error);
      }
    }
  }
}
