import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/** The full browser, as people run it: `make bench-feel` measures what a person waits for. */
const FULL_BROWSER = '/usr/bin/chromium';
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/** The tests' browser: Debian's headless shell (scripts/ensure-chromium.sh installs it), else the full one. */
const TEST_BROWSER = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_BROWSER;
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// The server under test is started by ../scripts/e2e.sh (fresh, seeded) on E2E_PORT before `npm run e2e`;
// agent sites are http://{subdomain}.localhost:{E2E_PORT}/ (Chromium resolves *.localhost to loopback).
// Debian's Chromium is used: `npx playwright install` cannot download browsers here.
export default defineConfig({
  testDir: './e2e',
  // Files run two at a time (the tests of a file in order, in one browser), except the files that
  // change or count what the others share, which run after them one at a time (`phone`, `alone`).
  // The browser tests wait on the page far more than they compute: one at a time they kept a quarter
  // of the machine's two cores busy.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // `desktop`: the journeys at Playwright's default 1280 × 720, two files at a time. Then one at a
  // time: `phone`, the phone journeys (phone.spec.ts) on a 360 × 740 screen, touch and all (it buys
  // coverage on the acme site, which the dashboard counts); `alone`, the files that read or change
  // what all the others share: the dashboard (the acme agent's newest quotes and charts, a burst of
  // 62 new applications, Okafor's and Grace's sessions) and the workbench (it publishes a premium
  // for everyone, replays the newest applications, and uses up the admin's one-time codes). By hand,
  // `--project=alone --no-deps` runs them without the others. `files-only`: the new carrier, step
  // and plan year added as files (files-only.spec.ts), only against the server that
  // ../scripts/files-only-e2e.sh starts on that rule set; `feel`, `make bench-feel` only.
  projects: [
    { name: 'desktop', testIgnore: /(phone|files-only|dashboard|workbench)\.spec\.ts/ },
    {
      name: 'phone',
      testMatch: /phone\.spec\.ts/,
      dependencies: ['desktop'],
      workers: 1,
      use: { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true },
    },
    { name: 'alone', testMatch: /(dashboard|workbench)\.spec\.ts/, dependencies: ['phone'], workers: 1 },
    ...(process.env.E2E_FILES_ONLY_ROOT ? [{ name: 'files-only', testMatch: /files-only\.spec\.ts/, workers: 1 }] : []),
    // `feel`: the measurement of `make bench-feel` (feel.bench.ts), throttled, so with more time.
    ...(process.env.E2E_FEEL ? [
          {
            name: 'feel',
            testMatch: /feel\.bench\.ts/,
            timeout: 180_000,
            workers: 1,
            // No trace: its DOM snapshots ran in the page being measured.
            use: { trace: 'off' as const, launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? FULL_BROWSER, args: ARGS } },
          },
        ] : []),
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    // A failed test keeps its trace (actions, DOM snapshots, network), without the screencast's
    // frames (recording cost about a tenth of the browser's CPU). E2E_TRACE=on keeps every
    // test's, =off records none.
    trace: {
      mode: (process.env.E2E_TRACE as 'off' | 'on' | 'retain-on-failure' | undefined) ?? 'retain-on-failure',
      screenshots: false,
    },
    launchOptions: {
      // Debian's headless shell (package chromium-headless-shell, what Playwright's own headless
      // Chromium is): the same engine without the full browser around it, half the full
      // browser's CPU in these tests, which is what bounds their time on two cores.
      executablePath: process.env.CHROMIUM_PATH ?? TEST_BROWSER,
      args: ARGS,
    },
  },
});
