/**
 * The blast radius report (`ripple/blastRadius` -> `{markdown, report}`) as a webview page, without
 * VS Code: markdown-it renders the markdown, and every location link `[path:line](<uri>#L<line>)`
 * is rewritten to a `command:` link that opens the location in the editor (webviews run commands,
 * not `file:` or `ripple:` links).
 *
 * The report's Mermaid block becomes a `figure.ripple-diagram` holding the source, which the page's
 * one script (out/diagram.js, from src/webview/diagram.ts) draws, each code node a link
 * (lib/diagram.ts).
 *
 * The markdown quotes the indexed code (names, paths, endpoint paths), which may come from anyone:
 * raw HTML is escaped, only location links stay links (any other link or image is its text: no
 * `https:` request or other command leaves the page), and the page's content security policy
 * allows no image or other resource and no script but the bundled one, by its nonce.
 */
import MarkdownIt from 'markdown-it';
import { linksBlock, type DiagramLink } from './diagram';
import { parseLocationTarget, type Location } from './locations';

/** The command a location link runs: arguments `[uri, line]` (1-based line). */
export const OPEN_LOCATION_COMMAND = 'ripplegraph.openLocation';

/** The `command:` href that opens `location`. */
export function openLocationHref(location: Location): string {
  return `command:${OPEN_LOCATION_COMMAND}?${encodeURIComponent(JSON.stringify([location.uri, location.line]))}`;
}

/** The arguments of {@link OPEN_LOCATION_COMMAND} checked: `[uri, line]`, else `undefined`. */
export function locationArgs(args: readonly unknown[]): Location | undefined {
  const [uri, line] = args;
  return typeof uri === 'string' && typeof line === 'number' && Number.isInteger(line) && line >= 1
    ? { uri, line }
    : undefined;
}

function markdownIt(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  const validate = md.validateLink.bind(md);
  // markdown-it refuses `file:` links; location links are kept (and rewritten below).
  md.validateLink = (url: string): boolean => parseLocationTarget(url) !== undefined || validate(url);
  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => tokens[idx].info.trim() === 'mermaid'
    ? `<figure class="ripple-diagram"><pre><code class="language-mermaid">${escapeHtml(tokens[idx].content)}</code></pre></figure>\n`
    : fence(tokens, idx, options, env, self);
  md.core.ruler.push('ripple_locations', (state) => {
    for (const block of state.tokens) {
      if (block.type === 'inline' && block.children !== null) {
        block.children = locationLinksOnly(block.children, (text) => Object.assign(new state.Token('text', '', 0), { content: text }));
      }
    }
  });
  return md;
}

type Tokens = ReturnType<MarkdownIt['parse']>;

/** Inline tokens with location links rewritten to commands, other links unwrapped, images as their alt text. */
function locationLinksOnly(tokens: Tokens, text: (content: string) => Tokens[number]): Tokens {
  const out: Tokens = [];
  let unwrapping = false; // inside a link that is not a location (links do not nest)
  for (const token of tokens) {
    if (token.type === 'link_open') {
      const location = parseLocationTarget(token.attrGet('href') ?? '');
      if (location === undefined) {
        unwrapping = true;
        continue;
      }
      token.attrs = [['href', openLocationHref(location)], ['title', `${location.uri}:${location.line}`]];
    } else if (token.type === 'link_close' && unwrapping) {
      unwrapping = false;
      continue;
    } else if (token.type === 'image') {
      out.push(text(token.content));
      continue;
    }
    out.push(token);
  }
  return out;
}

/** The locations a report links to, in order (what the page's links open). */
export function reportLocations(markdown: string): Location[] {
  const found: Location[] = [];
  const walk = (tokens: Tokens): void => {
    for (const token of tokens) {
      const href = token.type === 'link_open' ? token.attrGet('href') ?? '' : '';
      if (href.startsWith(`command:${OPEN_LOCATION_COMMAND}?`)) {
        const location = locationArgs(JSON.parse(decodeURIComponent(href.slice(href.indexOf('?') + 1))) as unknown[]);
        if (location !== undefined) {
          found.push(location);
        }
      }
      if (token.children) {
        walk(token.children);
      }
    }
  };
  walk(markdownIt().parse(markdown, {}));
  return found;
}

/** The report's markdown as HTML, location links rewritten to {@link OPEN_LOCATION_COMMAND}. */
export function renderReport(markdown: string): string {
  return markdownIt().render(markdown);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** What the page needs to draw its diagram: the script's webview URI, the nonce it loads with, the node links. */
export interface DiagramScript {
  scriptUri: string;
  nonce: string;
  links: readonly DiagramLink[];
}

/**
 * The whole webview page: a strict content security policy (inline style; with `diagram`, the one
 * script that carries its nonce), the title, the report, and with `diagram` the link table and the script.
 */
export function reportPage(markdown: string, title: string, cspSource: string, diagram?: DiagramScript): string {
  if (diagram !== undefined && !/^[A-Za-z0-9+/=_-]+$/.test(diagram.nonce)) {
    throw new Error(`not a nonce: ${diagram.nonce}`);
  }
  const scripts = diagram === undefined ? '' : ` script-src 'nonce-${diagram.nonce}';`;
  const csp = `default-src 'none'; style-src ${cspSource} 'unsafe-inline';${scripts}`;
  const tail = diagram === undefined ? [] : [
    linksBlock(diagram.links),
    `<script nonce="${diagram.nonce}" src="${escapeHtml(diagram.scriptUri)}"></script>`,
  ];
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size);line-height:1.5;padding:0 16px}'
      + 'code,pre{font-family:var(--vscode-editor-font-family)}a{color:var(--vscode-textLink-foreground)}'
      + 'table{border-collapse:collapse}th,td{border:1px solid var(--vscode-panel-border);padding:2px 8px;text-align:left}'
      + '.ripple-diagram{margin:0}.ripple-diagram-view svg{max-width:100%;height:auto}'
      + '.ripple-link{cursor:pointer}.ripple-link:focus{outline:1px solid var(--vscode-focusBorder)}</style>',
    '</head>',
    `<body>\n${renderReport(markdown)}${tail.map((t) => `${t}\n`).join('')}</body>`,
    '</html>',
    '',
  ].join('\n');
}

/** The panel title of a report: the plain text of its first heading, else `Blast radius`. */
export function reportTitle(markdown: string): string {
  const tokens = markdownIt().parse(markdown, {});
  const heading = tokens.findIndex((t) => t.type === 'heading_open');
  const inline = heading >= 0 ? tokens[heading + 1].children ?? [] : [];
  const text = inline.filter((t) => t.type === 'text' || t.type === 'code_inline').map((t) => t.content).join('').trim();
  return text || 'Blast radius';
}

/** `false` when a `ripple/blastRadius` report found no symbol (its `report.targets` is empty). */
export function hasTargets(report: unknown): boolean {
  const targets = (report as { targets?: unknown } | null | undefined)?.targets;
  return !Array.isArray(targets) || targets.length > 0;
}
