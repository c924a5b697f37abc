// Pages that paint fast: the public screens come prerendered in the HTML, the app takes
// them over without moving anything, and axe-core finds no violations on any screen, signed in
// and out, light and dark.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newPage } from './browser.mjs';
import { axeViolations, present, signIn, signUpViaApi, takenOver, trackRequests, useServerAndBrowser } from './helpers.mjs';


// The prerendered screens and a text each one shows in its HTML, before any JavaScript.
const PRERENDERED = [
  ['/', 'AI-Powered 3D Printing Troubleshooter'],
  ['/features', 'Fix Every Print'],
  ['/pricing', 'Simple plans for every maker'],
  ['/login', 'Welcome Back'],
  ['/privacy-policy', 'Privacy Policy'],
  ['/terms-of-service', 'Terms of Service'],
];

/** Every visible element of #root with its box, so two renders can be compared as a user sees them. */
function layout() {
  return [...document.querySelectorAll('#root *')]
    .filter((e) => !e.closest('[aria-hidden="true"]'))
    .map((e) => {
      const r = e.getBoundingClientRect();
      const text = e.children.length ? '' : e.textContent;
      return `${e.tagName} ${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)} ${text}`;
    });
}

describe('pages on a phone', () => {
  const env = useServerAndBrowser();

  test('public screens are prerendered and the app takes them over in place', async () => {
    const { page, errors } = await newPage(env.browser.context, { width: 390, height: 844 });
    for (const [path, text] of PRERENDERED) {
      const res = await fetch(env.server.baseURL + path, { headers: { 'Accept-Encoding': 'br' } });
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.ok(html.includes(text), `${path}: the HTML carries "${text}"`);
      assert.doesNotMatch(html, /LFSENTINEL/, `${path}: every setting is filled in`);
      // Before the app takes over nothing can be typed or sent (a native submit would put the
      // password into the URL).
      const root = html.slice(html.indexOf('<div id="root">'));
      assert.doesNotMatch(root, /<button(?![^>]*disabled)/, `${path}: a prerendered button is live`);
      assert.doesNotMatch(root, /<(input|textarea)(?![^>]*readonly)/, `${path}: a prerendered field is live`);
      assert.doesNotMatch(root, /<form(?![^>]*method="dialog")/, `${path}: a prerendered form can be sent`);
      // A query string can change the screen: that page is the plain app.
      const plain = await (await fetch(`${env.server.baseURL}${path}?mode=signup`)).text();
      assert.match(plain, /<div id="root"><\/div>/, `${path}?query is not prerendered`);

      // Hold the API so the app's first render is compared with the HTML, not with later data.
      let release;
      const held = new Promise((r) => (release = r));
      await page.route('**/api/**', async (route) => {
        await held;
        await route.continue().catch(() => {});
      });
      await page.goto(env.server.baseURL + path, { waitUntil: 'commit' });
      await page.getByText(text).first().waitFor();
      const before = await page.evaluate(layout);
      await page.evaluate(() => (window.firstHeading = document.querySelector('#root h1')));
      // The app starts on the first sign of someone on the page, and hydrates it in place.
      await present(page, { x: 10 + PRERENDERED.findIndex(([p]) => p === path), y: 300 });
      await takenOver(page);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
      const after = await page.evaluate(layout);
      assert.deepEqual(after, before, `${path}: the app's first render matches the prerendered page`);
      assert.ok(await page.evaluate(() => window.firstHeading === document.querySelector('#root h1')), `${path}: the page was replaced`);
      release();
      await page.unroute('**/api/**');
    }
    // The app works once it has taken over: the sign-up switch is a client-side change.
    await page.goto(`${env.server.baseURL}/login`);
    await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('axe-core finds no violations on any screen, signed out and in, light and dark', async () => {
    const email = `axe-${Date.now()}@example.com`;
    const { token } = await signUpViaApi(env.server.baseURL, { email, password: 'correct horse 12', displayName: 'Axe Maker' });
    // A saved issue, for its own page and a list with the search and filters.
    const post = async (url, body) => {
      const res = await fetch(env.server.baseURL + url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 201);
      return res.json();
    };
    const printer = await post('/api/printers', { name: 'Axe Printer', brand: 'Prusa MK4' });
    const saved = await post('/api/issues', { printerId: printer.id, category: 'other', description: 'The nozzle is clogged: nothing comes out and the extruder clicks.' });
    const found = [];
    for (const scheme of ['light', 'dark']) {
      const { page } = await newPage(env.browser.context, { width: 390, height: 844 });
      await page.emulateMedia({ colorScheme: scheme });
      const settled = trackRequests(page);
      const check = async (name) => {
        await page.waitForLoadState('load');
        await settled();
        for (const v of await axeViolations(page)) found.push(`${scheme} ${name}: ${v}`);
      };
      const visit = async (path, ready) => {
        await page.goto(env.server.baseURL + path);
        await (typeof ready === 'string' ? page.getByText(ready) : page.getByRole('heading', { name: ready }))
          .first()
          .waitFor({ timeout: 15_000 });
        await check(path);
      };
      // Signed out.
      for (const [path, text] of PRERENDERED) await visit(path, text);
      await visit('/login?mode=signup', 'Create Account');
      await visit('/no-such-page', '404 Page Not Found');
      await visit('/share/AAAAAAAAAAAAAAAAAAAAAAAA', /not found|no longer|expired|unavailable/i);
      if (scheme === 'light') {
        // An analysis and its results (anonymous credits are spent in light mode only).
        await page.goto(env.server.baseURL + '/');
        await page.getByLabel('Printer Brand/Model').fill('Creality Ender 3');
        await page.getByLabel('Detailed Description').fill('Thin hairs of plastic between the two towers after every print.');
        await page.getByRole('button', { name: 'Analyze Issue' }).click();
        await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 15_000 });
        await check('/troubleshooting-results');
      }
      // Signed in.
      await signIn(page, env.server.baseURL, email, 'correct horse 12');
      // (The sign-in screen's own heading is "Welcome Back": wait for the dashboard's.)
      await page.waitForURL('**/dashboard', { timeout: 15_000 });
      await page.getByRole('heading', { name: /Welcome/ }).waitFor({ timeout: 15_000 });
      await check('/dashboard');
      await visit('/report-issue', /Report an Issue/);
      await visit('/issues', /All Issues/);
      await visit(`/issues/${saved.id}`, 'Issue Analysis');
      await visit('/pricing', /Choose your plan/);
      await visit('/account', 'Your Account');
      await page.getByRole('button', { name: 'Delete my account' }).click();
      await page.getByRole('dialog').waitFor();
      await check('/account, delete dialog'); // after the fade-in: axeViolations waits for transitions
      await page.keyboard.press('Escape');
      await page.evaluate(() => localStorage.clear());
      await page.close();
    }
    assert.deepEqual(found, []);
  });
});
