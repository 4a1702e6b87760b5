/**
 * "Ripple: Blast Radius": `ripple/blastRadius` for the method at the cursor, its markdown report in a
 * webview whose location links open the editor there (lib/report.ts rewrites them to commands).
 */
import * as vscode from 'vscode';
import { errorMessage } from './lib/errors';
import { OPEN_LOCATION_COMMAND, hasTargets, reportPage, reportTitle } from './lib/report';
import { blastRadius } from './requests';
import type { Session } from './session';

/** The webview's view type. */
export const VIEW_TYPE = 'ripplegraph.blastRadius';

/** One report panel, reused by every run. */
export class BlastRadiusPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private runs = 0;

  /** A new run begins: the returned check is `true` while no later run has begun. */
  begin(): () => boolean {
    const run = ++this.runs;
    return () => run === this.runs;
  }

  /** Show `markdown` (a new panel beside the editor, or the existing one). */
  show(markdown: string): vscode.WebviewPanel {
    const title = reportTitle(markdown);
    if (this.panel === undefined) {
      this.panel = vscode.window.createWebviewPanel(VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: false,
        enableCommandUris: [OPEN_LOCATION_COMMAND],
        localResourceRoots: [],
      });
      this.panel.onDidDispose(() => {
        this.panel = undefined;
      });
    } else {
      this.panel.title = title;
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    }
    this.panel.webview.html = reportPage(markdown, title, this.panel.webview.cspSource);
    return this.panel;
  }

  /** Close the panel. */
  dispose(): void {
    this.panel?.dispose();
  }
}

/**
 * Run the report for the cursor of the active editor and show it. When the command runs again before
 * the answer came, only the last run's answer (or error) is shown.
 */
export async function showBlastRadius(session: Session, panel: BlastRadiusPanel): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) {
    void vscode.window.showInformationMessage('ripplegraph: put the cursor on a method in an editor first.');
    return;
  }
  const latest = panel.begin();
  const uri = editor.document.uri.toString();
  const { line, character } = editor.selection.active;
  const client = await session.ready();
  if (client === undefined) {
    return;
  }
  let result;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'ripple: blast radius' },
      () => blastRadius(client, uri, { line, character }, session.current.depth),
    );
  } catch (error) {
    if (latest()) {
      void vscode.window.showErrorMessage(errorMessage(error));
    }
    return;
  }
  if (!latest()) {
    return;
  }
  if (result === null || result === undefined || !hasTargets(result.report)) {
    void vscode.window.showInformationMessage('ripplegraph: no method or function at the cursor.');
    return;
  }
  panel.show(result.markdown);
}
