/**
 * "Ripple: Semantic Search": a QuickPick whose rows follow the text as it is typed (debounced
 * `ripple/search`, stale answers dropped), each row showing kind, dotted name and `path:line`;
 * accepting a row opens its location (`file:` or `ripple:`).
 */
import * as vscode from 'vscode';
import { errorMessage } from './lib/errors';
import { LiveSearch } from './lib/debounce';
import { searchItems, type HitItem, type SearchResult } from './lib/searchItems';
import { tryOpenLocation } from './open';
import { search } from './requests';
import type { Session } from './session';

/** Quiet time after a keystroke before the query is sent. */
export const SEARCH_DELAY_MS = 200;
/** Hits asked for. */
export const SEARCH_LIMIT = 30;

/** A QuickPick row; `hit` is absent on the error row. */
export interface SearchPickItem extends vscode.QuickPickItem {
  hit?: HitItem;
}

/** Open the search QuickPick (returns once it is shown). */
export async function semanticSearch(session: Session): Promise<void> {
  const client = await session.ready();
  if (client === undefined) {
    return;
  }
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name }));
  const pick = vscode.window.createQuickPick<SearchPickItem>();
  pick.title = 'Ripple: Semantic Search';
  pick.placeholder = 'Describe what the code does, or type a name';
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  const live = new LiveSearch<SearchResult>({
    delayMs: SEARCH_DELAY_MS,
    search: (query, signal) => search(client, query, SEARCH_LIMIT, signal),
    // alwaysShow: the server ranks; the QuickPick must not filter its rows by label.
    onResult: (_query, result) => {
      const rows = searchItems(result, folders);
      pick.items = rows.length > 0
        ? rows.map((hit) => ({ label: hit.label, description: hit.description, detail: hit.detail, alwaysShow: true, hit }))
        : [{ label: 'No match', alwaysShow: true }];
    },
    onError: (_query, error) => {
      pick.items = [{ label: `$(error) ${errorMessage(error)}`, alwaysShow: true }];
    },
    onEmpty: () => {
      pick.items = [];
    },
    onBusy: (busy) => {
      pick.busy = busy;
    },
  });
  pick.onDidChangeValue((value) => live.update(value));
  pick.onDidAccept(() => {
    const hit = pick.selectedItems[0]?.hit;
    if (hit !== undefined) {
      pick.hide();
      void tryOpenLocation({ uri: hit.uri, line: hit.line + 1 });
    }
  });
  pick.onDidHide(() => {
    live.dispose();
    pick.dispose();
  });
  pick.show();
}
