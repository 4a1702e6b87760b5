/**
 * Locations as the server writes them, without VS Code: `file:` and `ripple:` URIs, link targets
 * `<uri>#L<line>` (1-based line, as in the blast radius report), and paths for display.
 *
 * A `ripple:/<repo>/<path>` URI names a file of an indexed repository that is not on this disk; its
 * text comes from the server (`ripple/fileContent`).
 */
import { URI } from 'vscode-uri';

/** URI scheme of files served by the server (lsp_server/convert.py `RIPPLE_SCHEME`). */
export const RIPPLE_SCHEME = 'ripple';

/** A place to open: a document URI (as the server wrote it) and a 1-based line. */
export interface Location {
  uri: string;
  line: number;
}

/** A workspace folder for display purposes. */
export interface FolderRef {
  uri: string;
  name: string;
}

const LINE_FRAGMENT = /^L(\d+)(?:C\d+)?(?:-L?\d+(?:C\d+)?)?$/;

/**
 * The location a link target names, when it is one: a `file:` or `ripple:` URI whose fragment is
 * `L<line>` (also `L<line>C<col>` and ranges `L3-L7`, whose first line counts). Anything else
 * (`https:` links, targets without a line) is `undefined`.
 */
export function parseLocationTarget(target: string): Location | undefined {
  const hash = target.lastIndexOf('#');
  if (hash < 0) {
    return undefined;
  }
  const uri = target.slice(0, hash);
  const match = LINE_FRAGMENT.exec(target.slice(hash + 1));
  if (match === null || !isDocumentUri(uri)) {
    return undefined;
  }
  const line = Number(match[1]);
  return line >= 1 ? { uri, line } : undefined;
}

/** `true` for a `file:` or `ripple:` URI with a path. */
export function isDocumentUri(uri: string): boolean {
  const colon = uri.indexOf(':');
  const scheme = colon > 0 ? uri.slice(0, colon).toLowerCase() : '';
  if (scheme !== 'file' && scheme !== RIPPLE_SCHEME) {
    return false;
  }
  try {
    return URI.parse(uri).path.length > 1;
  } catch {
    return false;
  }
}

/** `(repo, path)` of a `ripple:` URI, else `undefined` (the inverse of the server's `ripple_uri`). */
export function parseRippleUri(uri: string): { repo: string; path: string } | undefined {
  if (!uri.startsWith(`${RIPPLE_SCHEME}:/`)) {
    return undefined;
  }
  const rest = uri.slice(RIPPLE_SCHEME.length + 2).replace(/^\/+/, '');
  const slash = rest.indexOf('/');
  if (slash <= 0 || slash === rest.length - 1) {
    return undefined;
  }
  try {
    return { repo: decodeURIComponent(rest.slice(0, slash)), path: decodeURIComponent(rest.slice(slash + 1)) };
  } catch {
    return undefined;
  }
}

/**
 * How a document URI is shown: `<folder>/<path inside it>` for a file inside a workspace folder
 * (the innermost one), `<repo>/<path>` for a `ripple:` URI, else the file's own path.
 */
export function displayPath(uri: string, folders: readonly FolderRef[]): string {
  const ripple = parseRippleUri(uri);
  if (ripple !== undefined) {
    return `${ripple.repo}/${ripple.path}`;
  }
  let parsed: URI;
  try {
    parsed = URI.parse(uri);
  } catch {
    return uri;
  }
  if (parsed.scheme !== 'file') {
    return uri;
  }
  let best: { name: string; rest: string } | undefined;
  for (const folder of folders) {
    const root = URI.parse(folder.uri).path.replace(/\/+$/, '');
    if (parsed.path.startsWith(`${root}/`)) {
      const rest = parsed.path.slice(root.length + 1);
      if (best === undefined || rest.length < best.rest.length) {
        best = { name: folder.name, rest };
      }
    }
  }
  return best !== undefined ? `${best.name}/${best.rest}` : parsed.fsPath;
}
