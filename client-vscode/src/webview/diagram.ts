/**
 * The script of the blast-radius webview (bundled by esbuild into out/diagram.js, loaded with the
 * page's nonce; nothing is fetched): every `figure.ripple-diagram` of the page holds a Mermaid
 * source (`pre > code`, as the report's markdown carries it); mermaid draws it as SVG in place of the
 * source, then each drawn node named in the page's link table (`script#ripple-diagram-links`, JSON
 * `[{id, label, uri, line}]`) becomes a link: a click or Enter posts `{command: 'open', uri, line}`
 * to the extension, which opens the editor there.
 *
 * When drawing fails the source stays shown with the reason. `figure.dataset.state` ends as
 * `drawn` or `failed` (what tests wait for).
 */
import mermaid from 'mermaid';
import { DIAGRAM_LINKS_ID, type DiagramLink, type OpenMessage } from '../lib/diagram';

interface VsCodeApi {
  postMessage(message: OpenMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** The Mermaid node id of a drawn node: `data-id` (mermaid >= 11), else from `…flowchart-<id>-<n>`. */
function nodeId(node: Element): string | undefined {
  const id = node.getAttribute('data-id');
  if (id) {
    return id;
  }
  return /flowchart-(.+)-\d+$/.exec(node.id)?.[1];
}

function linkNode(node: SVGGElement, link: DiagramLink, vscode: VsCodeApi): void {
  const open = (): void => vscode.postMessage({ command: 'open', uri: link.uri, line: link.line });
  node.classList.add('ripple-link');
  node.setAttribute('role', 'link');
  node.setAttribute('tabindex', '0');
  node.setAttribute('aria-label', `${link.label}: ${link.uri}:${link.line}`);
  node.dataset.uri = link.uri;
  node.dataset.line = String(link.line);
  const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
  title.textContent = `${link.uri}:${link.line}`;
  node.prepend(title);
  node.addEventListener('click', open);
  node.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open();
    }
  });
}

async function draw(figure: HTMLElement, index: number, links: Map<string, DiagramLink>, vscode: VsCodeApi): Promise<void> {
  const source = figure.querySelector('pre > code')?.textContent ?? '';
  try {
    const { svg } = await mermaid.render(`ripple-diagram-${index}`, source);
    const view = document.createElement('div');
    view.className = 'ripple-diagram-view';
    view.innerHTML = svg; // mermaid's output, sanitized by it (securityLevel strict)
    figure.querySelector('pre')?.replaceWith(view);
    for (const node of view.querySelectorAll<SVGGElement>('g.node')) {
      const link = links.get(nodeId(node) ?? '');
      if (link !== undefined) {
        linkNode(node, link, vscode);
      }
    }
    figure.dataset.state = 'drawn';
  } catch (error) {
    const note = document.createElement('p');
    note.className = 'ripple-diagram-error';
    note.textContent = `The diagram could not be drawn: ${error instanceof Error ? error.message : String(error)}`;
    figure.prepend(note);
    figure.dataset.state = 'failed';
  }
}

async function main(): Promise<void> {
  const vscode = acquireVsCodeApi();
  const table = document.getElementById(DIAGRAM_LINKS_ID)?.textContent ?? '[]';
  const links = new Map((JSON.parse(table) as DiagramLink[]).map((link) => [link.id, link]));
  const dark = document.body.classList.contains('vscode-dark') || document.body.classList.contains('vscode-high-contrast');
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark ? 'dark' : 'default' });
  const figures = [...document.querySelectorAll<HTMLElement>('figure.ripple-diagram')];
  for (const [i, figure] of figures.entries()) {
    await draw(figure, i, links, vscode);
  }
}

void main();
