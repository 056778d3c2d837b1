import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 18080);

/** URL on an agent's site, e.g. siteUrl('acme', '/whyapplying'); null for the bare host. */
export function siteUrl(subdomain: string | null, path = '/'): string {
  const host = subdomain ? `${subdomain}.localhost` : 'localhost';
  return `http://${host}:${E2E_PORT}${path}`;
}

/**
 * Opens a site and waits for the app's own first call (`/api/start`, or the auth state it falls back
 * to), which starts the session: API calls the test then makes from the page join the app's
 * session. Made at once, they would race it on a browser without a cookie (two sessions, and one
 * side left with the other's CSRF token: 419).
 */
export async function openSite(page: Page, subdomain: string, path = '/'): Promise<void> {
  const session = page.waitForResponse((r) => /\/api\/(start|get-auth-state)\b/.test(new URL(r.url()).pathname) && r.ok());
  await page.goto(siteUrl(subdomain, path));
  await session;
}

/** The `enrollflow` binary the e2e server runs (scripts/e2e.sh). */
export function enrollflowBin(): string {
  const root = resolve(process.cwd(), '..');
  return process.env.ENROLLFLOW_BIN ?? resolve(root, process.env.CARGO_TARGET_DIR ?? 'target', 'debug', 'enrollflow');
}

/**
 * The newest mail to `to`, whole (its link included), as the operator reads it with
 * `enrollflow mail` (the database and the data key: scripts/e2e.sh exports both). Mail written
 * after a request was answered (forgot-password) is waited for.
 */
export async function operatorMail(to: string, subject: RegExp): Promise<{ subject: string; body: string }> {
  let found: { subject: string; body: string } | undefined;
  await expect(async () => {
    const out = execFileSync(enrollflowBin(), ['mail', '--to', to, '--json', '--last', '5'], {
      env: { ...process.env, ENROLLFLOW_LOG: 'warn' },
      encoding: 'utf8',
    });
    found = (JSON.parse(out) as { subject: string; body: string }[]).find((m) => subject.test(m.subject));
    expect(found).toBeTruthy();
  }).toPass();
  return found ?? { subject: '', body: '' };
}

/**
 * No serious or critical axe violations on the page as it is now. Legacy mode: axe runs in the page
 * itself instead of gathering its results in a blank page it opens for each check (the app has no
 * frames to gather); that took half the check's time and CPU (0.85 s against 0.45 s on the landing).
 */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode(true)
    .analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(blocking, blocking.join('\n')).toEqual([]);
}

/**
 * Errors printed to the console (CSP violations included), and the warnings of the app's own
 * scripts (a library's complaint, such as Lingui's "Uncompiled message detected!" for a text
 * missing from the built catalog), to assert there are none. Chromium's own warnings (a preload
 * not used yet) are not the app's. A missing agent logo is not an error: the app falls back to the
 * product name.
 */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    const from = msg.location().url;
    const appWarning = msg.type() === 'warning' && from.includes('/assets/');
    if ((msg.type() !== 'error' && !appWarning) || from.includes('/api/agent_logo/')) return;
    errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/**
 * GET a JSON API path from inside the page (same origin, same cookies). Node's resolver does not
 * know `*.localhost`, so Playwright's `request` fixture cannot reach agent sites; Chromium can.
 */
export async function apiJson<T = Record<string, unknown>>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const res = await fetch(p, { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    return res.json();
  }, path) as Promise<T>;
}

/**
 * Answers the Other Questions page drawn for the chosen carriers: the first dental confirmation,
 * No to every coverage question, each signature by `signer` dated 11/20/2024, the subscriber
 * paying. Waits for the form first (every carrier asks who pays; counting does not wait).
 */
/** About You for Ann Lee alone (female, no tobacco, ZIP 48104), born on `birthDate` (mm/dd/yyyy). */
export async function aboutAnnLee(page: Page, birthDate: string): Promise<void> {
  await page.getByLabel('First Name').first().fill('Ann');
  await page.getByLabel('Last Name').first().fill('Lee');
  await page.getByLabel('Email').fill('ann@example.com');
  await page.getByRole('radiogroup', { name: 'Gender' }).first().getByRole('radio', { name: 'Female', exact: true }).check();
  await page.getByLabel('Birth Date').first().fill(birthDate);
  await page.getByRole('radiogroup', { name: /Tobacco Use/ }).first().getByRole('radio', { name: 'No' }).check();
  // A new ZIP looks its county up, and Continue is disabled until the answer: a click between the
  // ZIP and the lookup's start landed on a button disabled under it and was lost (a CI run waited
  // three minutes for the Medicare dialog). The caller's next click comes after the answer.
  const zip = page.getByLabel('ZIP Code');
  const county = (await zip.inputValue()) === '48104' ? null : page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/countyList/48104'));
  await zip.fill('48104');
  await county;
}

export async function answerOtherQuestions(page: Page, signer: string): Promise<void> {
  await expect(page.getByLabel(/Who Is Paying the Premium/)).toBeVisible();
  const confirmations = page.getByRole('radiogroup', { name: /Dental Confirmation/ });
  for (let i = 0; i < (await confirmations.count()); i++) await confirmations.nth(i).getByRole('radio').first().check();
  for (const question of [/Previous Coverage/, /Medicaid or CHIP/, /Active Medical Coverage/]) {
    const group = page.getByRole('radiogroup', { name: question });
    if (await group.count()) await group.getByRole('radio', { name: 'No' }).check();
  }
  const signature = page.getByLabel(/^Signature/);
  for (let i = 0; i < (await signature.count()); i++) await signature.nth(i).fill(signer);
  const dates = page.getByLabel(/^Date/);
  for (let i = 0; i < (await dates.count()); i++) await dates.nth(i).fill('11/20/2024');
  await page.getByLabel(/Who Is Paying the Premium/).selectOption({ label: 'Self' });
}

/**
 * One JSON value read from the test database (DATABASE_URL, which scripts/e2e.sh exports): `sql`
 * answers a single row with a single json column. `vars` become psql variables, quoted in the
 * query as :'name' (psql escapes them).
 */
export function dbJson<T = unknown>(sql: string, vars: Record<string, string> = {}): T {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run the tests through scripts/e2e.sh');
  const args = [url, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1'];
  for (const [name, value] of Object.entries(vars)) args.push('-v', `${name}=${value}`);
  const out = execFileSync('psql', args, { input: sql, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();
  if (!out) throw new Error(`no row for: ${sql}`);
  return JSON.parse(out) as T;
}

/** An application as stored: its typed columns, its answers by step, and its documents. */
export interface StoredApplication {
  submitted: boolean;
  enrollment_period_type_id: number | null;
  effective_date: string | null;
  medical_carrier_id: number | null;
  /** The answers under each step id (`whyApplying`, `subInfo`, `rap`, …) and the derived facts
   * (`medical_plan`, `enrollment_reason_document`, …). */
  data: Record<string, unknown>;
  documents: { id: string; file_name: string; content_type: string; size_bytes: number; storage_key: string }[];
}

/** The application of the page's session, read from the database. */
export async function storedApplication(page: Page): Promise<StoredApplication> {
  const active = await apiJson<{ application: { applicationId: string } | null }>(page, '/api/application/active');
  if (!active.application) throw new Error('the session has no application');
  return dbJson<StoredApplication>(
    `SELECT json_build_object(
       'submitted', a.submission_time IS NOT NULL,
       'enrollment_period_type_id', a.enrollment_period_type_id,
       'effective_date', a.effective_date,
       'medical_carrier_id', a.medical_carrier_id,
       'data', a.data,
       'documents', (SELECT coalesce(json_agg(json_build_object('id', d.id, 'file_name', d.file_name,
                       'content_type', d.content_type, 'size_bytes', d.size_bytes,
                       'storage_key', d.storage_key) ORDER BY d.created_at), '[]'::json)
                     FROM documents d WHERE d.application_id = a.id))
     FROM applications a WHERE a.id = :'id'`,
    { id: active.application.applicationId },
  );
}

/** A plan name as the page shows it: its markup (`<sup>&reg;</sup>`) as text, spaces collapsed. */
export const shown = (name: string): string =>
  name
    .replace(/<[^>]+>/g, '')
    .replace(/&reg;/g, '®')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The demo admins' published authenticator secret (README "Demo logins"; `enrollflow demo-code`). */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

function base32Bytes(secret: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/[\s=]/g, '').toUpperCase()) {
    const v = alphabet.indexOf(c);
    if (v < 0) throw new Error(`not base32: ${c}`);
    bits += v.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The RFC 6238 code of a 30-second step (what an authenticator app shows then). */
export function totpAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const h = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const o = (h[h.length - 1] ?? 0) & 0xf;
  const n = ((((h[o] ?? 0) & 0x7f) << 24) | ((h[o + 1] ?? 0) << 16) | ((h[o + 2] ?? 0) << 8) | (h[o + 3] ?? 0)) % 1_000_000;
  return String(n).padStart(6, '0');
}

/**
 * A code `email` has not used yet (the server accepts each once, and one step either side of
 * now): the current step's or, when that one is used, the next one's; when both are used, waits
 * for the next step as a person would wait for the next code (the test's time limit grows by that
 * wait).
 */
export async function freshCode(email: string, secret = DEMO_TOTP_SECRET): Promise<string> {
  const last = dbJson<number | null>(`SELECT coalesce(to_json(totp_last_step), 'null'::json) FROM users WHERE lower(email) = lower(:'email')`, { email });
  for (;;) {
    const step = Math.floor(Date.now() / 30_000);
    // Never an earlier step's code: sent just after a step boundary, it would be two steps old.
    const candidate = last === null ? step : Math.max(last + 1, step);
    if (candidate <= step + 1) return totpAt(secret, candidate);
    test.info().setTimeout(test.info().timeout + 2_000);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** Answers the login's second step with a fresh code of the demo admin's app. */
export async function enterLoginCode(page: Page, email: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Two-step verification' });
  await dialog.getByLabel(/^Authentication code/).fill(await freshCode(email));
  await dialog.getByRole('button', { name: 'Verify', exact: true }).click();
}
