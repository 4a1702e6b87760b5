/**
 * Settings -> how the language server is started, without VS Code.
 *
 * `ripple serve` reads its configuration from its command line (`--no-embed`) and environment
 * (`RIPPLE_DB` names the index of every folder, `RIPPLE_CONFIG` a configuration file,
 * `RIPPLE_SERVICES` the service map of impact analysis, and the backends are chosen by the variables
 * of stores/config.py: `RIPPLE_GRAPH_BACKEND`, `RIPPLE_MEMGRAPH_URI`, `RIPPLE_SEARCH_BACKEND`,
 * `RIPPLE_ES_URL`): the extension starts it with those set from the `ripplegraph.*` settings. Blast
 * radius depth is sent with each request, and code lenses are switched off on the client side, so neither
 * needs the server to know.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import which from 'which';

/** The `ripplegraph.*` settings (package.json `contributes.configuration` declares them). */
export interface RippleSettings {
  /** The `ripple` executable: a name on PATH or a full path. */
  serverCommand: string;
  /** A Python interpreter with ripplegraph installed; when set, runs `-m lsp_server.cli serve`. */
  pythonPath: string;
  /** Compute embeddings after indexing (`--no-embed` when `false`). */
  embed: boolean;
  /** Index file of every folder (`RIPPLE_DB`); empty: each folder's `.ripple/index.db`. */
  db: string;
  /** A ripplegraph configuration file (`RIPPLE_CONFIG`, stores/config.py). */
  config: string;
  /** Graph backend: `embedded` (SQLite) or `memgraph`. */
  graphBackend: string;
  /** Bolt URI of the graph backend (`memgraph`): `RIPPLE_MEMGRAPH_URI`. */
  graphUri: string;
  /** Search backend: `embedded` (SQLite FTS5 + vectors) or `elasticsearch`. */
  searchBackend: string;
  /** URL of the search backend (`elasticsearch`): `RIPPLE_ES_URL`. */
  searchUri: string;
  /** More environment variables for the server. */
  env: Record<string, string>;
  /** Service map of impact analysis: HTTP service name -> repository serving it (`RIPPLE_SERVICES`). */
  services: Record<string, string>;
  /** Hops of a blast radius report (`ripple/blastRadius` `depth`). */
  depth: number;
  /** Show the "N callers" code lenses. */
  codeLens: boolean;
}

/** Defaults, as declared in package.json. */
export const DEFAULT_SETTINGS: RippleSettings = {
  serverCommand: 'ripple',
  pythonPath: '',
  embed: true,
  db: '',
  config: '',
  graphBackend: 'embedded',
  graphUri: '',
  searchBackend: 'embedded',
  searchUri: '',
  env: {},
  services: {},
  depth: 5,
  codeLens: true,
};

/** The deepest blast radius the server computes (`ripple/blastRadius` refuses more). */
export const MAX_DEPTH = 20;

/** Setting keys (under `ripplegraph.`) of each field. */
export const SETTING_KEYS: Record<keyof RippleSettings, string> = {
  serverCommand: 'server.command',
  pythonPath: 'server.pythonPath',
  embed: 'server.embed',
  db: 'index.db',
  config: 'server.config',
  graphBackend: 'backends.graph',
  graphUri: 'backends.graphUri',
  searchBackend: 'backends.search',
  searchUri: 'backends.searchUri',
  env: 'server.env',
  services: 'blastRadius.services',
  depth: 'blastRadius.depth',
  codeLens: 'codeLens.enabled',
};

/** Settings whose change needs the server started again (all but depth and code lens). */
export const RESTART_KEYS: readonly string[] = Object.entries(SETTING_KEYS)
  .filter(([field]) => field !== 'depth' && field !== 'codeLens')
  .map(([, key]) => key);

/** Environment variables the settings map to. */
export const ENV = {
  db: 'RIPPLE_DB',
  config: 'RIPPLE_CONFIG',
  graphBackend: 'RIPPLE_GRAPH_BACKEND',
  graphUri: 'RIPPLE_MEMGRAPH_URI',
  searchBackend: 'RIPPLE_SEARCH_BACKEND',
  searchUri: 'RIPPLE_ES_URL',
  services: 'RIPPLE_SERVICES',
} as const;

/** The README's install command (run in a clone of ripplegraph). */
export const INSTALL_COMMAND = 'python3 -m venv .venv && .venv/bin/pip install -q -e .';

function stringEntries(value: object): Record<string, string> {
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** `path` with a leading `~/` (or a lone `~`) replaced by `home`; any other value as it is. */
export function expandHome(path: string, home: string = homedir()): string {
  return path === '~' ? home : path.startsWith('~/') ? `${home}${path.slice(1)}` : path;
}

/**
 * Read settings through `get(key)` (a `WorkspaceConfiguration` in VS Code); values of the wrong type
 * fall back to defaults, paths starting with `~/` are under the home folder, and depth is a whole
 * number of hops between 1 and {@link MAX_DEPTH} (larger values are cut to it).
 */
export function readSettings(get: (key: string) => unknown): RippleSettings {
  const out: Record<string, unknown> = {};
  for (const [field, key] of Object.entries(SETTING_KEYS) as [keyof RippleSettings, string][]) {
    const value = get(key);
    const fallback = DEFAULT_SETTINGS[field];
    out[field] = typeof value === typeof fallback && value !== null ? value : fallback;
  }
  const settings = out as unknown as RippleSettings;
  settings.serverCommand = expandHome(settings.serverCommand.trim() || DEFAULT_SETTINGS.serverCommand);
  settings.pythonPath = expandHome(settings.pythonPath.trim());
  settings.db = expandHome(settings.db.trim());
  settings.config = expandHome(settings.config.trim());
  settings.depth = Number.isInteger(settings.depth) && settings.depth >= 1 ? Math.min(settings.depth, MAX_DEPTH) : DEFAULT_SETTINGS.depth;
  settings.env = stringEntries(settings.env);
  settings.services = stringEntries(settings.services);
  return settings;
}

/** How to start the server: executable, arguments and the environment variables to add. */
export interface ServerLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The server's command line and environment for `settings`. */
export function serverLaunch(settings: RippleSettings): ServerLaunch {
  const serve = ['serve', ...(settings.embed ? [] : ['--no-embed'])];
  const env: Record<string, string> = {};
  if (settings.db) {
    env[ENV.db] = settings.db;
  }
  if (settings.config) {
    env[ENV.config] = settings.config;
  }
  if (settings.graphBackend !== 'embedded') {
    env[ENV.graphBackend] = settings.graphBackend;
  }
  if (settings.graphUri) {
    env[ENV.graphUri] = settings.graphUri;
  }
  if (settings.searchBackend !== 'embedded') {
    env[ENV.searchBackend] = settings.searchBackend;
  }
  if (settings.searchUri) {
    env[ENV.searchUri] = settings.searchUri;
  }
  const services = Object.entries(settings.services).filter(([name, repo]) => /^\S+$/.test(name) && /^\S+$/.test(repo));
  if (services.length > 0) {
    env[ENV.services] = services.map(([name, repo]) => `${name}=${repo}`).join(' ');
  }
  Object.assign(env, settings.env);
  return settings.pythonPath
    ? { command: settings.pythonPath, args: ['-m', 'lsp_server.cli', ...serve], env }
    : { command: settings.serverCommand, args: serve, env };
}

/** The full path of `command` (searched on `PATH` unless it has a slash), or `undefined` when it is not there. */
export function findExecutable(command: string, path: string | undefined): string | undefined {
  return which.sync(command, { nothrow: true, path: path ?? '' }) ?? undefined;
}

/** Why the server could not be started. */
export type LaunchProblem =
  /** The command is not on `PATH`, or its path names no file. */
  | { kind: 'not-found' }
  /** The path names a file that cannot be executed (no `x` permission, or a folder). */
  | { kind: 'not-executable' }
  /** The Python interpreter cannot import the server (`detail`: the error it printed). */
  | { kind: 'python'; detail: string }
  /** The server started and exited before it answered (`detail`: what it printed last). */
  | { kind: 'exited'; detail: string };

/** The executable of `command` (see {@link findExecutable}), or why there is none. */
export function locateExecutable(command: string, path: string | undefined): { path: string } | LaunchProblem {
  const found = findExecutable(command, path);
  if (found !== undefined) {
    return { path: found };
  }
  return { kind: command.includes('/') && existsSync(command) ? 'not-executable' : 'not-found' };
}

/**
 * The line of a program's output that says what went wrong: the last line naming an error
 * (`ModuleNotFoundError: No module named 'lsp_server'`, not the `Traceback` heading), else the last
 * line, else `undefined`.
 */
export function problemLine(output: string): string | undefined {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return [...lines].reverse().find((l) => /Error\b/.test(l) && !l.startsWith('Traceback')) ?? lines.at(-1);
}

/**
 * Why `python` cannot run the server (the error it printed, e.g. `ModuleNotFoundError: No module
 * named 'lsp_server'`), or `undefined` when it imports `lsp_server.cli`.
 */
export function pythonProblem(python: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(python, ['-c', 'import lsp_server.cli'], { encoding: 'utf8', timeout: 60_000, env }, (error, stdout, stderr) => {
      if (error === null) {
        resolve(undefined);
        return;
      }
      const code = typeof error.code === 'number' ? `exit status ${error.code}` : error.message;
      resolve(problemLine(`${stdout}\n${stderr}`) ?? code);
    });
  });
}

/** The message shown when the server cannot be started: what went wrong, and how to install it. */
export function missingServerMessage(launch: ServerLaunch, problem: LaunchProblem = { kind: 'not-found' }): string {
  const python = launch.args[0] === '-m';
  const setting = python ? 'ripplegraph.server.pythonPath' : 'ripplegraph.server.command';
  const what = {
    'not-found': `"${launch.command}" was not found (${setting})`,
    'not-executable': `"${launch.command}" is not an executable file (${setting})`,
    python: `the Python interpreter "${launch.command}" (${setting}) cannot run ripplegraph`,
    exited: `"${[launch.command, ...launch.args].join(' ')}" failed at start`,
  }[problem.kind];
  const said = 'detail' in problem ? [problem.detail] : [];
  const more = problem.kind === 'exited' ? ['more in the "ripplegraph" output'] : [];
  const detail = [...said, ...more].filter((d) => d !== '').join('; ');
  const then = python ? `${setting} to the full path of .venv/bin/python` : `${setting} to the full path of .venv/bin/ripple`;
  return `ripplegraph: the language server cannot start: ${what}${detail ? ` (${detail})` : ''}. `
    + `Install it from a clone of ripplegraph with \`${INSTALL_COMMAND}\`, then set ${then}.`;
}

/**
 * The message shown when a server that was running stopped again after `restarts` restarts in
 * `minutes` minutes (`detail`: what it printed last), and is left stopped.
 */
export function stoppedServerMessage(restarts: number, minutes: number, detail: string | undefined): string {
  return `ripplegraph: the language server stopped again after ${restarts} restart${restarts === 1 ? '' : 's'} within `
    + `${minutes} minutes${detail ? ` (last: ${detail})` : ''} and is not started again. See the "ripplegraph" output, `
    + 'then run "Ripple: Restart Server".';
}
