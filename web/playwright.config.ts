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
