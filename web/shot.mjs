// Throwaway screenshot walker (not committed).
import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const [w, h] of [[1280, 900], [360, 740]]) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto('http://acme.localhost:8080/whyapplying');
  await page.getByLabel('Open Enrollment').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL('**/census');
  await page.screenshot({ path: `/tmp/shots/census-${w}.png`, fullPage: false });
  await page.close();
}
await browser.close();
