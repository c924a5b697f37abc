// A prerendered public page loads none of the app's code until someone is on it (a phone's CPU
// is then free while the page is read), and what the maker types or presses before the app has
// taken the page over is kept and acted on.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newPage } from './browser.mjs';
import { signUpViaApi, takenOver, useServerAndBrowser } from './helpers.mjs';

// The script a prerendered page may load before anyone is on it: boot.js and the small entry.
const ENTRY_BUDGET_BYTES = 12 * 1024;
const APP_CHUNK = /\/assets\/app-[^/]+\.js$/;

/** Records every script the page requests, with its size on the wire. */
function watchScripts(page) {
  const scripts = [];
  page.on('requestfinished', async (req) => {
    if (req.resourceType() !== 'script') return;
    const sizes = await req.sizes().catch(() => null);
    scripts.push({ url: new URL(req.url()).pathname, bytes: sizes ? sizes.responseBodySize : 0 });
  });
  return scripts;
}

/** Holds the app's code until release() is called, so the page can be used before the app runs. */
async function holdApp(page) {
  let release;
  const held = new Promise((r) => (release = r));
  let requested;
  const asked = new Promise((r) => (requested = r));
  await page.route(APP_CHUNK, async (route) => {
    requested();
    await held;
    await route.continue().catch(() => {});
  });
  return { asked, release };
}

const appStarted = (page) =>
  page.evaluate(() => Object.keys(document.getElementById('root')).some((k) => k.startsWith('__reactContainer')));

describe('prerendered pages start the app when someone is on them', () => {
  const env = useServerAndBrowser();

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`no app code loads before anyone is on a public page, at ${viewport.width} px`, async () => {
      const { page, errors } = await newPage(env.browser.context, viewport);
      const scripts = watchScripts(page);
      for (const [i, path] of ['/', '/features', '/pricing', '/login'].entries()) {
        scripts.length = 0;
        await page.goto(env.server.baseURL + path);
        await page.waitForLoadState('networkidle');
        assert.equal(await appStarted(page), false, `${path}: the app started with nobody on the page`);
        const urls = scripts.map((s) => s.url);
        assert.equal(urls.length, 2, `${path}: scripts loaded: ${urls.join(', ')}`);
        assert.ok(urls[0].endsWith('/boot.js') && /\/assets\/index-[^/]+\.js$/.test(urls[1]), urls.join(', '));
        const bytes = scripts.reduce((n, s) => n + s.bytes, 0);
        assert.ok(bytes <= ENTRY_BUDGET_BYTES, `${path}: ${bytes} bytes of script before anyone is on the page`);
        // The first sign of someone (here the pointer moving) starts the app, which takes the
        // page over in place: the heading is the same element.
        await page.evaluate(() => (window.heading = document.querySelector('#root h1')));
        await page.mouse.move(20 + i, 200);
        await takenOver(page);
        assert.equal(await page.evaluate(() => window.heading === document.querySelector('#root h1')), true, `${path}: the page was replaced`);
        assert.ok(scripts.some((s) => APP_CHUNK.test(s.url)), `${path}: the app loaded`);
      }
      assert.deepEqual(errors, []);
      await page.close();
    });

    test(`what is typed and pressed on / before the app runs is kept, at ${viewport.width} px`, async () => {
      const { page, errors } = await newPage(env.browser.context, viewport);
      const app = await holdApp(page);
      await page.goto(env.server.baseURL + '/');
      await page.waitForLoadState('networkidle');
      const description = page.getByRole('textbox', { name: 'Detailed Description' });
      const ownPlaceholder = await description.getAttribute('placeholder');
      await description.click();
      await app.asked; // the focus started the app's download, which is held
      // The label inside the empty box gives way to a placeholder (the label's text in place of the
      // field's own), so typed text is not drawn over it.
      assert.equal(await description.getAttribute('placeholder'), 'Detailed Description');
      await page.keyboard.type('Thin hairs of plastic between', { delay: 10 });
      await page.getByRole('radio', { name: /Stringing/ }).click();
      await page.getByRole('textbox', { name: 'Printer Brand/Model' }).fill('Creality Ender 3');
      await description.click();
      await page.keyboard.press('End');
      assert.equal(await appStarted(page), false);

      app.release();
      await takenOver(page);
      // The app has the text (its counter counts it), the field keeps focus and caret, the tile
      // pressed meanwhile is chosen, and the label is back above the field.
      await page.getByText('29/2000 characters').waitFor();
      assert.equal(await description.inputValue(), 'Thin hairs of plastic between');
      assert.equal(await description.evaluate((el) => document.activeElement === el && el.selectionStart === el.value.length), true);
      assert.equal(await page.getByRole('radio', { name: /Stringing/ }).getAttribute('aria-checked'), 'true');
      assert.equal(await description.getAttribute('placeholder'), ownPlaceholder);
      assert.equal(await page.locator(`label[for="${await description.getAttribute('id')}"]`).getAttribute('data-shrink'), 'true');
      assert.equal(await page.getByRole('textbox', { name: 'Printer Brand/Model' }).inputValue(), 'Creality Ender 3');
      await page.keyboard.type(' the two towers after every print.');
      await page.getByText('63/2000 characters').waitFor();

      await page.getByRole('button', { name: 'Analyze Issue' }).click();
      await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 15_000 });
      assert.deepEqual(errors, []);
      await page.close();
    });

    test(`sign-in details typed and sent before the app runs sign in once, at ${viewport.width} px`, async () => {
      const email = `early-${viewport.width}-${Date.now()}@example.com`;
      await signUpViaApi(env.server.baseURL, { email, password: 'correct horse 12', displayName: 'Early Maker' });
      const { page, errors } = await newPage(env.browser.context, viewport);
      const app = await holdApp(page);
      const logins = [];
      page.on('request', (r) => r.url().endsWith('/api/auth/login') && logins.push(r));
      await page.goto(`${env.server.baseURL}/login`);
      await page.waitForLoadState('networkidle');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel(/^Password/).fill('correct horse 12');
      await page.getByLabel(/^Password/).press('Enter');
      await app.asked;
      // Nothing was sent natively (that would put the password into the address bar).
      assert.equal(new URL(page.url()).search, '');
      assert.equal(logins.length, 0);

      app.release();
      await page.waitForURL(/\/(dashboard|report-issue)$/, { timeout: 15_000 });
      assert.equal(logins.length, 1);
      assert.deepEqual(errors, []);
      // The next tests visit signed out (a stored session starts the app at once).
      await page.evaluate(() => localStorage.clear());
      await page.close();
    });
  }

  test('a visitor who may be signed in gets the app at once, without touching the page', async () => {
    const { page } = await newPage(env.browser.context, { width: 390, height: 844 });
    await page.goto(`${env.server.baseURL}/features`);
    await page.evaluate(() =>
      localStorage.setItem('layerfix.session', JSON.stringify({ token: 'x', expiresAt: 0, identity: { uid: '1' } })),
    );
    await page.reload();
    await page.waitForFunction(() => Object.keys(document.getElementById('root')).some((k) => k.startsWith('__reactContainer')));
    await page.evaluate(() => localStorage.clear());
    await page.close();
  });
});
