/**
 * The server's custom requests and commands (lsp_server/features/custom.py), typed, and the bridge
 * from an `AbortSignal` to the client's cancellation token.
 */
import * as vscode from 'vscode';
import { ExecuteCommandRequest, type LanguageClient } from 'vscode-languageclient/node';
import type { IndexStatus } from './lib/status';
import type { SearchResult, SimilarResult } from './lib/searchItems';

/** `ripple/search` `{query, limit}` -> `{hits}`. */
export const SEARCH = 'ripple/search';
/** `ripple/similar` `{textDocument, position, limit}` -> `{target, hits, notes}`. */
export const SIMILAR = 'ripple/similar';
/** `ripple/indexStatus` `{}` -> `{folders}`. */
export const INDEX_STATUS = 'ripple/indexStatus';
/** `ripple/fileContent` `{uri}` -> `{text}`. */
export const FILE_CONTENT = 'ripple/fileContent';
/** `ripple/blastRadius` `{textDocument, position, depth}` -> `{markdown, report, diagram}` (`diagram`: newer servers). */
export const BLAST_RADIUS = 'ripple/blastRadius';
/** The server command that indexes every folder again: -> `{started: [repo]}`. */
export const REINDEX = 'ripple.reindex';

/** The answer of `ripple/blastRadius`. */
export interface BlastRadiusResult {
  markdown: string;
  report: unknown;
  /** `{mermaid, links: [{id, label, uri, line}]}`; absent from servers older than the diagram view. */
  diagram?: unknown;
}

/** A cancellation token that fires when `signal` aborts. */
function tokenOf(signal: AbortSignal | undefined): vscode.CancellationToken | undefined {
  if (signal === undefined) {
    return undefined;
  }
  const source = new vscode.CancellationTokenSource();
  if (signal.aborted) {
    source.cancel();
  } else {
    signal.addEventListener('abort', () => source.cancel(), { once: true });
  }
  return source.token;
}

/** `ripple/search`. */
export function search(client: LanguageClient, query: string, limit: number, signal?: AbortSignal): Promise<SearchResult> {
  return client.sendRequest<SearchResult>(SEARCH, { query, limit }, tokenOf(signal));
}

/** `ripple/similar` at a position: code like the symbol there. */
export function similar(
  client: LanguageClient, uri: string, position: { line: number; character: number }, limit: number,
): Promise<SimilarResult> {
  return client.sendRequest<SimilarResult>(SIMILAR, { textDocument: { uri }, position, limit });
}

/** `ripple/indexStatus`. */
export function indexStatus(client: LanguageClient): Promise<IndexStatus> {
  return client.sendRequest<IndexStatus>(INDEX_STATUS, {});
}

/** `ripple/fileContent`: the text of a file of an indexed repository. */
export async function fileContent(client: LanguageClient, uri: string, token?: vscode.CancellationToken): Promise<string> {
  const result = await client.sendRequest<{ text: string }>(FILE_CONTENT, { uri }, token);
  return result.text;
}

/** `ripple/blastRadius` at a position; `null` when there is no method there. */
export function blastRadius(
  client: LanguageClient, uri: string, position: { line: number; character: number }, depth: number,
): Promise<BlastRadiusResult | null> {
  return client.sendRequest<BlastRadiusResult | null>(BLAST_RADIUS, { textDocument: { uri }, position, depth });
}

/** `workspace/executeCommand` `ripple.reindex`: the repositories whose indexing started. */
export async function reindex(client: LanguageClient): Promise<string[]> {
  const result = (await client.sendRequest(ExecuteCommandRequest.type, { command: REINDEX, arguments: [] })) as
    { started?: string[] } | null;
  return result?.started ?? [];
}
