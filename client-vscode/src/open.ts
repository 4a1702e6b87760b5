/**
 * Opening locations (`file:` or `ripple:` URIs at a 1-based line) and the content provider that
 * gives `ripple:` documents their text through `ripple/fileContent`.
 */
import * as vscode from 'vscode';
import { errorMessage } from './lib/errors';
import type { Location } from './lib/locations';
import { fileContent } from './requests';
import type { Session } from './session';

/** Open `location` in the first editor column with the cursor at the start of its line. */
export async function openLocation(location: Location): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(location.uri));
  const line = Math.min(location.line - 1, Math.max(0, document.lineCount - 1));
  const at = new vscode.Position(line, 0);
  return vscode.window.showTextDocument(document, {
    viewColumn: vscode.ViewColumn.One,
    selection: new vscode.Range(at, at),
    preview: true,
  });
}

/** {@link openLocation}, a failure (a file deleted since it was indexed, a source not kept) said in a message. */
export async function tryOpenLocation(location: Location): Promise<vscode.TextEditor | undefined> {
  try {
    return await openLocation(location);
  } catch (error) {
    void vscode.window.showErrorMessage(errorMessage(error));
    return undefined;
  }
}

/** The text of `ripple:` documents: files of indexed repositories that are not on this disk. */
export class RippleContentProvider implements vscode.TextDocumentContentProvider {
  /** A provider asking `session`'s server. */
  constructor(private readonly session: Session) {}

  /** The file's text as the index keeps it. */
  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const client = await this.session.ready();
    if (client === undefined) {
      throw new Error('ripplegraph: the language server is not running');
    }
    return fileContent(client, uri.toString(), token);
  }
}
