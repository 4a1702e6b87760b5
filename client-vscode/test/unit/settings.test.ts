import { mkdtempSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS, INSTALL_COMMAND, MAX_DEPTH, RESTART_KEYS, expandHome, findExecutable, locateExecutable, missingServerMessage,
  problemLine, pythonProblem, readSettings, serverLaunch, stoppedServerMessage,
} from '../../src/lib/settings';

const from = (values: Record<string, unknown>) => readSettings((key) => values[key]);

describe('settings', () => {
  it('defaults when nothing is set', () => {
    expect(from({})).toEqual(DEFAULT_SETTINGS);
    expect(serverLaunch(DEFAULT_SETTINGS)).toEqual({ command: 'ripple', args: ['serve'], env: {} });
  });

  it('every setting reaches the command line or the environment', () => {
    const settings = from({
      'server.command': ' /opt/ripple/.venv/bin/ripple ', 'server.embed': false, 'index.db': '/idx/all.db',
      'server.config': '/etc/ripple.toml',
      'backends.graph': 'memgraph', 'backends.graphUri': 'bolt://memgraph:7687',
      'backends.search': 'elasticsearch', 'backends.searchUri': 'http://es:9200',
      'server.env': { RIPPLE_EMBEDDING_MODEL: 'm', BAD: 3 }, 'blastRadius.depth': 3, 'codeLens.enabled': false,
      'blastRadius.services': { 'owners-service': 'petclinic', billing: 'billing-repo', 'bad name': 'x', n: 2 },
    });
    expect([settings.depth, settings.codeLens]).toEqual([3, false]);
    expect(serverLaunch(settings)).toEqual({
      command: '/opt/ripple/.venv/bin/ripple',
      args: ['serve', '--no-embed'],
      env: {
        RIPPLE_DB: '/idx/all.db', RIPPLE_CONFIG: '/etc/ripple.toml', RIPPLE_GRAPH_BACKEND: 'memgraph',
        RIPPLE_MEMGRAPH_URI: 'bolt://memgraph:7687', RIPPLE_SEARCH_BACKEND: 'elasticsearch', RIPPLE_ES_URL: 'http://es:9200',
        RIPPLE_SERVICES: 'owners-service=petclinic billing=billing-repo', RIPPLE_EMBEDDING_MODEL: 'm',
      },
    });
  });

  it('a Python interpreter runs the module', () => {
    expect(serverLaunch(from({ 'server.pythonPath': '/venv/bin/python', 'server.command': 'ignored' }))).toEqual(
      { command: '/venv/bin/python', args: ['-m', 'lsp_server.cli', 'serve'], env: {} });
  });

  it('bad values fall back to the defaults', () => {
    const settings = from({ 'server.command': '  ', 'blastRadius.depth': 0, 'codeLens.enabled': 'no', 'server.env': null,
      'server.embed': 1 });
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expect(from({ 'blastRadius.depth': 2.5 }).depth).toBe(5);
    expect(from({ 'blastRadius.depth': -3 }).depth).toBe(5);
    expect(from({ 'blastRadius.depth': '7' }).depth).toBe(5);
  });

  it('depth beyond what the server computes is cut to it', () => {
    expect([from({ 'blastRadius.depth': 50 }).depth, from({ 'blastRadius.depth': 20 }).depth, MAX_DEPTH]).toEqual([20, 20, 20]);
  });

  it('paths may start with ~/ (the home folder)', () => {
    const settings = from({ 'server.command': '~/rg/.venv/bin/ripple', 'server.pythonPath': ' ~/rg/.venv/bin/python ',
      'index.db': '~/idx.db', 'server.config': '~user/x.toml' });
    expect([settings.serverCommand, settings.pythonPath, settings.db, settings.config]).toEqual([
      `${homedir()}/rg/.venv/bin/ripple`, `${homedir()}/rg/.venv/bin/python`, `${homedir()}/idx.db`, '~user/x.toml']);
    expect([expandHome('~', '/h'), expandHome('~/a b', '/h'), expandHome('a/~/b', '/h'), expandHome('', '/h')]).toEqual(
      ['/h', '/h/a b', 'a/~/b', '']);
  });

  it('a command with spaces in its path is one argument', () => {
    expect(serverLaunch(from({ 'server.command': '/opt/my tools/ripple' }))).toEqual(
      { command: '/opt/my tools/ripple', args: ['serve'], env: {} });
  });

  it('depth and code lens apply without a restart; the rest restart the server', () => {
    expect(RESTART_KEYS).toEqual(['server.command', 'server.pythonPath', 'server.embed', 'index.db', 'server.config', 'backends.graph',
      'backends.graphUri', 'backends.search', 'backends.searchUri', 'server.env', 'blastRadius.services']);
  });
});

describe('server discovery', () => {
  it('finds an executable on PATH or by full path; a missing one is undefined', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ripple-which-'));
    mkdirSync(join(dir, 'bin'));
    const exe = join(dir, 'bin', 'ripple');
    writeFileSync(exe, '#!/bin/sh\n');
    chmodSync(exe, 0o755);
    writeFileSync(join(dir, 'bin', 'notexec'), '');
    expect(findExecutable('ripple', join(dir, 'bin'))).toBe(exe);
    expect(findExecutable(exe, '')).toBe(exe);
    expect(findExecutable('notexec', join(dir, 'bin'))).toBeUndefined();
    expect(findExecutable('ripple', join(dir, 'nothing'))).toBeUndefined();
    expect(findExecutable(join(dir, 'bin', 'missing'), undefined)).toBeUndefined();
  });

  it('says whether a command that is not there is missing or not executable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ripple-which-'));
    writeFileSync(join(dir, 'notexec'), '');
    mkdirSync(join(dir, 'folder'));
    writeFileSync(join(dir, 'with space'), '#!/bin/sh\n');
    chmodSync(join(dir, 'with space'), 0o755);
    expect([
      locateExecutable(join(dir, 'notexec'), ''), locateExecutable(join(dir, 'folder'), ''), locateExecutable(join(dir, 'missing'), ''),
      locateExecutable('notexec', dir), locateExecutable(join(dir, 'with space'), ''),
    ]).toEqual([{ kind: 'not-executable' }, { kind: 'not-executable' }, { kind: 'not-found' }, { kind: 'not-found' },
      { path: join(dir, 'with space') }]);
  });

  it('the missing-server message says how to install it', () => {
    expect(missingServerMessage(serverLaunch(DEFAULT_SETTINGS))).toBe(
      'ripplegraph: the language server cannot start: "ripple" was not found (ripplegraph.server.command). '
      + 'Install it from a clone of ripplegraph with `python3 -m venv .venv && .venv/bin/pip install -q -e .`, '
      + 'then set ripplegraph.server.command to the full path of .venv/bin/ripple.');
    expect(missingServerMessage(serverLaunch(from({ 'server.pythonPath': 'python3' })), { kind: 'python', detail: 'exited with code 1' })).toBe(
      'ripplegraph: the language server cannot start: the Python interpreter "python3" (ripplegraph.server.pythonPath) '
      + 'cannot run ripplegraph (exited with code 1). Install it from a clone of ripplegraph with '
      + `\`${INSTALL_COMMAND}\`, then set ripplegraph.server.pythonPath to the full path of .venv/bin/python.`);
  });

  it('a file that cannot run, a server that fails at start', () => {
    const install = `Install it from a clone of ripplegraph with \`${INSTALL_COMMAND}\`, then set ripplegraph.server.command to the full path of .venv/bin/ripple.`;
    const launch = serverLaunch(from({ 'server.command': '/opt/rg/ripple' }));
    expect(missingServerMessage(launch, { kind: 'not-executable' })).toBe(
      `ripplegraph: the language server cannot start: "/opt/rg/ripple" is not an executable file (ripplegraph.server.command). ${install}`);
    expect(missingServerMessage(launch, { kind: 'exited', detail: "ImportError: cannot import name 'x'" })).toBe(
      'ripplegraph: the language server cannot start: "/opt/rg/ripple serve" failed at start '
      + `(ImportError: cannot import name 'x'; more in the "ripplegraph" output). ${install}`);
    expect(missingServerMessage(launch, { kind: 'exited', detail: '' })).toBe(
      `ripplegraph: the language server cannot start: "/opt/rg/ripple serve" failed at start (more in the "ripplegraph" output). ${install}`);
  });

  it('the message of a server that keeps stopping', () => {
    expect(stoppedServerMessage(3, 3, 'MemoryError')).toBe('ripplegraph: the language server stopped again after 3 restarts '
      + 'within 3 minutes (last: MemoryError) and is not started again. See the "ripplegraph" output, then run "Ripple: Restart Server".');
    expect(stoppedServerMessage(1, 3, undefined)).toBe('ripplegraph: the language server stopped again after 1 restart '
      + 'within 3 minutes and is not started again. See the "ripplegraph" output, then run "Ripple: Restart Server".');
  });

  it('problemLine: the last line naming an error, else the last line', () => {
    expect(problemLine('Traceback (most recent call last):\n  File "x"\nKeyError: 1\n\nDuring handling...\nValueError: bad\n  ')).toBe('ValueError: bad');
    expect(problemLine('starting\nkilled by signal\n')).toBe('killed by signal');
    expect(problemLine(' \n')).toBeUndefined();
  });
});

describe('python check', () => {
  const script = (body: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'ripple-py-')), 'python');
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };

  it('names the error the interpreter printed, or nothing when it imports the server', async () => {
    const traceback = 'echo "Traceback (most recent call last):" >&2; echo "  File x" >&2; '
      + 'echo "ModuleNotFoundError: No module named \'lsp_server\'" >&2; exit 1';
    expect(await pythonProblem(script(traceback))).toBe("ModuleNotFoundError: No module named 'lsp_server'");
    expect(await pythonProblem(script('echo "it broke" >&2; exit 3'))).toBe('it broke');
    expect(await pythonProblem(script('exit 2'))).toBe('exit status 2');
    expect(await pythonProblem(script('test "$2" = "import lsp_server.cli"'))).toBeUndefined();
    expect(await pythonProblem('/nonexistent/python')).toBe('spawn /nonexistent/python ENOENT');
  });
});
