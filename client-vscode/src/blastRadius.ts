/**
 * "Ripple: Blast Radius": `ripple/blastRadius` for the method at the cursor, its markdown report in a
 * webview whose location links open the editor there (lib/report.ts rewrites them to commands), and
 * its diagram drawn by the bundled script out/diagram.js (src/webview/diagram.ts), whose nodes post
 * `{command: 'open', uri, line}` to open the editor at their code.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type DiagramLink, diagramLinks, openMessageLocation } from './lib/diagram';
import { errorMessage } from './lib/errors';
import { OPEN_LOCATION_COMMAND, hasTargets, reportPage, reportTitle } from './lib/report';
import { tryOpenLocation } from './open';
import { blastRadius } from './requests';
import type { Session } from './session';

/** The webview's view type. */
export const VIEW_TYPE = 'ripplegraph.blastRadius';

/** The folder of the bundle (out/): the webview may load the diagram script from there, nothing else. */
const BUNDLE_DIR = __dirname;

/** One report panel, reused by every run. */
export class BlastRadiusPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private runs = 0;

  /** A new run begins: the returned check is `true` while no later run has begun. */
  begin(): () => boolean {
    const run = ++this.runs;
    return () => run === this.runs;
  }

  /**
   * Show `markdown` (a new panel beside the editor, or the existing one), its diagram's code nodes
   * linked as `links` say.
   */
  show(markdown: string, links: readonly DiagramLink[] = []): vscode.WebviewPanel {
    const title = reportTitle(markdown);
    if (this.panel === undefined) {
      const panel = vscode.window.createWebviewPanel(VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: true,
        enableCommandUris: [OPEN_LOCATION_COMMAND],
        localResourceRoots: [vscode.Uri.file(BUNDLE_DIR)],
      });
      const messages = panel.webview.onDidReceiveMessage(async (message: unknown) => {
        const location = openMessageLocation(message);
        if (location !== undefined) {
          await tryOpenLocation(location);
        }
      });
      panel.onDidDispose(() => {
        messages.dispose();
        this.panel = undefined;
      });
      this.panel = panel;
    } else {
      this.panel.title = title;
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    }
    const webview = this.panel.webview;
    const scriptUri = webview.asWebviewUri(vscode.Uri.file(join(BUNDLE_DIR, 'diagram.js'))).toString();
    webview.html = reportPage(markdown, title, webview.cspSource, { scriptUri, nonce: randomBytes(16).toString('base64'), links });
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
  panel.show(result.markdown, diagramLinks(result.diagram));
}
