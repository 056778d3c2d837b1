import { defineConfig } from '@playwright/test';

// The server under test is started by ../scripts/e2e.sh (fresh, seeded) on E2E_PORT before `npm run e2e`;
// agent sites are http://{subdomain}.localhost:{E2E_PORT}/ (Chromium resolves *.localhost to loopback).
// Debian's Chromium is used: `npx playwright install` cannot download browsers here.
export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // `desktop`: every journey at Playwright's default 1280 × 720; `phone`: the phone journeys
  // (phone.spec.ts) on a 360 × 740 screen, touch and all; `files-only`: the new carrier, step and
  // plan year added as files (files-only.spec.ts), only against the server that
  // ../scripts/files-only-e2e.sh starts on that rule set; `feel`, `make bench-feel` only.
  projects: [
    { name: 'desktop', testIgnore: /(phone|files-only)\.spec\.ts/ },
    { name: 'phone', testMatch: /phone\.spec\.ts/, use: { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true } },
    ...(process.env.E2E_FILES_ONLY_ROOT ? [{ name: 'files-only', testMatch: /files-only\.spec\.ts/ }] : []),
    // `feel`: the measurement of `make bench-feel` (feel.bench.ts), throttled, so with more time.
    ...(process.env.E2E_FEEL ? [{ name: 'feel', testMatch: /feel\.bench\.ts/, timeout: 180_000 }] : []),
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
