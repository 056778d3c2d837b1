#!/usr/bin/env node
// @ts-check
// Precompresses the built app: next to every text file of `dist/` (scripts,
// styles, the page, SVG, JSON), a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy, made
// once per build. The server (tower-http's ServeDir with `precompressed_br`/`precompressed_gzip`)
// sends the copy the browser accepts, so no request compresses anything. A copy not smaller than
// its file is not kept.
//
//   node scripts/precompress.mjs [DIR]   (default: dist; run by `npm run build`)

import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = resolve(WEB, process.argv[2] ?? 'dist');
const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/;

/** @param {string} d @returns {string[]} */
function files(d) {
  return readdirSync(d).flatMap((name) => {
    const p = join(d, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

let count = 0;
let raw = 0;
let br = 0;
for (const file of files(dir)) {
  if (!TEXT.test(file)) continue;
  const body = readFileSync(file);
  const brotli = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const gzip = gzipSync(body, { level: 9 });
  /** @type {[string, Buffer][]} */
  const copies = [
    [`${file}.br`, brotli],
    [`${file}.gz`, gzip],
  ];
  for (const [path, compressed] of copies) {
    if (compressed.length < body.length) writeFileSync(path, compressed);
    else {
      try {
        unlinkSync(path);
      } catch {
        // none was there
      }
    }
  }
  count += 1;
  raw += body.length;
  br += Math.min(brotli.length, body.length);
}
console.log(`precompress: ${count} files, ${(raw / 1000).toFixed(1)} kB -> ${(br / 1000).toFixed(1)} kB brotli`);
