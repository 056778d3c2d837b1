import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Page } from '@playwright/test';
import PO from 'pofile';
import { expect, test } from './fixtures';
import { apiJson, collectConsoleErrors, expectAccessible, openSite, operatorMail, shown, siteUrl } from './support';

// The consumer's path in Spanish: the language switch on the landing page, a whole
// purchase with every page in Spanish, a refused save's messages, the session dialogs; and every
// step drawn in the tests' pseudo-language, where any English word left is a text that went round
// the catalogs. Demo data, today 2024-11-20 (open enrollment for 2025).

test.describe.configure({ timeout: 180_000 });

const ROOT = resolve(process.cwd(), '..');

/** Spanish translations by English text: the web app's catalogs, and the forms' and rules'. */
function catalogs(): { web: Map<string, string>; files: Map<string, string> } {
  const web = new Map<string, string>();
  for (const part of ['shell', 'wizard']) {
    const po = PO.parse(readFileSync(resolve(ROOT, 'web/src/locales', part, 'es.po'), 'utf8'));
    for (const item of po.items) if (item.msgstr[0]) web.set(item.msgid, item.msgstr[0]);
  }
  const files = new Map<string, string>();
  for (const file of ['forms/locales/es.yaml', 'rules/locales/es.yaml']) {
    for (const line of readFileSync(resolve(ROOT, file), 'utf8').split('\n')) {
      const m = /^("(?:[^"\\]|\\.)*"): ("(?:[^"\\]|\\.)*")$/.exec(line);
      if (m?.[1] && m[2]) files.set(JSON.parse(m[1]) as string, JSON.parse(m[2]) as string);
    }
  }
  return { web, files };
}
const SPANISH = catalogs();

function spanish(english: string, first: Map<string, string>, then: Map<string, string>): string {
  const found = first.get(english) ?? then.get(english);
  if (found === undefined) throw new Error(`no Spanish for ${JSON.stringify(english)}`);
  return found;
}
/** The Spanish of a text of the web app (a button, a heading it writes). */
const es = (english: string): string => spanish(english, SPANISH.web, SPANISH.files);
/** The Spanish of a text of the forms and rules (a field's title, a dialog, a choice). */
const esForm = (english: string): string => spanish(english, SPANISH.files, SPANISH.web);

const exactly = (text: string): RegExp => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

interface PlanList {
  plans: { id: number; name: string }[];
}

/** The landing page in English, then Español from the top bar: the page redraws in Spanish. */
async function inSpanish(page: Page): Promise<void> {
  await openSite(page, 'acme');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByRole('button', { name: 'Español' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1, name: es('Individual plans tailored to your life') })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(es('Home')));
}

test('a consumer switches to Español on the landing page and buys a plan with every page in Spanish', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await inSpanish(page);
  await expectAccessible(page);
  // The choice is kept: a reload stays in Spanish, and the switch offers English back.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('button', { name: 'English' })).toBeVisible();
  await page.getByRole('link', { name: es('Get a Quote') }).click();

  await expect(page).toHaveURL(siteUrl('acme', '/whyapplying'));
  await expect(page.getByRole('heading', { level: 1, name: esForm('Why Are You Applying?') })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(esForm('Why Are You Applying?').replace(/[?¿]/g, '.')));
  await page.getByRole('radio', { name: esForm('Open Enrollment') }).check();
  await page.getByRole('button', { name: es('Continue') }).click();

  // About You: a save without the answers is refused in Spanish, field by field.
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
  await expect(page.getByRole('heading', { level: 1, name: esForm('First tell us a little about yourself') })).toBeVisible();
  await page.getByRole('button', { name: es('Continue') }).click();
  const required = esForm('The {title} field is required.').replace('{title}', esForm('First Name'));
  await expect(page.getByText(required).first()).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel(esForm('First Name')).first().fill('Ana');
  await page.getByLabel(esForm('Last Name')).first().fill('López');
  await page.getByLabel(esForm('Email')).fill('ana@example.com');
  await page.getByRole('radiogroup', { name: esForm('Gender') }).first().getByRole('radio', { name: esForm('Female'), exact: true }).check();
  // Dates are typed mm/dd/aaaa in Spanish too.
  await page.getByLabel(esForm('Birth Date')).first().fill('03/02/1985');
  await page.getByRole('radiogroup', { name: exactly(esForm('Tobacco Use')) }).first().getByRole('radio', { name: es('No') }).check();
  await page.getByLabel(esForm('ZIP Code')).fill('48104');
  await page.getByRole('button', { name: es('Continue') }).click();
  await page.getByRole('dialog', { name: esForm('Medicare Eligible?') }).getByRole('button', { name: es('No') }).click();
  await page.getByRole('dialog', { name: esForm('Premium Subsidies') }).getByRole('button', { name: es('No') }).click();

  // The plans: their names as the carriers publish them, the page around them in Spanish.
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
  await expect(page.getByRole('heading', { level: 1, name: esForm('Medical Plans') })).toBeVisible();
  await expectAccessible(page);
  // The comparison sheet is printed in Spanish too.
  const started = page.waitForEvent('download');
  await page.getByRole('button', { name: es('Print Medical Comparison'), exact: true }).click();
  const sheet = execFileSync('pdftotext', [(await (await started).path()) ?? '', '-'], { encoding: 'utf8' });
  expect(sheet).toContain('Comparación de planes: Médico');
  expect(sheet).toContain('Prima mensual');
  for (const [type, next] of [
    [1, '/dental'],
    [2, '/vision'],
    [3, '/review'],
  ] as const) {
    const list = await apiJson<PlanList>(page, `/api/plans/${type}/allPlans${type === 1 ? '?filters=car_1,net_1' : ''}`);
    await page
      .getByRole('article', { name: shown(list.plans[0]!.name), exact: true })
      .getByRole('button', { name: es('Select') })
      .click();
    await expect(page).toHaveURL(siteUrl('acme', next));
  }
  await page.getByRole('button', { name: es('Apply Now') }).click();

  await expect(page).toHaveURL(siteUrl('acme', '/subInfo'));
  await expect(page.getByRole('heading', { level: 1, name: esForm('Subscriber Information') })).toBeVisible();
  await page.getByLabel(new RegExp(esForm('Social Security Number'))).first().fill('123456789');
  await page.getByLabel(exactly(`${esForm('Primary Phone')} *`)).fill('7345550199');
  await page.getByLabel(exactly(esForm('Primary Phone Type'))).selectOption({ label: esForm('Cell') });
  await page.getByRole('radiogroup', { name: new RegExp(esForm('U.S. Citizen')) }).first().getByRole('radio', { name: es('Yes') }).check();
  await page.getByLabel(exactly(esForm('Street Address'))).fill('1 Main St');
  await page.getByLabel(exactly(esForm('City'))).fill('Ann Arbor');
  await expectAccessible(page);
  await page.getByRole('button', { name: es('Continue') }).click();

  await expect(page).toHaveURL(siteUrl('acme', '/other'));
  await expect(page.getByRole('heading', { level: 1, name: esForm('Other Questions') })).toBeVisible();
  await expect(page.getByLabel(new RegExp(esForm('Who Is Paying the Premium')))).toBeVisible();
  const confirmations = page.getByRole('radiogroup', { name: new RegExp(esForm('Dental Confirmation')) });
  for (let i = 0; i < (await confirmations.count()); i++) await confirmations.nth(i).getByRole('radio').first().check();
  for (const question of ['Previous Coverage', 'Medicaid or CHIP', 'Active Medical Coverage']) {
    const group = page.getByRole('radiogroup', { name: new RegExp(esForm(question)) });
    if (await group.count()) await group.getByRole('radio', { name: es('No') }).check();
  }
  const signatures = page.getByLabel(exactly(esForm('Signature')));
  for (let i = 0; i < (await signatures.count()); i++) await signatures.nth(i).fill('Ana López');
  const dates = page.getByLabel(exactly(esForm('Date')));
  for (let i = 0; i < (await dates.count()); i++) await dates.nth(i).fill('11/20/2024');
  await page.getByLabel(new RegExp(esForm('Who Is Paying the Premium'))).selectOption({ label: esForm('Self') });
  await expectAccessible(page);
  await page.getByRole('button', { name: es('Continue') }).click();

  await expect(page).toHaveURL(siteUrl('acme', '/rap'));
  await expect(page.getByRole('heading', { level: 1, name: esForm('Review and Purchase') })).toBeVisible();
  await page.getByRole('button', { name: es('View Terms and Conditions') }).click();
  await page.getByRole('dialog', { name: esForm('Terms and Conditions') }).getByRole('button', { name: es('Agree') }).click();
  await page.getByLabel(esForm('I am the subscriber applying for this coverage')).check();
  await page.getByLabel(esForm('Subscriber Signature'), { exact: true }).fill('Ana López');
  await page.getByLabel(esForm('Confirm Subscriber Signature')).fill('Ana López');
  await page.getByLabel(esForm('Subscriber Signature Date')).fill('11/20/2024');
  await expectAccessible(page);
  await page.getByRole('button', { name: esForm('Purchase') }).click();
  await expect(page.getByRole('dialog', { name: esForm('Thank you!') })).toBeVisible();
  // The receipt is written in Spanish (the operator reads it whole).
  const receipt = await operatorMail('ana@example.com', /./);
  expect(receipt.body).toContain('1 de enero de 2025');
  expect(receipt.body).not.toContain('Coverage starts');
  const active = await apiJson<{ application: { submissionTime: string | null } }>(page, '/api/application/active');
  expect(active.application?.submissionTime).toBeTruthy();
  expect(errors.filter((e) => !e.includes('status of 4'))).toEqual([]);
});

test('the session dialogs speak Spanish', async ({ page }) => {
  await page.clock.install();
  await inSpanish(page);
  await page.getByRole('link', { name: es('Get a Quote') }).click();
  await page.getByRole('radio', { name: esForm('Open Enrollment') }).check();
  // About You's own calls are answered first: an answer after the jump would count as activity.
  const settled = Promise.all([
    page.waitForResponse((r) => r.request().method() === 'GET' && r.url().endsWith('/api/application/step/census')),
    page.waitForResponse((r) => r.url().endsWith('/api/events/pageView') && (r.request().postData() ?? '').includes('/census')),
  ]);
  await page.getByRole('button', { name: es('Continue') }).click();
  await settled;
  await expect(page.getByRole('heading', { level: 1, name: esForm('First tell us a little about yourself') })).toBeVisible();
  await page.clock.fastForward('29:00');
  const warning = page.getByRole('dialog').filter({ hasText: /\d+ segundos/ });
  await expect(warning).toBeVisible();
  await expectAccessible(page);
  await page.clock.fastForward('01:30');
  const expired = page.getByRole('dialog').filter({ hasText: es('Your session has expired') });
  await expect(expired).toBeVisible();
  await expired.getByRole('button', { name: es('Continue') }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
});

test('switching language on a step keeps the place and redraws the step in the other language', async ({ page }) => {
  await inSpanish(page);
  await page.getByRole('link', { name: es('Get a Quote') }).click();
  await page.getByRole('radio', { name: esForm('Open Enrollment') }).check();
  await page.getByRole('button', { name: es('Continue') }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
  // An answer typed and not saved yet stays through the switch.
  await page.getByLabel(esForm('First Name')).first().fill('Ana');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1, name: 'First tell us a little about yourself' })).toBeVisible();
  await expect(page.getByLabel('First Name').first()).toHaveValue('Ana');
});

/**
 * The visible words of the page that are plain English: words of three or more ASCII letters, in
 * a page drawn in the pseudo-language, where every text the catalogs know is accented. Names (the
 * agent's, the plans', the carriers', the person's) and acronyms are not texts.
 */
async function plainWords(page: Page, names: string[]): Promise<string[]> {
  const text = await page.locator('body').innerText();
  const allowed = new Set(names.flatMap((n) => n.split(/[^A-Za-z]+/)).filter(Boolean));
  return [...new Set(text.split(/[\s.,:;!?()[\]/"'«»“”‘’…–—-]+/))].filter(
    (w) => /^[A-Za-z]{3,}$/.test(w) && !/^[A-Z]{2,}s?$/.test(w) && !allowed.has(w),
  );
}

async function api(page: Page, method: 'PUT' | 'POST', path: string, body: unknown): Promise<void> {
  const status = await page.evaluate(
    async ({ method, path, body }) => {
      const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
      const r = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token },
        body: JSON.stringify(body),
      });
      return r.status;
    },
    { method, path, body },
  );
  expect(status, `${method} ${path}`).toBe(200);
}

test('every step drawn in the pseudo-language has no English text left', async ({ page, context }) => {
  await context.addCookies([{ name: 'enrollflow_lang', value: 'pseudo', url: siteUrl('acme', '/') }]);
  await openSite(page, 'acme');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const site = await apiJson<{
    product_name: string;
    tool_owner: string;
    general_agent: string;
    agent: { agent_name: string; agency_name: string; address: string; email: string; websiteUrl: string | null };
  }>(page, '/api/site');
  // Not texts: names, addresses, the languages' own names in the switch.
  const names = [
    'Enrollflow English Bo Cy',
    site.product_name,
    site.tool_owner,
    site.general_agent,
    site.agent.agent_name,
    site.agent.agency_name,
    site.agent.address,
    site.agent.email,
    site.agent.websiteUrl ?? '',
    'Ann Lee Arbor Main',
  ];
  const check = async (where: string) => {
    await expect(page.locator('main h1').first()).toBeVisible();
    await expect(page.locator('.ds-c-spinner').filter({ visible: true })).toHaveCount(0);
    expect(await plainWords(page, names), where).toEqual([]);
  };
  await check('landing');

  await page.goto(siteUrl('acme', '/whyapplying'));
  await check('whyApplying');
  await api(page, 'PUT', '/api/application/step/whyApplying', { enrollment_type: 'oe' });
  await page.goto(siteUrl('acme', '/census'));
  await check('census');
  await api(page, 'PUT', '/api/application/step/census', {
    sub_first_name: 'Ann', sub_last_name: 'Lee', email: 'ann@example.com', sub_gender: 'F', sub_birth_date: '1985-03-02',
    sub_tobacco: 0, residential_zip: '48104', residential_county_id: 161, medicare_eligible: 0, wants_subsidy: 0,
    spouse: { gender: 'M', birth_date: '1984-01-01', tobacco: 0 }, dependents: [{ gender: 'F', birth_date: '2015-05-05' }],
  });
  await page.goto(siteUrl('acme', '/census'));
  await check('census with a family');
  for (const [type, route] of [
    [1, '/medical'],
    [2, '/dental'],
    [3, '/vision'],
  ] as const) {
    const list = await apiJson<{ plans: { id: number; name: string; carrier_name: string; network_name: string | null }[] }>(
      page,
      `/api/plans/${type}/allPlans`,
    );
    names.push(...list.plans.flatMap((p) => [shown(p.name), p.carrier_name, p.network_name ?? '']));
    await page.goto(siteUrl('acme', route));
    await expect(page.getByRole('article').first()).toBeVisible();
    await check(route);
    await api(page, 'PUT', `/api/plans/${type}`, { selected_plan_id: list.plans[0]!.id });
  }
  await page.goto(siteUrl('acme', '/review'));
  await expect(page.getByRole('article').first()).toBeVisible();
  await check('review');
  await api(page, 'POST', '/api/application/step/review/continue', {});
  await page.goto(siteUrl('acme', '/subInfo'));
  await check('subInfo');
  await api(page, 'PUT', '/api/application/step/subInfo', {
    sub_first_name: 'Ann', sub_last_name: 'Lee', sub_ssn: '123456789', sub_us_citizen: 1, email: 'ann@example.com',
    primary_phone: '7345550199', primary_phone_type_id: 4, residential_street: '1 Main St', residential_city: 'Ann Arbor',
    residential_state: 'MI', spouse: { first_name: 'Bo', last_name: 'Lee', ssn: '123456780', us_citizen: 1 },
    dependents: [{ first_name: 'Cy', last_name: 'Lee', relationship: 1, ssn: '123456781', us_citizen: 1 }],
  });
  await page.goto(siteUrl('acme', '/other'));
  await check('other');

  // Other Questions answered in the pseudo-language (its fields are the form's texts), then Review
  // and Purchase.
  await expect(page.getByLabel(new RegExp(escaped(pseudo('Who Is Paying the Premium'))))).toBeVisible();
  const confirmations = page.getByRole('radiogroup', { name: new RegExp(escaped(pseudo('Dental Confirmation'))) });
  for (let i = 0; i < (await confirmations.count()); i++) await confirmations.nth(i).getByRole('radio').first().check();
  for (const question of ['Previous Coverage', 'Medicaid or CHIP', 'Active Medical Coverage']) {
    const group = page.getByRole('radiogroup', { name: new RegExp(escaped(pseudo(question))) });
    if (await group.count()) await group.getByRole('radio', { name: pseudo('No') }).check();
  }
  const signatures = page.getByLabel(new RegExp(`^${escaped(pseudo('Signature'))}`));
  for (let i = 0; i < (await signatures.count()); i++) await signatures.nth(i).fill('Ann Lee');
  const dates = page.getByLabel(new RegExp(`^${escaped(pseudo('Date'))}`));
  for (let i = 0; i < (await dates.count()); i++) await dates.nth(i).fill('11/20/2024');
  await page.getByLabel(new RegExp(escaped(pseudo('Who Is Paying the Premium')))).selectOption({ label: pseudo('Self') });
  await page.locator('.ef-step-form__continue button').click();
  // An HMO plan asks for primary care physicians first (none chosen: the carrier assigns them).
  await expect(page).toHaveURL(/\/(pcp|rap)$/);
  if (page.url().endsWith('/pcp')) {
    await check('pcp');
    await page.locator('.ef-step-form__continue button').click();
  }
  await expect(page).toHaveURL(siteUrl('acme', '/rap'));
  await check('rap');
});

/** The server's pseudo-language (engine/src/i18n/pseudo.rs `pseudo_text`): vowels and a few letters accented, bracketed. */
function pseudo(text: string): string {
  const accents: Record<string, string> = { a: 'à', e: 'é', i: 'î', o: 'ö', u: 'ü', c: 'ç', n: 'ñ', s: 'š', y: 'ý', A: 'Å', E: 'É', I: 'Î', O: 'Ö', U: 'Ü', C: 'Ç', N: 'Ñ', S: 'Š' };
  return `[${[...text].map((c) => accents[c] ?? c).join('')}]`;
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
