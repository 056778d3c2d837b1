// ELK (the Eclipse Layout Kernel, compiled to JavaScript) runs in a Web Worker of its own: its
// 1.6 MB script is fetched when the Flow tab first lays out a diagram, and laying out never holds
// up the page. Imported on demand (flow-tab.tsx); `?url` makes the worker a file of the build,
// served from this site (the CSP's default-src 'self' allows it).
import ELK, { type ElkNode } from 'elkjs/lib/elk-api';
import workerUrl from 'elkjs/lib/elk-worker.min.js?url';

let elk: InstanceType<typeof ELK> | null = null;

/** The graph laid out by ELK (one worker for the page, started at the first call). */
export function layout(graph: ElkNode): Promise<ElkNode> {
  elk ??= new ELK({ workerUrl, algorithms: ['layered'] });
  return elk.layout(graph);
}
