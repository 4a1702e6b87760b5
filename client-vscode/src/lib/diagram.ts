/**
 * The blast-radius diagram between the extension and its webview, without VS Code: the link table
 * the server sends (`ripple/blastRadius` -> `diagram.links`: which drawn Mermaid node opens which
 * code), checked; how the table is put into the page (a JSON block no text can break out of); and
 * the message a click on a node posts back, checked before anything is opened.
 */
import type { Location } from './locations';

/** The element id of the page's link table (`<script type="application/json">`). */
export const DIAGRAM_LINKS_ID = 'ripple-diagram-links';

/** A drawn node that is code: Mermaid node `id` (`t0`, `c3`, `e1`, ...) opens `uri` at 1-based `line`. */
export interface DiagramLink {
  id: string;
  label: string;
  uri: string;
  line: number;
}

/** What the webview posts when a node is clicked. */
export interface OpenMessage {
  command: 'open';
  uri: string;
  line: number;
}

function isLine(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

/**
 * The links of a `ripple/blastRadius` answer's `diagram` (`{mermaid, links}`), entries that are not
 * `{id, label, uri, line}` left out; `[]` when the answer has no diagram (an older server).
 */
export function diagramLinks(diagram: unknown): DiagramLink[] {
  const links = (diagram as { links?: unknown } | null | undefined)?.links;
  if (!Array.isArray(links)) {
    return [];
  }
  return links.filter((l): l is DiagramLink => typeof l === 'object' && l !== null
    && typeof l.id === 'string' && typeof l.label === 'string' && typeof l.uri === 'string' && isLine(l.line))
    .map(({ id, label, uri, line }) => ({ id, label, uri, line }));
}

/** The location a webview message asks to open (`{command: 'open', uri, line}`), else `undefined`. */
export function openMessageLocation(message: unknown): Location | undefined {
  const m = message as Partial<OpenMessage> | null | undefined;
  return m?.command === 'open' && typeof m.uri === 'string' && isLine(m.line) ? { uri: m.uri, line: m.line } : undefined;
}

/**
 * `links` as the page's JSON block: `<`, `>`, `&` and the line separators written as `\u` escapes,
 * so no label or path (from the indexed code) can close the element or open a comment.
 */
export function linksBlock(links: readonly DiagramLink[]): string {
  const json = JSON.stringify(links).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `<script type="application/json" id="${DIAGRAM_LINKS_ID}">${json}</script>`;
}
