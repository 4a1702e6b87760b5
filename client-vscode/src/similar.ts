/**
 * "Ripple: Find Similar Code" (command palette and editor context menu): `ripple/similar` for the
 * symbol at the cursor, the answer in a QuickPick of the same rows as Semantic Search; accepting a
 * row opens its location (`file:` or `ripple:`).
 */
import * as vscode from 'vscode';
import { errorMessage } from './lib/errors';
import { similarView } from './lib/searchItems';
import { tryOpenLocation } from './open';
import { similar } from './requests';
import type { SearchPickItem } from './search';
import type { Session } from './session';

/** Similar chunks asked for. */
export const SIMILAR_LIMIT = 30;

/** Run the command: ask the server, then show the rows (or a message when there is no symbol). */
export async function findSimilar(session: Session): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) {
    void vscode.window.showInformationMessage('ripplegraph: put the cursor on a class, method or function in an editor first.');
    return;
  }
  const uri = editor.document.uri.toString();
  const { line, character } = editor.selection.active;
  const client = await session.ready();
  if (client === undefined) {
    return;
  }
  let result;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'ripple: similar code' },
      () => similar(client, uri, { line, character }, SIMILAR_LIMIT),
    );
  } catch (error) {
    void vscode.window.showErrorMessage(errorMessage(error));
    return;
  }
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name }));
  const view = similarView(result, folders);
  if (view.kind === 'message') {
    void vscode.window.showInformationMessage(view.text);
    return;
  }
  const pick = vscode.window.createQuickPick<SearchPickItem>();
  pick.title = view.title;
  pick.placeholder = 'Filter the similar code';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = view.items.length > 0
    ? view.items.map((hit) => ({ label: hit.label, description: hit.description, detail: hit.detail, hit }))
    : [{ label: view.empty, alwaysShow: true }];
  pick.onDidAccept(() => {
    const hit = pick.selectedItems[0]?.hit;
    if (hit !== undefined) {
      pick.hide();
      void tryOpenLocation({ uri: hit.uri, line: hit.line + 1 });
    }
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
}
