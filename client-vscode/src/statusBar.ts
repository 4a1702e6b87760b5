/**
 * The index in the status bar: the server's work-done progress while it reports, else the answer of
 * `ripple/indexStatus`, asked again every second while a folder is being indexed or embedded.
 */
import * as vscode from 'vscode';
import { errorMessage } from './lib/errors';
import { ProgressTracker, statusFromIndex, type IndexStatus, type ProgressValue, type StatusView } from './lib/status';

/** The command the item runs when clicked. */
export const SHOW_STATUS_COMMAND = 'ripplegraph.showIndexStatus';

/** How often the index status is asked again while work is under way. */
export const POLL_MS = 1000;

/** The status bar item of the index. */
export class IndexStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly tracker = new ProgressTracker();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last: StatusView | undefined;
  private disposed = false;

  /** An item that asks `fetch` for the index status (`undefined`: no server). */
  constructor(private readonly fetch: () => Promise<IndexStatus | undefined>) {
    this.item = vscode.window.createStatusBarItem('ripplegraph.index', vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'ripplegraph index';
    this.item.command = SHOW_STATUS_COMMAND;
    this.show({ text: '$(database) ripple', tooltip: 'ripplegraph', busy: false, error: false });
    this.item.show();
  }

  /** The last index status view (for the status command). */
  get view(): StatusView | undefined {
    return this.last;
  }

  /** The server is starting. */
  starting(): void {
    this.show({ text: '$(sync~spin) ripple: starting', tooltip: 'ripplegraph: starting the language server', busy: true, error: false });
  }

  /** The server cannot run: `message` says why and how to install it. */
  missing(message: string): void {
    this.stopPolling();
    this.tracker.clear();
    this.show({ text: '$(warning) ripple: no server', tooltip: message, busy: false, error: true });
  }

  /** The server stopped and is being started again: the progress it reported will not end. */
  restarting(): void {
    this.stopPolling();
    this.tracker.clear();
    this.show({ text: '$(sync~spin) ripple: restarting', tooltip: 'ripplegraph: the language server stopped; starting it again',
      busy: true, error: false });
  }

  /** A work-done progress value from the server. */
  progress(token: string | number, value: ProgressValue): void {
    const ended = this.tracker.update(token, value);
    const view = this.tracker.view();
    if (view !== undefined) {
      this.show(view);
    }
    if (ended) {
      void this.refresh();
    }
  }

  /** Ask the server for the index status and show it (progress still running wins). */
  async refresh(): Promise<StatusView | undefined> {
    this.stopPolling();
    let status: IndexStatus | undefined;
    try {
      status = await this.fetch();
    } catch (error) {
      this.show({ text: '$(error) ripple', tooltip: errorMessage(error),
        busy: false, error: true });
      return this.last;
    }
    if (status === undefined || this.disposed) {
      return this.last;
    }
    const view = statusFromIndex(status);
    this.last = view;
    if (this.tracker.view() === undefined) {
      this.show(view);
    }
    if (view.busy) {
      this.timer = setTimeout(() => void this.refresh(), POLL_MS);
    }
    return view;
  }

  /** Remove the item. */
  dispose(): void {
    this.disposed = true;
    this.stopPolling();
    this.item.dispose();
  }

  private show(view: StatusView): void {
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  private stopPolling(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
