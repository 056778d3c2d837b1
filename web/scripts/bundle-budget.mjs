#!/usr/bin/env node
// @ts-check
// Bundle budgets: production JavaScript, gzipped, of
//   - the landing page's first load: the entry chunk and the chunks it imports statically (the
//     `modulepreload` links of index.html) — the landing route loads nothing else at startup;
//   - a form step: the landing load plus the lazily loaded form renderer (RJSF and the CMS widgets);
//   - the rules workbench, and it with the draft's code editor or the flow diagram's layout.
// Each file is gzipped on its own (Node's zlib, level 9, as a server would send it); kB = 1000 bytes, as
// Vite prints. Vite's own gzip figures (its native reporter, printed by `vite build`) run about 1.3%
// higher than zlib's level 9 for the same files; when this script builds, it reads them from the build's
// output too and a route must keep its budget by both measures.
//
//   node scripts/bundle-budget.mjs              build into a temporary folder (never dist/), check, remove it
//   node scripts/bundle-budget.mjs --dist DIR   check an existing build made with `vite build --manifest`
//
// Exits 1 when a budget is exceeded or the build no longer matches what this script expects
// (a lazy entry renamed or moved into the main bundle): update ROUTES below with the router.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = 'index.html';
const KB = 1000;

/**
 * @typedef {object} RouteLoad
 * @property {string} name
 * @property {number | null} budgetKb null: reported, not checked
 * @property {readonly string[]} lazy manifest keys (source paths) of the dynamic imports the route
 *   waits for, each imported by a chunk loaded before it
 * @property {string} why
 */

/** @type {readonly RouteLoad[]} */
export const ROUTES = [
  {
    name: 'landing (first load)',
    // 123 on React (the target: 100); 67 since React's API runs on Preact (vite.config.ts),
    // Lingui's runtime and the shell's compiled English texts included.
    budgetKb: 67,
    // `/`: LandingRoute and AppShell are in the entry; the account modals (account-ui), the user menus,
    // the session, legal and Presented by dialogs are lazy and load only when shown.
    lazy: [],
    why: 'entry + modulepreload',
  },
  {
    name: 'form step',
    // 196 on React (target: 170). The wizard's English catalog (its compiled messages) loads with it.
    // 140: the entry's router names the renewal page and the renewal worklist (0.2 kB).
    budgetKb: 140,
    // A `form` step (e.g. /whyapplying): the step layout (progress list) is a lazy route; StepPage is in
    // the entry and `React.lazy`-loads the renderer (src/app/routes/step-page.tsx); RJSF comes with it
    // (schema-validator chunk).
    lazy: ['src/app/layout/step-layout.tsx', 'src/locales/wizard/en.po', 'src/features/step-form/components/step-form.tsx'],
    why: 'landing + step-form (RJSF)',
  },
  {
    name: 'plan step',
    // 139 on React (target: 130). 84: the phone's Filters sheet (Apply, Clear, the count) came in;
    // 85: the yearly estimate (a card's total and its parts, each member's expected use, the order);
    // 86.5: the household's doctors and drugs (the panel's summary and the "covers all" filter; the
    // editor and the cards' coverage load when used).
    budgetKb: 86.5,
    // A `plans` / `review` step: StepPage loads the hand-built pages (src/features/plans/index.ts).
    lazy: ['src/app/layout/step-layout.tsx', 'src/locales/wizard/en.po', 'src/features/plans/index.ts'],
    why: 'landing + plans',
  },
  {
    name: 'rules workbench',
    // 164 when set: the workbench (analysts and admins) draws its preview with the wizard's form
    // renderer and plan cards. The budget is what keeps CodeMirror and ELK out of this chunk: either
    // one in it would add 130 kB or more. 171.5: the plan cards' yearly estimate and care panel.
    budgetKb: 171.5,
    lazy: ['src/app/routes/workbench.tsx', 'src/locales/wizard/en.po'],
    why: 'landing + workbench',
  },
  {
    name: 'workbench draft',
    // 293 when set (297 by Vite's measure): the workbench and the draft's code editor, loaded when
    // the Draft tab is first shown (components/draft-tab.tsx, React.lazy). The editor chunk is 131 kB:
    // CodeMirror's state, view, language, commands, search and lint, the YAML parser and the
    // Jinja2 mode; only analysts editing a draft load it.
    budgetKb: 305,
    lazy: ['src/app/routes/workbench.tsx', 'src/locales/wizard/en.po', 'src/features/workbench/components/code-editor.tsx'],
    why: 'workbench + code-editor',
  },
  {
    name: 'workbench flow',
    // 166 when set: the Flow tab's ELK API (2 kB). ELK itself (elk-worker.min.js, 1.6 MB; 475 kB
    // gzipped, 353 kB as brotli) is no chunk: the Web Worker fetches it as a file of the build when
    // the tab first lays out a diagram (src/features/workbench/utils/elk.ts); it is not counted here.
    // 173.5: the plan cards' yearly estimate and care panel.
    budgetKb: 173.5,
    lazy: ['src/app/routes/workbench.tsx', 'src/locales/wizard/en.po', 'src/features/workbench/utils/elk.ts'],
    why: 'workbench + elk',
  },
];

/**
 * @typedef {object} ManifestChunk
 * @property {string} file
 * @property {string} [src]
 * @property {boolean} [isEntry]
 * @property {boolean} [isDynamicEntry]
 * @property {string[]} [imports]
 * @property {string[]} [dynamicImports]
 * @property {string[]} [css]
 */
/** @typedef {Record<string, ManifestChunk>} Manifest */

/**
 * The chunk `key` and every chunk it imports statically, transitively (what the browser loads with it).
 * @param {Manifest} manifest
 * @param {string} key
 * @param {Set<string>} [seen]
 * @returns {Set<string>} manifest keys
 */
export function staticClosure(manifest, key, seen = new Set()) {
  if (seen.has(key)) return seen;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build's manifest`);
  seen.add(key);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, seen);
  return seen;
}

/**
 * The chunks of a route: the entry's closure, then each lazy import's closure. A lazy key must be a
 * dynamic import of a chunk already loaded (else the route does not load it the way ROUTES says).
 * @param {Manifest} manifest
 * @param {readonly string[]} lazy
 * @returns {Set<string>}
 */
export function routeChunks(manifest, lazy) {
  const keys = staticClosure(manifest, ENTRY);
  for (const key of lazy) {
    const importer = [...keys].find((k) => manifest[k]?.dynamicImports?.includes(key));
    if (!importer) throw new Error(`${key} is not imported lazily by the chunks loaded before it: update ROUTES`);
    staticClosure(manifest, key, keys);
  }
  return keys;
}

/**
 * The entry's script and modulepreload links in index.html, as asset paths.
 * @param {string} html
 * @returns {string[]}
 */
export function htmlScripts(html) {
  const out = [];
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const tag = m[0];
    const isScript = tag.startsWith('<script') && /\btype="module"/.test(tag);
    const isPreload = tag.startsWith('<link') && /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="\/?([^"]+)"/.exec(tag)?.[1];
    if ((isScript || isPreload) && url) out.push(url);
  }
  return out.sort();
}

/** @param {string} dist @param {string} file */
function gzipped(dist, file) {
  return gzipSync(readFileSync(join(dist, file)), { level: constants.Z_BEST_COMPRESSION }).length;
}

/**
 * What a first visit transfers for a file: its brotli copy (quality 11), which the server sends
 * every browser that accepts brotli (web/scripts/precompress.mjs makes it at build time).
 * @param {string} dist
 * @param {string} file
 */
function brotlied(dist, file) {
  const body = readFileSync(join(dist, file));
  return Math.min(body.length, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length);
}

/** @param {number} bytes */
const kb = (bytes) => (bytes / KB).toFixed(2);

/**
 * Vite's gzip figures from its build output (`assets/index-AbC.js  340.00 kB │ gzip: 107.59 kB`), in
 * bytes, by asset file name.
 * @param {string} output
 * @returns {Map<string, number>}
 */
export function viteGzipSizes(output) {
  const sizes = new Map();
  const plain = stripVTControlCharacters(output);
  const line = /(?:^|[\s/])([\w.-]+\.(?:js|css))\s+[\d.,]+ [kM]?B\s*│\s*gzip:\s*([\d.,]+) ([kM]?B)/gm;
  for (const m of plain.matchAll(line)) {
    const [, file, size, unit] = m;
    if (!file || !size) continue;
    const scale = unit === 'MB' ? 1e6 : unit === 'kB' ? 1e3 : 1;
    sizes.set(file, Math.round(Number(size.replace(/,/g, '')) * scale));
  }
  return sizes;
}

/**
 * Builds into `outDir`; answers Vite's gzip figures.
 * @param {string} outDir
 */
function build(outDir) {
  const vite = join(WEB, 'node_modules', 'vite', 'bin', 'vite.js');
  const args = [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--manifest'];
  const run = spawnSync(process.execPath, args, { cwd: WEB, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (run.status !== 0) {
    process.stdout.write(run.stdout ?? '');
    throw new Error(`vite build failed (${run.status ?? run.signal})`);
  }
  return viteGzipSizes(run.stdout);
}

/** @param {string} file */
const shortName = (file) => file.replace(/^assets\//, '').replace(/-[\w-]{8}\.js$/, '');

/**
 * Prints the table; answers whether every budget is kept.
 * @param {string} dist a build made with `--manifest`
 * @param {Map<string, number> | null} viteSizes Vite's gzip figures of that build, when known
 * @returns {boolean}
 */
export function check(dist, viteSizes) {
  const manifestPath = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: build with \`vite build --manifest\``);
  /** @type {Manifest} */
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

  // The manifest's view of the first load must be what index.html loads.
  const fromManifest = [...staticClosure(manifest, ENTRY)].map((k) => manifest[k]?.file ?? k).sort();
  const fromHtml = htmlScripts(readFileSync(join(dist, 'index.html'), 'utf8'));
  if (fromManifest.join() !== fromHtml.join()) {
    throw new Error(`index.html loads ${fromHtml.join(', ')} but the manifest says ${fromManifest.join(', ')}`);
  }

  let ok = true;
  /** @type {string[][]} */
  const rows = [];
  for (const route of ROUTES) {
    const chunks = [...routeChunks(manifest, route.lazy)].map((k) => /** @type {ManifestChunk} */ (manifest[k]));
    const js = chunks.map((c) => c.file).filter((f) => f.endsWith('.js'));
    const css = [...new Set(chunks.flatMap((c) => c.css ?? []))];
    const zlibBytes = js.reduce((sum, f) => sum + gzipped(dist, f), 0);
    const cssBytes = css.reduce((sum, f) => sum + gzipped(dist, f), 0);
    const sentBytes = [...js, ...css].reduce((sum, f) => sum + brotlied(dist, f), 0);
    const viteParts = viteSizes ? js.map((f) => viteSizes.get(f.replace(/^.*\//, ''))) : [];
    const viteBytes = viteSizes && viteParts.every((n) => n !== undefined) ? viteParts.reduce((a, b) => (a ?? 0) + (b ?? 0), 0) : null;
    if (viteSizes && viteBytes === null) console.warn(`bundle-budget: Vite printed no gzip size for some of ${js.join(', ')}`);
    const worst = Math.max(zlibBytes, viteBytes ?? 0);
    const over = route.budgetKb !== null && worst > route.budgetKb * KB;
    if (over) ok = false;
    rows.push([
      route.name,
      kb(zlibBytes),
      viteBytes === null ? '-' : kb(viteBytes),
      route.budgetKb === null ? '-' : String(route.budgetKb),
      route.budgetKb === null ? 'info' : over ? 'OVER' : 'ok',
      kb(cssBytes),
      kb(sentBytes),
      `${route.why}: ${js.map(shortName).join(' ')}`,
    ]);
  }

  const head = ['route', 'JS zlib-9', 'JS Vite', 'budget', '', 'CSS', 'sent (br)', 'JS chunks'];
  const last = head.length - 1;
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (/** @type {string[]} */ r) =>
    r.map((c, i) => (i === 0 || i === last ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  console.log('Bundle budgets: production JavaScript, gzipped per file, kB (1000 bytes). zlib-9: Node zlib level 9;');
  console.log("Vite: `vite build`'s own gzip figures. Both must keep the budget. CSS (zlib-9) is not budgeted.");
  console.log('sent (br): what a first visit transfers, JS and CSS, as the server sends the build\'s brotli copies.');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  if (!ok) console.error('bundle-budget: a budget is exceeded (web/README.md, "Bundle budgets").');
  return ok;
}

function main() {
  const i = process.argv.indexOf('--dist');
  const given = i >= 0 ? process.argv[i + 1] : undefined;
  if (i >= 0 && !given) throw new Error('--dist needs a folder');
  const dist = given ? resolve(given) : mkdtempSync(join(tmpdir(), 'enrollflow-budget-'));
  try {
    const viteSizes = given ? null : build(dist);
    return check(dist, viteSizes);
  } finally {
    if (!given) rmSync(dist, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main() ? 0 : 1;
  } catch (e) {
    console.error(`bundle-budget: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
