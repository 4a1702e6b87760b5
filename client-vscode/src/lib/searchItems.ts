/**
 * `ripple/search` answers as QuickPick rows, without VS Code: kind, fully qualified name and
 * `path:line` for every hit.
 */
import { displayPath, type FolderRef } from './locations';

/** An LSP position (0-based line and character). */
export interface LspPosition {
  line: number;
  character: number;
}

/** An LSP range. */
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

/** One hit of `ripple/search` (lsp_server/features/custom.py). */
export interface SearchHit {
  uri: string;
  range: LspRange;
  name: string;
  id: string;
  kind: string;
  score: number;
  callers: number;
  /** The dotted name (`org.example.OwnerController.show`); older servers omit it. */
  fqn?: string;
}

/** The answer of `ripple/search`. */
export interface SearchResult {
  hits: SearchHit[];
}

/** A QuickPick row for a hit; `uri` and `line` (0-based) say where accepting it goes. */
export interface HitItem {
  label: string;
  description: string;
  detail: string;
  uri: string;
  line: number;
}

/** Codicon per chunk kind (design: method, class, function, file_section, config, sql, doc). */
const KIND_ICONS: Record<string, string> = {
  method: 'symbol-method',
  function: 'symbol-function',
  class: 'symbol-class',
  interface: 'symbol-interface',
  file_section: 'symbol-file',
  config: 'settings-gear',
  sql: 'database',
  doc: 'book',
};

/** The codicon name shown before a hit of `kind`. */
export function kindIcon(kind: string): string {
  return KIND_ICONS[kind] ?? 'symbol-misc';
}

/**
 * The dotted name of a hit: its `fqn` when the server sends one, else derived from the node id
 * `repo:path/without/suffix.Qualified.name(sig)` (repository and signature dropped, `/` -> `.`).
 */
export function fqnOf(hit: Pick<SearchHit, 'id' | 'fqn' | 'name'>): string {
  if (hit.fqn) {
    return hit.fqn;
  }
  const colon = hit.id.indexOf(':');
  let rest = colon >= 0 ? hit.id.slice(colon + 1) : hit.id;
  const paren = rest.indexOf('(');
  if (paren >= 0) {
    rest = rest.slice(0, paren);
  }
  return rest.replace(/\//g, '.') || hit.name;
}

/** `n caller(s)`. */
export function callersText(n: number): string {
  return `${n} caller${n === 1 ? '' : 's'}`;
}

/**
 * The row of a hit: label `$(icon) fqn`, description `kind · N callers`, detail `path:line`
 * (1-based line of the hit's first line).
 */
export function hitToItem(hit: SearchHit, folders: readonly FolderRef[]): HitItem {
  const line = hit.range.start.line;
  return {
    label: `$(${kindIcon(hit.kind)}) ${fqnOf(hit)}`,
    description: `${hit.kind} · ${callersText(hit.callers)}`,
    detail: `${displayPath(hit.uri, folders)}:${line + 1}`,
    uri: hit.uri,
    line,
  };
}

/** The rows of an answer, in the server's order (best first). */
export function searchItems(result: SearchResult | null | undefined, folders: readonly FolderRef[]): HitItem[] {
  return (result?.hits ?? []).map((hit) => hitToItem(hit, folders));
}

/** The answer of `ripple/similar` (lsp_server/features/custom.py): the symbol compared, its nearest code, notes. */
export interface SimilarResult {
  target: { id: string; name: string } | null;
  hits: SearchHit[];
  notes: string[];
}

/** What "Find Similar Code" shows for an answer: a message alone, or a QuickPick `title` with rows (an empty-row text when none). */
export type SimilarView =
  | { kind: 'message'; text: string }
  | { kind: 'pick'; title: string; items: HitItem[]; empty: string };

/**
 * The view of a `ripple/similar` answer: no symbol at the cursor is a message (the server's note);
 * otherwise a QuickPick titled after the symbol, its rows as search rows, and, when there is none, the
 * server's note (the symbol has no embedding yet, or nothing is like it).
 */
export function similarView(result: SimilarResult | null | undefined, folders: readonly FolderRef[]): SimilarView {
  if (!result || result.target === null) {
    return { kind: 'message', text: `ripplegraph: ${result?.notes?.[0] ?? 'no class, method or function at the cursor.'}` };
  }
  return {
    kind: 'pick',
    title: `Ripple: Code Similar to ${result.target.name}`,
    items: searchItems(result, folders),
    empty: result.notes.length > 0 ? `No similar code: ${result.notes.join('; ')}` : 'No similar code',
  };
}
