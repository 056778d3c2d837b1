// Fails when src/types/openapi.gen.ts is not what openapi-typescript makes of openapi.json (the
// server's document; its own test fails when that copy is stale). Run by `npm run lint`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'api-types-'));
try {
  const fresh = join(dir, 'openapi.gen.ts');
  // The very command of `npm run api-types`, written elsewhere.
  /** @type {string[]} */
  const command = JSON.parse(readFileSync('package.json', 'utf8')).scripts['api-types'].split(/\s+/);
  const args = command.slice(1).map((a, i, all) => (all[i - 1] === '-o' ? fresh : a));
  if (!command[0]) throw new Error('package.json has no api-types script');
  execFileSync(join('node_modules', '.bin', command[0]), args, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (readFileSync(fresh, 'utf8') !== readFileSync('src/types/openapi.gen.ts', 'utf8')) {
    console.error('src/types/openapi.gen.ts is stale: run `make api-types` (or `npm run api-types`) and commit it');
    process.exit(1);
  }
  console.log('api types: src/types/openapi.gen.ts matches openapi.json');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
