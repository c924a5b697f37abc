// Nothing a maker typed is lost: a failed analysis (the server failing, offline, a screen's code
// that does not load at first, an expired session) leaves the maker on the form with what they
// typed and the reason, at phone and desktop width.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { newPage } from './browser.mjs';
import { axeViolations, present, resultsDir, signIn, signUpViaApi, takenOver, useServerAndBrowser } from './helpers.mjs';

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];
const BRAND = 'Creality Ender 3 V2';
const OFFLINE = 'No internet connection. Please check your connection and try again.';

async function fillAnonymous(page, base, description) {
  await page.goto(`${base}/preview`);
  await present(page);
  await page.getByTestId('credits-badge').waitFor({ timeout: 15_000 });
  await page.getByLabel('Printer Brand/Model').fill(BRAND);
  await page.getByLabel('Detailed Description').fill(description);
}

async function noOverflow(page) {
  const { sw, iw } = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, iw: window.innerWidth }));
  assert.ok(sw <= iw, `page is ${sw}px wide in a ${iw}px viewport`);
}

async function signedOut(page, base) {
  await page.goto(`${base}/features`);
  await page.evaluate(() => localStorage.removeItem('layerfix.session'));
}

async function assertFormKept(page, description) {
  await page.waitForURL('**/preview');
  assert.equal(await page.getByLabel('Detailed Description').inputValue(), description);
  assert.equal(await page.getByLabel('Printer Brand/Model').inputValue(), BRAND);
}

describe('drafts survive failed analyses', () => {
  const env = useServerAndBrowser();

  for (const size of SIZES) {
    test(`server 500/503 keeps the form and says why (${size.name})`, async () => {
      const base = env.server.baseURL;
      const { page, errors } = await newPage(env.browser.context, size);
      for (const [status, body, expected] of [
        [503, '<html>Bad gateway</html>', 'The Layerfix server cannot be reached right now. Your form is kept: please try again in a moment.'],
        [500, JSON.stringify({ error: { code: 'INTERNAL', message: 'The database is locked; try again.' } }), 'The database is locked; try again.'],
      ]) {
        const description = `Corners lift after ten layers, status ${status} ${size.name}.`;
        await page.route('**/api/troubleshoot', (route) => route.fulfill({ status, contentType: 'text/html', body }), { times: 1 });
        await fillAnonymous(page, base, description);
        await page.getByRole('button', { name: 'Analyze Issue' }).click();
        await page.getByTestId('form-failure').getByText(expected).waitFor({ timeout: 15_000 });
        await assertFormKept(page, description);
        await noOverflow(page);
        if (status === 503) assert.deepEqual(await axeViolations(page), []);
        if (status === 503) await page.screenshot({ path: path.join(resultsDir, `draft-failure-${size.width}.png`), fullPage: false });
        // A reload brings the same draft back (once the app has replaced the prerendered form).
        await page.reload();
        await takenOver(page);
        assert.equal(await page.getByLabel('Detailed Description').inputValue(), description);
      }
      assert.deepEqual(errors, []);
      await page.close();
    });

    test(`offline keeps the form and shows the offline message (${size.name})`, async () => {
      const base = env.server.baseURL;
      const { page } = await newPage(env.browser.context, size);
      const description = `Strings between towers, offline ${size.name}.`;
      await fillAnonymous(page, base, description);
      await env.browser.context.setOffline(true);
      try {
        await page.getByRole('button', { name: 'Analyze Issue' }).click();
        await page.getByTestId('form-failure').getByText(OFFLINE).waitFor();
        await assertFormKept(page, description);
        await page.screenshot({ path: path.join(resultsDir, `draft-offline-${size.width}.png`) });
      } finally {
        await env.browser.context.setOffline(false);
      }
      await page.close();
    });

    test(`a results screen that fails to load once still opens (${size.name})`, async () => {
      const base = env.server.baseURL;
      const { page } = await newPage(env.browser.context, size);
      let failed = 0;
      await page.route('**/assets/TroubleshootingResults-*.js', (route) => {
        if (failed++ === 0) return route.abort('internetdisconnected');
        return route.continue();
      });
      const description = `Blobs on the outer wall, chunk ${size.name}.`;
      await fillAnonymous(page, base, description);
      await page.getByRole('button', { name: 'Analyze Issue' }).click();
      await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 20_000 });
      assert.ok(failed >= 2, 'the import was tried again after failing');
      // A successful analysis removes the draft.
      await page.goto(`${base}/preview`);
      await present(page);
      await page.getByTestId('credits-badge').waitFor();
      assert.equal(await page.getByLabel('Detailed Description').inputValue(), '');
      await page.close();
    });
  }

  test('an expired session says so and keeps the form for the next sign-in', async () => {
    const base = env.server.baseURL;
    const email = 'drafts@example.com';
    const password = 'correct horse battery';
    await signUpViaApi(base, { email, password, displayName: 'Draft Maker' });
    for (const size of SIZES) {
      const { page } = await newPage(env.browser.context, size);
      await signedOut(page, base);
      await signIn(page, base, email, password);
      await page.waitForURL('**/dashboard');
      await page.goto(`${base}/report-issue`);
      const description = `Layer shift halfway up, session ${size.name}.`;
      await page.getByLabel('Detailed Description').fill(description);
      await page.waitForFunction(
        (d) => Object.keys(localStorage).some((k) => k.startsWith('layerfix.draft.user.') && localStorage.getItem(k).includes(d)),
        description,
      );
      // The session runs out (its stored expiry passes) while the maker is away.
      await page.evaluate(() => {
        const s = JSON.parse(localStorage.getItem('layerfix.session'));
        localStorage.setItem('layerfix.session', JSON.stringify({ ...s, expiresAt: Date.now() - 1000 }));
      });
      await page.reload();
      await page.waitForURL('**/login');
      await page.getByTestId('auth-success').getByText(/You were signed out/).waitFor();
      await noOverflow(page);
      assert.deepEqual(await axeViolations(page), []);
      await page.screenshot({ path: path.join(resultsDir, `draft-signed-out-${size.width}.png`) });
      await page.getByLabel('Email').fill(email);
      await page.getByLabel(/^Password/).fill(password);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL('**/report-issue');
      await page.getByLabel('Detailed Description').waitFor();
      assert.equal(await page.getByLabel('Detailed Description').inputValue(), description);
      await page.close();
    }
    // Another account on the same browser never sees it.
    await signUpViaApi(base, { email: 'other@example.com', password, displayName: 'Other' });
    const { page } = await newPage(env.browser.context, { width: 1280, height: 800 });
    await signedOut(page, base);
    await signIn(page, base, 'other@example.com', password);
    await page.waitForURL('**/dashboard');
    await page.goto(`${base}/report-issue`);
    await page.getByLabel('Detailed Description').waitFor();
    assert.equal(await page.getByLabel('Detailed Description').inputValue(), '');
    await page.close();
  });
});
