import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';

export { expect };

/**
 * Every spec's `test`: with E2E_PII_DIR set (scripts/e2e.sh sets it), each test writes the URLs
 * its pages requested or navigated to, and the bodies of the server's error answers, to a file
 * there; scripts/pii-scan.py then checks them for SSNs and birth dates.
 */
export const test = base.extend<{ piiRecorder: void }>({
  piiRecorder: [
    async ({ context }, use, testInfo) => {
      const dir = process.env.E2E_PII_DIR;
      if (!dir) {
        await use();
        return;
      }
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${testInfo.testId}.jsonl`);
      const write = (kind: string, value: string) => appendFileSync(file, `${JSON.stringify({ kind, value })}\n`);
      context.on('request', (r) => write('request', r.url()));
      context.on('response', (r) => {
        if (r.status() < 400) return;
        void r
          .text()
          .then((body) => write(`error ${r.status()} ${r.url()}`, body))
          .catch(() => undefined);
      });
      context.on('page', (p) => p.on('framenavigated', (f) => write('navigation', f.url())));
      for (const p of context.pages()) p.on('framenavigated', (f) => write('navigation', f.url()));
      await use();
    },
    { auto: true },
  ],
});
