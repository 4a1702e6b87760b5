/**
 * The status bar text of the index, without VS Code: from `ripple/indexStatus` answers and from the
 * server's `window/workDoneProgress` reports (begin / report / end per token).
 */

/** One folder of `ripple/indexStatus` (lsp_server/features/custom.py). */
export interface FolderStatus {
  uri: string;
  repo: string;
  db: string;
  state: 'ready' | 'indexing' | 'error';
  phase: string | null;
  error: string | null;
  files?: number;
  nodes?: number;
  /** How the index compares with the checkout (lsp_server/team.py, `ripple/status`); `null` before the first check. */
  freshness?: Freshness | null;
}

/** One folder's freshness: `behind` / `diverged` / `changed` mean answers may miss what is on disk. */
export interface Freshness {
  state: 'current' | 'behind' | 'diverged' | 'changed' | 'unknown';
  message: string | null;
  behind?: number | null;
}

/** `true` when the folder's index is behind its checkout. */
export function isStale(folder: FolderStatus): boolean {
  const state = folder.freshness?.state;
  return state === 'behind' || state === 'diverged' || state === 'changed';
}

/** The answer of `ripple/indexStatus`. */
export interface IndexStatus {
  folders: FolderStatus[];
}

/** What the status bar item shows. */
export interface StatusView {
  text: string;
  tooltip: string;
  /** Work is under way: the index status is worth asking again soon. */
  busy: boolean;
  error: boolean;
}

/** A work-done progress value (LSP `WorkDoneProgressBegin | Report | End`). */
export interface ProgressValue {
  kind: 'begin' | 'report' | 'end';
  title?: string;
  message?: string;
  percentage?: number;
}

/** `true` while the folder is being indexed or embedded (phase `done` or none: idle). */
export function isBusy(folder: FolderStatus): boolean {
  return folder.state === 'indexing' || (folder.phase !== null && folder.phase !== 'done');
}

function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}

function folderLine(folder: FolderStatus): string {
  const state = isBusy(folder) && folder.phase ? `${folder.state} (${folder.phase})` : folder.state;
  const parts = [`${folder.repo}: ${state}`];
  if (folder.files !== undefined) {
    parts.push(plural(folder.files, 'file'));
  }
  if (folder.nodes !== undefined) {
    parts.push(plural(folder.nodes, 'node'));
  }
  if (folder.error) {
    parts.push(folder.error);
  }
  if (isStale(folder) && folder.freshness?.message) {
    parts.push(folder.freshness.message);
  }
  return parts.join(' · ');
}

/** The status bar view of an index status answer. */
export function statusFromIndex(status: IndexStatus): StatusView {
  const folders = status.folders;
  const tooltip = folders.map(folderLine).join('\n');
  if (folders.length === 0) {
    return { text: '$(circle-slash) ripple: no folder', tooltip: 'ripplegraph: open a folder to index it', busy: false, error: false };
  }
  const busy = folders.filter(isBusy);
  if (busy.length > 0) {
    const what = busy.every((f) => f.state === 'ready') ? 'embedding' : 'indexing';
    return { text: `$(sync~spin) ripple: ${what} ${busy.map((f) => f.repo).join(', ')}`, tooltip, busy: true, error: false };
  }
  const failed = folders.filter((f) => f.state === 'error');
  if (failed.length > 0) {
    return { text: `$(error) ripple: ${failed.length} of ${plural(folders.length, 'index', 'indexes')} failed`,
      tooltip, busy: false, error: true };
  }
  const stale = folders.filter(isStale);
  if (stale.length > 0) {
    return { text: `$(warning) ripple: index behind (${stale.map((f) => f.repo).join(', ')})`, tooltip, busy: false, error: false };
  }
  const files = folders.reduce((sum, f) => sum + (f.files ?? 0), 0);
  return { text: `$(database) ripple: ${plural(folders.length, 'repository', 'repositories')} · ${plural(files, 'file')}`,
    tooltip, busy: false, error: false };
}

/** The latest progress of every token still running, in the order they began. */
export class ProgressTracker {
  private readonly running = new Map<string, { title: string; message?: string; percentage?: number }>();

  /** Record a progress value of `token`; `true` when it ended (the index status changed). */
  update(token: string | number, value: ProgressValue): boolean {
    const key = String(token);
    if (value.kind === 'end') {
      this.running.delete(key);
      return true;
    }
    const previous = this.running.get(key);
    if (value.kind === 'begin' || previous !== undefined) {
      this.running.set(key, {
        title: value.title ?? previous?.title ?? 'ripple: indexing',
        message: value.message ?? previous?.message,
        percentage: value.percentage ?? previous?.percentage,
      });
    }
    return false;
  }

  /** Forget every running progress (their server stopped: no `end` will come). */
  clear(): void {
    this.running.clear();
  }

  /** The view of the first running progress, or `undefined` when none runs. */
  view(): StatusView | undefined {
    const first = this.running.values().next();
    if (first.done) {
      return undefined;
    }
    const { title, message } = first.value;
    const more = this.running.size > 1 ? ` (+${this.running.size - 1})` : '';
    const text = `$(sync~spin) ${title}${message ? ` · ${message}` : ''}${more}`;
    return { text, tooltip: [...this.running.values()].map((p) => `${p.title}${p.message ? `: ${p.message}` : ''}`).join('\n'),
      busy: true, error: false };
  }
}
