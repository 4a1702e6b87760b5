/**
 * A stub of the VS Code API: only the members the extension and vscode-languageclient call on the
 * paths the integration test runs, each namespace guarded so that touching a member that is not
 * stubbed throws (the test then fails naming it, instead of passing on a silent `undefined`).
 *
 * Values the extension shows are recorded (messages, status bar texts, QuickPicks, webview panels,
 * opened editors, executed commands) for the test to assert. `Uri` is `vscode-uri`, the URI
 * implementation VS Code itself uses.
 */
import { readFileSync } from 'node:fs';
import { URI } from 'vscode-uri';

type Listener<T> = (e: T) => unknown;

/** `vscode.Disposable`. */
export class Disposable {
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }

  constructor(private readonly callOnDispose: () => unknown) {}

  dispose(): void {
    this.callOnDispose();
  }
}

/** `vscode.EventEmitter`. */
export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];

  readonly event = (listener: Listener<T>, thisArg?: unknown, disposables?: Disposable[]): Disposable => {
    const bound: Listener<T> = thisArg === undefined ? listener : listener.bind(thisArg);
    this.listeners.push(bound);
    const d = new Disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== bound);
    });
    disposables?.push(d);
    return d;
  };

  fire(data: T): void {
    for (const l of [...this.listeners]) {
      l(data);
    }
  }

  dispose(): void {
    this.listeners = [];
  }
}

/** `vscode.CancellationTokenSource`. */
export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };

  cancel(): void {
    if (!this.token.isCancellationRequested) {
      this.token.isCancellationRequested = true;
      this.emitter.fire();
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** `vscode.CancellationError`. */
export class CancellationError extends Error {}

/** `vscode.Position`. */
export class Position {
  constructor(readonly line: number, readonly character: number) {}
}

/** `vscode.Range` (both constructor forms). */
export class Range {
  readonly start: Position;
  readonly end: Position;

  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    this.start = typeof a === 'number' ? new Position(a, b as number) : a;
    this.end = typeof a === 'number' ? new Position(c as number, d as number) : (b as Position);
  }
}

/** `vscode.ThemeColor`. */
export class ThemeColor {
  constructor(readonly id: string) {}
}

/** `vscode.MarkdownString` (hover contents). */
export class MarkdownString {
  constructor(public value = '', public supportThemeIcons = false) {}
  isTrusted?: boolean;
  supportHtml?: boolean;
}

/** `vscode.Hover`. */
export class Hover {
  constructor(readonly contents: MarkdownString[] | MarkdownString, readonly range?: Range) {}
}

/** `vscode.CodeLens`. */
export class CodeLens {
  constructor(public range: Range, public command?: { title: string; command: string; arguments?: unknown[] }) {}
}

/**
 * Base classes vscode-languageclient extends when its modules load (ProtocolCompletionItem and the
 * like); none is constructed on the paths the test runs except CodeLens above.
 */
class Constructed {
  readonly args: unknown[];

  constructor(...args: unknown[]) {
    this.args = args;
  }
}
export class CompletionItem extends Constructed {}
export class CodeAction extends Constructed {}
export class Diagnostic extends Constructed {}
export class DocumentLink extends Constructed {}
export class InlayHint extends Constructed {}
export class SymbolInformation extends Constructed {}
export class CallHierarchyItem extends Constructed {}
export class TypeHierarchyItem extends Constructed {}

/** Only the members listed in `target`; reading any other throws, naming it. */
function guarded<T extends object>(name: string, target: T): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      if (typeof prop === 'symbol' || prop in obj || prop === 'then' || prop === 'toJSON') {
        return Reflect.get(obj, prop, receiver);
      }
      throw new Error(`vscode stub: ${name}.${String(prop)} is not stubbed`);
    },
  });
}

/** A text document as far as the extension and the language client read it. */
export interface StubDocument {
  uri: URI;
  lineCount: number;
  getText(): string;
}

function documentOf(uri: URI, text: string): StubDocument {
  return guarded('TextDocument', { uri, lineCount: text.split('\n').length, getText: () => text });
}

/** A QuickPick the test drives: `type` sets the value as a keystroke would, `accept` presses Enter. */
export class StubQuickPick {
  title = '';
  placeholder = '';
  matchOnDescription = true;
  matchOnDetail = true;
  busy = false;
  value = '';
  visible = false;
  disposed = false;
  items: Record<string, unknown>[] = [];
  selectedItems: Record<string, unknown>[] = [];
  readonly changes = new EventEmitter<string>();
  readonly accepts = new EventEmitter<void>();
  readonly hides = new EventEmitter<void>();
  readonly onDidChangeValue = this.changes.event;
  readonly onDidAccept = this.accepts.event;
  readonly onDidHide = this.hides.event;

  show(): void {
    this.visible = true;
  }

  hide(): void {
    if (this.visible) {
      this.visible = false;
      this.hides.fire();
    }
  }

  dispose(): void {
    this.disposed = true;
  }

  /** Type `text` (the new value of the input box). */
  type(text: string): void {
    this.value = text;
    this.changes.fire(text);
  }

  /** Select `item` and press Enter. */
  accept(item: Record<string, unknown>): void {
    this.selectedItems = [item];
    this.accepts.fire();
  }
}

/**
 * A webview panel: the test reads `webview.html` and `options`, and delivers what the page posts with
 * `receive`. `asWebviewUri` keeps the `file:` URI, so the page can be opened from a file as it is.
 */
export class StubWebviewPanel {
  private readonly messages = new EventEmitter<unknown>();
  readonly webview = {
    html: '', cspSource: 'vscode-webview://stub', asWebviewUri: (uri: URI) => uri, onDidReceiveMessage: this.messages.event,
  };
  private readonly disposes = new EventEmitter<void>();
  readonly onDidDispose = this.disposes.event;
  revealed = 0;

  constructor(readonly viewType: string, public title: string, readonly showOptions: unknown, readonly options: unknown) {}

  reveal(): void {
    this.revealed += 1;
  }

  /** The page posted `message` (`acquireVsCodeApi().postMessage`): the extension's listeners run. */
  receive(message: unknown): void {
    this.messages.fire(message);
  }

  dispose(): void {
    this.disposes.fire();
  }
}

/** A status bar item; every text it showed is kept in `texts`. */
export class StubStatusBarItem {
  readonly texts: string[] = [];
  tooltip: unknown = '';
  command: unknown;
  name = '';
  backgroundColor: unknown;
  visible = false;
  private current = '';

  constructor(readonly id: string) {}

  get text(): string {
    return this.current;
  }

  set text(value: string) {
    this.current = value;
    if (this.texts[this.texts.length - 1] !== value) {
      this.texts.push(value);
    }
  }

  show(): void {
    this.visible = true;
  }

  hide(): void {
    this.visible = false;
  }

  dispose(): void {
    this.visible = false;
  }
}

/** An editor opened through `window.showTextDocument`. */
export interface OpenedEditor {
  uri: string;
  text: string;
  selection: { line: number; character: number } | undefined;
  viewColumn: unknown;
}

/** What the stub recorded. */
export interface Recorder {
  messages: { kind: 'info' | 'error'; text: string; items: string[] }[];
  quickPicks: StubQuickPick[];
  panels: StubWebviewPanel[];
  statusItems: StubStatusBarItem[];
  opened: OpenedEditor[];
  executed: { command: string; args: unknown[] }[];
  output: string[];
  providers: Map<string, unknown[]>;
}

/** The stub and what it records; `configure` changes settings. */
export function createVscodeStub(init: { settings: Record<string, unknown>; folders: { name: string; path: string }[] }) {
  const recorder: Recorder = {
    messages: [], quickPicks: [], panels: [], statusItems: [], opened: [], executed: [], output: [], providers: new Map(),
  };
  const state = { settings: { ...init.settings } };
  const commands = new Map<string, (...args: unknown[]) => unknown>();
  const contentProviders = new Map<string, { provideTextDocumentContent(uri: URI, token: unknown): Promise<string> | string }>();
  const configurationChanges = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
  const never = () => new Disposable(() => undefined);
  const noEvent = (_listener: unknown, _thisArg?: unknown, disposables?: Disposable[]) => {
    const d = never();
    disposables?.push(d);
    return d;
  };
  const record = (kind: 'info' | 'error') => async (text: string, ...items: unknown[]) => {
    recorder.messages.push({ kind, text, items: items.filter((i): i is string => typeof i === 'string') });
    return undefined;
  };

  const register = (kind: string) => (...args: unknown[]) => {
    recorder.providers.set(kind, [...(recorder.providers.get(kind) ?? []), args[1]]);
    return never();
  };

  const openTextDocument = async (target: URI | string): Promise<StubDocument> => {
    const uri = typeof target === 'string' ? URI.file(target) : target;
    const provider = contentProviders.get(uri.scheme);
    if (provider !== undefined) {
      return documentOf(uri, await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token));
    }
    if (uri.scheme !== 'file') {
      throw new Error(`vscode stub: no content provider for ${uri.toString()}`);
    }
    return documentOf(uri, readFileSync(uri.fsPath, 'utf8'));
  };

  const logChannel = (name: string) => {
    const log = (level: string) => (message: string | Error, ...args: unknown[]) => {
      recorder.output.push(`[${level}] ${message instanceof Error ? message.message : message}${args.length ? ` ${JSON.stringify(args)}` : ''}`);
    };
    return guarded(`OutputChannel(${name})`, {
      logLevel: 2, onDidChangeLogLevel: noEvent, info: log('info'), error: log('error'), dispose: () => undefined,
    });
  };

  const window = guarded('window', {
    activeTextEditor: undefined as unknown,
    visibleTextEditors: [] as unknown[],
    createOutputChannel: logChannel,
    createStatusBarItem: (id: string) => {
      const item = new StubStatusBarItem(id);
      recorder.statusItems.push(item);
      return item;
    },
    createQuickPick: () => {
      const pick = new StubQuickPick();
      recorder.quickPicks.push(pick);
      return pick;
    },
    createWebviewPanel: (viewType: string, title: string, showOptions: unknown, options: unknown) => {
      const panel = new StubWebviewPanel(viewType, title, showOptions, options);
      recorder.panels.push(panel);
      return panel;
    },
    showTextDocument: async (target: StubDocument | URI, options?: { selection?: Range; viewColumn?: unknown }) => {
      const document = target instanceof URI ? await openTextDocument(target) : target;
      const start = options?.selection?.start;
      recorder.opened.push({ uri: document.uri.toString(), text: document.getText(),
        selection: start && { line: start.line, character: start.character }, viewColumn: options?.viewColumn });
      return guarded('TextEditor', { document });
    },
    showInformationMessage: record('info'),
    showErrorMessage: record('error'),
    withProgress: async <R>(_options: unknown, task: (progress: { report(v: unknown): void }, token: unknown) => Promise<R>) =>
      task({ report: () => undefined }, new CancellationTokenSource().token),
  });

  const folderList = (folders: { name: string; path: string }[]) =>
    folders.length === 0 ? undefined : folders.map((f, index) => ({ uri: URI.file(f.path), name: f.name, index }));
  const workspace = guarded('workspace', {
    // The same objects on every read, as VS Code does (the language client diffs them by identity);
    // `undefined` when no folder is open.
    workspaceFolders: folderList(init.folders),
    textDocuments: [] as StubDocument[],
    getConfiguration: (section?: string) => guarded(`configuration(${section})`, {
      get: <T>(key: string, fallback?: T) => (section === 'ripplegraph' && key in state.settings ? state.settings[key] : fallback) as T,
    }),
    onDidChangeConfiguration: configurationChanges.event,
    onDidOpenTextDocument: noEvent,
    onDidChangeTextDocument: noEvent,
    onDidCloseTextDocument: noEvent,
    onDidSaveTextDocument: noEvent,
    onWillSaveTextDocument: noEvent,
    onDidChangeWorkspaceFolders: noEvent,
    onDidCreateFiles: noEvent,
    onDidRenameFiles: noEvent,
    onDidDeleteFiles: noEvent,
    onWillCreateFiles: noEvent,
    onWillRenameFiles: noEvent,
    onWillDeleteFiles: noEvent,
    openTextDocument,
    registerTextDocumentContentProvider: (scheme: string, provider: never) => {
      contentProviders.set(scheme, provider);
      return new Disposable(() => contentProviders.delete(scheme));
    },
  });

  const vscode = guarded('vscode', {
    __esModule: true, // `import * as vscode` then uses this guarded object itself, not a copy
    version: '1.91.0',
    env: guarded('env', { appName: 'vscode-stub', language: 'en' }),
    Uri: URI,
    Position, Range, EventEmitter, CancellationTokenSource, CancellationError, ThemeColor, MarkdownString,
    Hover, CodeLens, CompletionItem, CodeAction, Diagnostic, DocumentLink, InlayHint, SymbolInformation, CallHierarchyItem,
    TypeHierarchyItem,
    CodeActionKind: Object.fromEntries(['Empty', 'QuickFix', 'Refactor', 'RefactorExtract', 'RefactorInline', 'RefactorRewrite',
      'Source', 'SourceOrganizeImports'].map((k) => [k, { value: k }])),
    ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
    window,
    workspace,
    languages: guarded('languages', {
      registerHoverProvider: register('hover'),
      registerCodeLensProvider: register('codeLens'),
      registerCallHierarchyProvider: register('callHierarchy'),
      registerReferenceProvider: register('references'),
      registerWorkspaceSymbolProvider: register('workspaceSymbol'),
      registerDocumentSymbolProvider: register('documentSymbol'),
    }),
    commands: guarded('commands', {
      registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => {
        if (commands.has(id)) {
          throw new Error(`command '${id}' already exists`);
        }
        commands.set(id, handler);
        return new Disposable(() => commands.delete(id));
      },
      executeCommand: async (id: string, ...args: unknown[]) => {
        recorder.executed.push({ command: id, args });
        const handler = commands.get(id);
        return handler === undefined ? undefined : handler(...args);
      },
    }),
  });

  return {
    vscode,
    recorder,
    openTextDocument,
    /** Change settings as the Settings editor would (fires onDidChangeConfiguration). */
    configure(changes: Record<string, unknown>): void {
      Object.assign(state.settings, changes);
      const keys = Object.keys(changes).map((k) => `ripplegraph.${k}`);
      configurationChanges.fire({
        affectsConfiguration: (section: string) => keys.some((k) => k === section || k.startsWith(`${section}.`)),
      });
    },
    /** Put the cursor of the active editor at `line`/`character` (0-based) of the file `path`. */
    setCursor(path: string, line: number, character: number): void {
      const document = documentOf(URI.file(path), readFileSync(path, 'utf8'));
      const at = new Position(line, character);
      window.activeTextEditor = guarded('TextEditor', { document, selection: { active: at, anchor: at } });
    },
    /** Registered command ids. */
    commandIds: () => [...commands.keys()].sort(),
    /** Open other workspace folders (none: no folder open), for the next activation. */
    setFolders(folders: { name: string; path: string }[]): void {
      workspace.workspaceFolders = folderList(folders);
    },
  };
}
