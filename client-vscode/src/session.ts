/**
 * The language client's life: settings -> `ripple serve` command line, start, restart on a setting
 * change, a clear message when the server is missing, and the middleware that routes the server's
 * progress to the status bar, switches code lenses off and maps the lens command to VS Code's call
 * hierarchy.
 */
import * as vscode from 'vscode';
import {
  CloseAction, ErrorAction, LanguageClient, RevealOutputChannelOn, State,
  type CodeLensProviderShape, type LanguageClientOptions, type Middleware, type ServerOptions,
} from 'vscode-languageclient/node';
import {
  RESTART_KEYS, findExecutable, missingServerMessage, pythonProblem, readSettings, serverLaunch,
  type RippleSettings, type ServerLaunch,
} from './lib/settings';
import { RIPPLE_SCHEME } from './lib/locations';
import type { ProgressValue } from './lib/status';
import { indexStatus } from './requests';
import { IndexStatusBar } from './statusBar';

/** Settings section of the extension. */
export const SECTION = 'ripplegraph';

/** The languages the server indexes (indexer/languages), as VS Code language ids. */
export const LANGUAGES = ['java', 'python', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact'];

/** The server's code lens command (lsp_server/features/code_lens.py `SHOW_CALLERS`): `[uri, position]`. */
export const SHOW_CALLERS = 'ripple.showCallers';

/** The current settings. */
export function currentSettings(): RippleSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return readSettings((key) => config.get(key));
}

/** The language client and its state; commands ask {@link Session.ready} for a running client. */
export class Session implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient | undefined> | undefined;
  private missing: string | undefined;
  private settings: RippleSettings = currentSettings();
  private readonly output: vscode.LogOutputChannel;
  private readonly disposables: vscode.Disposable[] = [];

  /** The index in the status bar. */
  readonly status: IndexStatusBar;

  /** A session with its status bar item; nothing starts before {@link start}. */
  constructor() {
    this.status = new IndexStatusBar(async () => (this.running === undefined ? undefined : indexStatus(this.running)));
    this.output = vscode.window.createOutputChannel('ripplegraph', { log: true });
    this.disposables.push(this.status, this.output, vscode.workspace.onDidChangeConfiguration((event) => this.configurationChanged(event)));
  }

  /** Start the server (once; later calls wait for the same start). */
  start(): Promise<LanguageClient | undefined> {
    this.starting ??= this.launch();
    return this.starting;
  }

  /** The running client, or `undefined` after telling the user why there is none. */
  async ready(): Promise<LanguageClient | undefined> {
    const client = await this.start();
    if (client === undefined || client.state !== State.Running) {
      void vscode.window.showErrorMessage(this.missing ?? 'ripplegraph: the language server is not running.');
      return undefined;
    }
    return client;
  }

  /** The client when it is running, else `undefined` (no message). */
  get running(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  /** The settings the server was started with (depth and code lens follow changes at once). */
  get current(): RippleSettings {
    return this.settings;
  }

  /** Stop the server and start it again with the current settings. */
  async restart(): Promise<LanguageClient | undefined> {
    const previous = await this.starting;
    this.starting = undefined;
    if (previous !== undefined && previous.state === State.Running) {
      await previous.stop().catch(() => undefined);
    }
    this.settings = currentSettings();
    return this.start();
  }

  /** Stop the server. */
  async dispose(): Promise<void> {
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
    const client = this.client;
    this.client = undefined;
    if (client !== undefined && client.state === State.Running) {
      await client.stop().catch(() => undefined);
    }
  }

  private async launch(): Promise<LanguageClient | undefined> {
    this.settings = currentSettings();
    this.missing = undefined;
    const launch = serverLaunch(this.settings);
    const command = findExecutable(launch.command, process.env.PATH);
    if (command === undefined) {
      return this.fail(launch);
    }
    const problem = this.settings.pythonPath ? await pythonProblem(command, { ...process.env, ...launch.env }) : undefined;
    if (problem !== undefined) {
      return this.fail(launch, problem);
    }
    this.status.starting();
    const serverOptions: ServerOptions = { command, args: launch.args, options: { env: launch.env } };
    const client = new LanguageClient(SECTION, 'ripplegraph', serverOptions, this.clientOptions());
    this.client = client;
    try {
      await client.start();
    } catch (error) {
      await client.dispose().catch(() => undefined);
      this.client = undefined;
      return this.fail(launch, error instanceof Error ? error.message : String(error));
    }
    this.output.info(`ripplegraph: started ${command} ${launch.args.join(' ')}`);
    void this.status.refresh();
    return client;
  }

  private fail(launch: ServerLaunch, detail?: string): undefined {
    this.missing = missingServerMessage(launch, detail);
    this.output.error(this.missing);
    this.status.missing(this.missing);
    void vscode.window.showErrorMessage(this.missing, 'Open Settings').then((choice) => {
      if (choice === 'Open Settings') {
        void vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server`);
      }
    });
    return undefined;
  }

  private clientOptions(): LanguageClientOptions {
    const middleware: Middleware = {
      provideCodeLenses: (document, token, next) => (this.settings.codeLens ? next(document, token) : []),
      handleWorkDoneProgress: (token, params, next) => {
        this.status.progress(token, params as ProgressValue);
        next(token, params);
      },
      executeCommand: async (command, args, next) => {
        if (command === SHOW_CALLERS) {
          return showCallHierarchy(args);
        }
        return next(command, args);
      },
    };
    let restarts = 0;
    return {
      documentSelector: [
        ...LANGUAGES.map((language) => ({ scheme: 'file', language })),
        { scheme: RIPPLE_SCHEME },
      ],
      outputChannel: this.output,
      // Failures reach the user once: the server's own window/showMessage, the commands' messages and
      // the missing-server message; the client logs the rest to the output.
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationFailedHandler: () => false,
      middleware,
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue }),
        closed: () => {
          restarts += 1;
          if (this.client?.state !== State.Running) {
            return { action: CloseAction.DoNotRestart, handled: true }; // at start: launch() says why
          }
          if (restarts > 3) {
            this.status.missing('ripplegraph: the language server stopped');
            return { action: CloseAction.DoNotRestart, message: 'ripplegraph: the language server stopped; see the "ripplegraph" output.' };
          }
          return { action: CloseAction.Restart };
        },
      },
    };
  }

  private configurationChanged(event: vscode.ConfigurationChangeEvent): void {
    if (!event.affectsConfiguration(SECTION)) {
      return;
    }
    const before = this.settings;
    const after = currentSettings();
    if (RESTART_KEYS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`))) {
      void this.restart();
      return;
    }
    this.settings = after;
    if (before.codeLens !== after.codeLens) {
      const lenses = this.client?.getFeature('textDocument/codeLens');
      for (const editor of vscode.window.visibleTextEditors) {
        (lenses?.getProvider(editor.document) as CodeLensProviderShape | undefined)?.onDidChangeCodeLensEmitter.fire();
      }
    }
  }
}

/** The lens command: VS Code's call hierarchy at the lens's position (`[uri, {line, character}]`). */
async function showCallHierarchy(args: unknown[]): Promise<void> {
  const [uri, position] = args as [string, { line: number; character: number }];
  if (typeof uri !== 'string' || typeof position?.line !== 'number') {
    return;
  }
  const at = new vscode.Position(position.line, position.character);
  await vscode.window.showTextDocument(vscode.Uri.parse(uri), { selection: new vscode.Range(at, at) });
  await vscode.commands.executeCommand('references-view.showCallHierarchy');
}
