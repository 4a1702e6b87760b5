/**
 * The language client's life: settings -> `ripple serve` command line, start, restart on a setting
 * change, one clear message when the server is missing or fails at start, a few restarts of a server
 * that stops by itself (then one message, no loop), and the middleware that routes the server's
 * progress to the status bar, switches code lenses off and maps the lens command to VS Code's call
 * hierarchy.
 */
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';
import {
  CloseAction, ErrorAction, LanguageClient, RevealOutputChannelOn, State,
  type CodeLensProviderShape, type LanguageClientOptions, type Middleware, type ServerOptions,
} from 'vscode-languageclient/node';
import { OutputTail, RestartPolicy } from './lib/lifecycle';
import {
  RESTART_KEYS, locateExecutable, missingServerMessage, pythonProblem, readSettings, serverLaunch, stoppedServerMessage,
  type LaunchProblem, type RippleSettings, type ServerLaunch,
} from './lib/settings';
import { RIPPLE_SCHEME } from './lib/locations';
import type { ProgressValue } from './lib/status';
import { indexStatus } from './requests';
import { IndexStatusBar } from './statusBar';

/** Settings section of the extension. */
export const SECTION = 'ripplegraph';

/** The languages the server indexes (indexer/languages), as VS Code language ids. */
export const LANGUAGES = ['java', 'kotlin', 'python', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact', 'vue', 'go', 'csharp', 'apex'];

/** The server's code lens command (lsp_server/features/code_lens.py `SHOW_CALLERS`): `[uri, position]`. */
export const SHOW_CALLERS = 'ripple.showCallers';

/** The current settings. */
export function currentSettings(): RippleSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return readSettings((key) => config.get(key));
}

/** What `ready` says when the server is not running and nothing more is known. */
export const NOT_RUNNING = 'ripplegraph: the language server is not running; run "Ripple: Restart Server".';

/** How long to wait for a stopped server's last words on stderr before saying why it stopped. */
const LAST_WORDS_MS = 2000;

/**
 * The language client, with the failures it would announce itself (start failed, connection closed,
 * restart failed) only logged: the session says what went wrong in one message of its own.
 */
class RippleClient extends LanguageClient {
  override error(message: string, data?: unknown, _showNotification?: boolean | 'force'): void {
    super.error(message, data, false);
  }
}

/** The language client and its state; commands ask {@link Session.ready} for a running client. */
export class Session implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient | undefined> | undefined;
  private missing: string | undefined;
  private disposed = false;
  private settings: RippleSettings = currentSettings();
  private readonly output: vscode.LogOutputChannel;
  private readonly stderr = new OutputTail();
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

  /** The running client (waiting for a restart under way), or `undefined` after telling the user why there is none. */
  async ready(): Promise<LanguageClient | undefined> {
    const client = await this.start();
    if (client !== undefined && client.state === State.Starting) {
      await client.start().catch(() => undefined);
    }
    if (client === undefined || client.state !== State.Running) {
      void vscode.window.showErrorMessage(this.missing ?? NOT_RUNNING);
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

  /** Stop the server (whatever its state) and start it again with the current settings. */
  async restart(): Promise<LanguageClient | undefined> {
    const previous = await this.starting;
    this.starting = undefined;
    if (this.client === previous) {
      this.client = undefined;
    }
    await previous?.dispose().catch(() => undefined);
    return this.start();
  }

  /** Stop the server. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
    const client = this.client;
    this.client = undefined;
    await client?.dispose().catch(() => undefined);
  }

  private async launch(): Promise<LanguageClient | undefined> {
    this.settings = currentSettings();
    this.missing = undefined;
    const launch = serverLaunch(this.settings);
    const found = locateExecutable(launch.command, process.env.PATH);
    if (!('path' in found)) {
      return this.fail(launch, found);
    }
    // The server's environment is VS Code's plus the settings' (a bare `env` would replace it all:
    // no PATH, no HOME, no credentials exported in the shell).
    const env = { ...process.env, ...launch.env };
    const problem = this.settings.pythonPath ? await pythonProblem(found.path, env) : undefined;
    if (problem !== undefined) {
      return this.fail(launch, { kind: 'python', detail: problem });
    }
    this.status.starting();
    const life = { started: false };
    const serverOptions: ServerOptions = { command: found.path, args: launch.args, options: { env } };
    const client = new RippleClient(SECTION, 'ripplegraph', serverOptions, this.clientOptions(life));
    this.client = client;
    try {
      await client.start();
    } catch (error) {
      await this.stderr.settled(LAST_WORDS_MS);
      await client.dispose().catch(() => undefined);
      if (this.client === client) {
        this.client = undefined;
      }
      return this.fail(launch, { kind: 'exited', detail: this.stderr.problem() ?? (error instanceof Error ? error.message : String(error)) });
    }
    life.started = true;
    if (this.disposed) {
      await client.dispose().catch(() => undefined);
      return undefined;
    }
    this.output.info(`ripplegraph: started ${found.path} ${launch.args.join(' ')}`);
    // Freshness changed (lsp_server/team.py): the item shows it from the next index status.
    client.onNotification('ripple/status', () => void this.status.refresh());
    client.onDidChangeState(({ newState }) => {
      if (newState === State.Running) { // started again after it stopped
        void this.status.refresh();
      }
    });
    void this.status.refresh();
    return client;
  }

  private fail(launch: ServerLaunch, problem: LaunchProblem): undefined {
    this.missing = missingServerMessage(launch, problem);
    this.output.error(this.missing);
    this.status.missing(this.missing);
    void vscode.window.showErrorMessage(this.missing, 'Open Settings').then((choice) => {
      if (choice === 'Open Settings') {
        void vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server`);
      }
    });
    return undefined;
  }

  /** A server that was running stopped again after the restarts `policy` allows: one message, no more restarts. */
  private async stoppedForGood(policy: RestartPolicy): Promise<void> {
    await this.stderr.settled(LAST_WORDS_MS);
    this.missing = stoppedServerMessage(policy.max, policy.windowMs / 60_000, this.stderr.problem());
    this.output.error(this.missing);
    this.status.missing(this.missing);
    const choice = await vscode.window.showErrorMessage(this.missing, 'Show Output', 'Restart Server');
    if (choice === 'Show Output') {
      this.output.show(true);
    } else if (choice === 'Restart Server') {
      await this.restart();
    }
  }

  private clientOptions(life: { started: boolean }): LanguageClientOptions {
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
    const restarts = new RestartPolicy();
    return {
      documentSelector: [
        ...LANGUAGES.map((language) => ({ scheme: 'file', language })),
        { scheme: RIPPLE_SCHEME },
      ],
      outputChannel: this.output,
      // Failures reach the user once: the server's own window/showMessage, the commands' messages,
      // the message of a server that cannot start or stopped for good; the rest goes to the output.
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationFailedHandler: () => false,
      middleware,
      stdioOptions: {
        stdout: (input, channel) => createInterface({ input, crlfDelay: Infinity }).on('line', (line) => channel.info(line)),
        stderr: (input, channel) => this.stderr.follow(input, (line) => channel.error(line)),
      },
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue, handled: true }),
        closed: () => {
          if (!life.started || this.disposed) {
            return { action: CloseAction.DoNotRestart, handled: true }; // at start: launch() says why
          }
          if (restarts.stopped()) {
            this.status.restarting();
            return { action: CloseAction.Restart, handled: true };
          }
          void this.stoppedForGood(restarts);
          return { action: CloseAction.DoNotRestart, handled: true };
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
