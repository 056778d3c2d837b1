#!/usr/bin/env node
// @ts-check
// The language catalogs (lingui.config.ts): fails when
//   - the catalogs are not what the code says (a message added, changed or removed in the code and
//     `npm run i18n:extract` not run): the extraction is run and the catalogs it changed are named;
//   - a language lacks a translation, or a translation drops a placeholder (`{name}`) or a tag
//     (`<0>`) of its English text: each is named with its catalog file and line.
// English is the source (its catalog is written from the code) and `pseudo` is made from it.
//
//   node scripts/check-catalogs.mjs            extract, then check
//   node scripts/check-catalogs.mjs --no-extract   check the catalogs as they are

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import PO from 'pofile';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LOCALES = join(WEB, 'src', 'locales');
const NOT_TRANSLATED = new Set(['en', 'pseudo']);

/** Every catalog file under src/locales, as `<part>/<language>.po`. */
function catalogFiles() {
  return readdirSync(LOCALES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(LOCALES, d.name)).filter((f) => f.endsWith('.po')).map((f) => join(LOCALES, d.name, f)));
}

/** The placeholders and tags of an ICU message, sorted (`{count, plural, …}` counts as `{count`). */
/** @param {string} message @returns {string[]} */
export function marks(message) {
  const found = [...message.matchAll(/\{\s*(\w+)|<\/?(\d+)\/?>/g)].map((m) => (m[1] !== undefined ? `{${m[1]}` : m[0]));
  return [...new Set(found)].sort();
}

/**
 * The problems of one language's catalog text.
 * @param {string} file shown in the messages
 * @param {string} text the PO file's text
 * @param {string} language
 * @returns {string[]}
 */
export function problems(file, text, language) {
  const po = PO.parse(text);
  const lines = text.split('\n');
  const lineOf = (/** @type {string} */ id) => lines.findIndex((l) => l === `msgid ${JSON.stringify(id)}`) + 1 || 1;
  const out = [];
  for (const item of po.items) {
    if (item.obsolete) continue;
    const translation = item.msgstr.join('');
    if (!translation.trim()) {
      out.push(`${file}:${lineOf(item.msgid)}: no ${language} translation of ${JSON.stringify(item.msgid)}`);
    } else if (marks(item.msgid).join() !== marks(translation).join()) {
      out.push(`${file}:${lineOf(item.msgid)}: the ${language} translation of ${JSON.stringify(item.msgid)} must keep ${marks(item.msgid).join(' ') || 'no placeholders'}`);
    }
  }
  return out;
}

function main() {
  const before = new Map(catalogFiles().map((f) => [f, readFileSync(f, 'utf8')]));
  if (!process.argv.includes('--no-extract')) {
    const lingui = join(WEB, 'node_modules', '@lingui', 'cli', 'dist', 'lingui.js');
    const run = spawnSync(process.execPath, [lingui, 'extract', '--clean'], { cwd: WEB, encoding: 'utf8' });
    if (run.status !== 0) {
      process.stderr.write(run.stdout + run.stderr);
      throw new Error('lingui extract failed');
    }
    const changed = catalogFiles().filter((f) => before.get(f) !== readFileSync(f, 'utf8'));
    if (changed.length > 0) {
      console.error(`check-catalogs: the catalogs did not match the code; \`npm run i18n:extract\` has now updated ${changed.map((f) => relative(WEB, f)).join(', ')}: translate what is new and commit them.`);
      process.exitCode = 1;
    }
  }
  const found = catalogFiles().flatMap((f) => {
    const language = f.replace(/^.*\//, '').replace(/\.po$/, '');
    return NOT_TRANSLATED.has(language) ? [] : problems(relative(WEB, f), readFileSync(f, 'utf8'), language);
  });
  for (const p of found) console.error(p);
  if (found.length > 0) {
    console.error(`check-catalogs: ${found.length} problem(s)`);
    process.exitCode = 1;
  } else if (!process.exitCode) {
    console.log(`check-catalogs: ${catalogFiles().length} catalogs, every language complete`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (e) {
    console.error(`check-catalogs: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
