import { expect, test } from './fixtures';
import { expectAccessible } from './support';

// The check every journey relies on (`expectAccessible`, axe in legacy mode) must find what it is
// there to find: a page with an image without a text alternative and a button without a name.
test('the accessibility check fails a page with an unnamed button and an image without alt', async ({ page }) => {
  await page.setContent(
    '<html lang="en"><head><title>Check</title></head><body><main><h1>Check</h1><img src="x.png"><button></button></main></body></html>',
  );
  await expect(expectAccessible(page)).rejects.toThrow(/image-alt[\s\S]*button-name|button-name[\s\S]*image-alt/);
});

test('the accessibility check passes the same page once both have names', async ({ page }) => {
  await page.setContent(
    '<html lang="en"><head><title>Check</title></head><body><main><h1>Check</h1><img src="x.png" alt="A logo"><button>Continue</button></main></body></html>',
  );
  await expectAccessible(page);
});
