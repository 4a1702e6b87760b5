/**
 * The ripplegraph VS Code extension: starts `ripple serve` through vscode-languageclient (call
 * hierarchy, references, hover, code lens and symbols come from the language client itself) and adds
 * the commands Semantic Search, Find Similar Code, Blast Radius, Reindex and Index Status, the index in the status bar
 * and the `ripple:` document provider.
 *
 * Everything that does not need VS Code lives in ./lib (unit-tested); the wiring here is tested
 * against a real `ripple serve` through a stub of the VS Code API (test/integration).
 */
import * as vscode from 'vscode';
import { BlastRadiusPanel, showBlastRadius } from './blastRadius';
import { errorMessage } from './lib/errors';
import { RIPPLE_SCHEME } from './lib/locations';
import { OPEN_LOCATION_COMMAND, locationArgs } from './lib/report';
import { RippleContentProvider, tryOpenLocation } from './open';
import { reindex } from './requests';
import { semanticSearch } from './search';
import { findSimilar } from './similar';
import { Session } from './session';
import { type IndexStatusBar, SHOW_STATUS_COMMAND } from './statusBar';

/** Command ids contributed in package.json. */
export const COMMANDS = {
  search: 'ripplegraph.semanticSearch',
  similar: 'ripplegraph.findSimilar',
  blastRadius: 'ripplegraph.blastRadius',
  reindex: 'ripplegraph.reindex',
  status: SHOW_STATUS_COMMAND,
  restart: 'ripplegraph.restartServer',
  openLocation: OPEN_LOCATION_COMMAND,
} as const;

/** What `activate` returns (VS Code hands it to other extensions; the tests use it). */
export interface RippleApi {
  session: Session;
  status: IndexStatusBar;
  panel: BlastRadiusPanel;
}

let active: RippleApi | undefined;

/** Register everything, then start the server (a missing server leaves the commands explaining it). */
export async function activate(context: vscode.ExtensionContext): Promise<RippleApi> {
  const s = new Session();
  const status = s.status;
  const panel = new BlastRadiusPanel();
  const api: RippleApi = { session: s, status, panel };
  context.subscriptions.push(
    s, panel,
    vscode.workspace.registerTextDocumentContentProvider(RIPPLE_SCHEME, new RippleContentProvider(s)),
    vscode.commands.registerCommand(COMMANDS.search, () => semanticSearch(s)),
    vscode.commands.registerCommand(COMMANDS.similar, () => findSimilar(s)),
    vscode.commands.registerCommand(COMMANDS.blastRadius, () => showBlastRadius(s, panel)),
    vscode.commands.registerCommand(COMMANDS.reindex, () => reindexAll(s, status)),
    vscode.commands.registerCommand(COMMANDS.status, () => showStatus(s, status)),
    vscode.commands.registerCommand(COMMANDS.restart, () => s.restart()),
    vscode.commands.registerCommand(COMMANDS.openLocation, async (...args: unknown[]) => {
      const location = locationArgs(args);
      if (location !== undefined) {
        await tryOpenLocation(location);
      }
    }),
  );
  active = api;
  await s.start();
  return api;
}

/** Stop the server. */
export async function deactivate(): Promise<void> {
  const api = active;
  active = undefined;
  await api?.session.dispose();
}

async function reindexAll(session: Session, status: IndexStatusBar): Promise<void> {
  const client = await session.ready();
  if (client === undefined) {
    return;
  }
  try {
    const started = await reindex(client);
    void vscode.window.showInformationMessage(started.length > 0
      ? `ripplegraph: reindexing ${started.join(', ')}`
      : 'ripplegraph: every folder is being indexed already');
  } catch (error) {
    void vscode.window.showErrorMessage(errorMessage(error));
  }
  await status.refresh();
}

async function showStatus(session: Session, status: IndexStatusBar): Promise<void> {
  if ((await session.ready()) === undefined) {
    return;
  }
  const view = await status.refresh();
  const choice = await vscode.window.showInformationMessage(
    view?.tooltip.split('\n').join(' | ') || 'ripplegraph: no workspace folder', 'Reindex');
  if (choice === 'Reindex') {
    await vscode.commands.executeCommand(COMMANDS.reindex);
  }
}
