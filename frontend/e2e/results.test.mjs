// End-to-end checks of the results and the issue log against the real binary, at 390 px and on a
// desktop: results (and a saved issue) open at the top with the focus on the summary heading; a
// saved issue has its own owner-only address and Back returns to the same place in the list, even
// after Show More; the log's search and category filter live in the address; an issue left on
// "Other" shows the diagnosed category in badges and printer statistics; narrow-it-down questions
// take "Not sure", stay on topic, and an answer says what it did to the steps.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { newPage } from './browser.mjs';
import { resultsDir, signIn, useServerAndBrowser } from './helpers.mjs';

const VIEWPORTS = [
  { name: '390', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];
const SCREENSHOT_WIDTHS = [360, 375, 390, 1280];
const HEATING = 'The temperature reading jumps around and drops by 10 degrees during the print.';
const CLOG = 'The nozzle is clogged: nothing comes out and the extruder clicks.';
const WARPING = 'The corners of large flat parts lift off the bed and warp upwards after a few layers.';
const PASSWORD = 'filament-42';

/** Screenshots of the page at every width, full height, for looking at; no sideways scrolling. */
async function shoot(page, name) {
  const before = page.viewportSize();
  for (const width of SCREENSHOT_WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // The screen's own content (the signed-in header's width is checked where it is fixed).
    const [scrollWidth, inner] = await page.evaluate(() => {
      const main = document.querySelector('main') ?? document.documentElement;
      const widest = Math.max(main.scrollWidth, ...[...main.querySelectorAll('*')].map((el) => el.getBoundingClientRect().right));
      return [Math.ceil(widest), window.innerWidth];
    });
    assert.ok(scrollWidth <= inner, `${name} at ${width} px is ${scrollWidth} px wide`);
    await page.screenshot({ path: path.join(resultsDir, `results-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(before);
}

/** The summary heading has the focus and the page is at its top. */
async function atTopWithSummaryFocused(page) {
  await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => document.activeElement?.textContent === 'Issue Analysis' && window.scrollY === 0, null, { timeout: 5_000 });
}

async function api(base, token, method, url, body) {
  const res = await fetch(base + url, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function signUp(base, email, displayName) {
  const res = await api(base, null, 'POST', '/api/auth/signup', { email, password: PASSWORD, displayName });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.token;
}

describe('results and the issue log', () => {
  // Enough monthly analyses for the log this file builds.
  const env = useServerAndBrowser({ env: { LAYERFIX_TIER_LIMITS: 'free=20,hobby=20,pro=50,farm=175' } });

  for (const vp of VIEWPORTS) {
    test(`${vp.name}: an anonymous answer opens at the top; Not sure and Yes say what they did`, { timeout: 90_000 }, async () => {
      const base = env.server.baseURL;
      const { page, errors } = await newPage(env.browser.context, vp);
      await page.goto(`${base}/`);
      await page.getByLabel('Printer Brand/Model').fill('Creality Ender 3');
      await page.getByRole('radio', { name: 'Temperature & Heating' }).click();
      await page.getByLabel('Detailed Description').fill(HEATING);
      // Analyze is at the bottom of a long form: the page is scrolled well down when it is pressed.
      await page.getByRole('button', { name: 'Analyze Issue' }).scrollIntoViewIfNeeded();
      assert.ok((await page.evaluate(() => window.scrollY)) > 100, 'the form was scrolled down');
      await page.getByRole('button', { name: 'Analyze Issue' }).click();
      await page.waitForURL('**/troubleshooting-results');
      await atTopWithSummaryFocused(page);
      if (vp.name === '390') await shoot(page, 'anonymous');

      const questions = page.getByTestId('narrow-question');
      const count = await questions.count();
      assert.ok(count >= 1 && count <= 2, `${count} questions`);
      const outcome = page.getByTestId('narrow-outcome');
      const steps = () => page.locator('[id^="step-"][id$="-title"]').allInnerTexts();

      // "Not sure" changes no score: the card says so and the steps keep their order.
      const before = await steps();
      const first = questions.first();
      await first.getByRole('button', { name: 'Not sure' }).click();
      await page.getByText('Your answer did not change the order of the steps.').waitFor();
      assert.equal(await first.getByRole('button', { name: 'Not sure' }).getAttribute('aria-pressed'), 'true');
      assert.deepEqual(await steps(), before);

      // Yes or No to a question that separates the causes reorders the steps and names the step.
      const asked = await page.getByTestId('narrow-question').count();
      assert.ok(asked <= 2, `still at most two questions, got ${asked}`);
      let moved = false;
      for (let i = 0; i < asked && !moved; i++) {
        const q = page.getByTestId('narrow-question').nth(i);
        for (const answer of ['Yes', 'No']) {
          if ((await q.getByRole('button', { name: answer }).getAttribute('aria-pressed')) === 'true') continue;
          const was = await steps();
          await q.getByRole('button', { name: answer }).click();
          await page.waitForFunction(() => !document.querySelector('[data-testid="narrow-question"] button[disabled]'));
          await outcome.filter({ hasText: /re-ordered|did not change/ }).waitFor();
          const text = await outcome.innerText();
          const now = await steps();
          if (/re-ordered/.test(text)) {
            assert.notDeepEqual(now, was, 'a re-ordering is a real one');
            const named = /“(.+)”/.exec(text)[1];
            assert.ok(now.includes(named), `${named} is a step`);
            assert.ok((await page.getByTestId('moved-up').count()) >= 1, 'the moved step is marked');
            moved = true;
            break;
          }
          assert.deepEqual(now, was, 'an unchanged order is said so');
        }
      }
      assert.ok(moved, 'some answer re-orders the steps');
      if (vp.name === '390') await shoot(page, 'answered');
      assert.deepEqual(errors.map(String), []);
      await page.close();
    });
  }

  test('saved issues: own address, Back to the same place, search and category in the address, diagnosed category', { timeout: 180_000 }, async () => {
    const base = env.server.baseURL;
    const token = await signUp(base, 'farm.results@example.com', 'Farm Maker');
    const printer = await api(base, token, 'POST', '/api/printers', { name: 'Workshop', brand: 'Prusa MK4' });
    assert.equal(printer.status, 201);
    const report = async (category, description) => {
      const res = await api(base, token, 'POST', '/api/issues', { printerId: printer.body.id, category, description });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    };
    // A clog left on "Other", a warping report, and three more for a log longer than a page.
    const clog = await report('other', CLOG);
    assert.equal(clog.diagnosedCategory, 'extrusion-issues');
    const warping = await report('bed-adhesion', WARPING);
    for (const q of warping.aiChecklist.questions ?? []) assert.doesNotMatch(q.text, /hotend|nozzle temp/i, 'a warping report asks about warping');
    for (let i = 1; i <= 3; i++) await report('stringing', `Thin strings between the towers, print number ${i} of the batch.`);

    // The other account cannot open these issues, in the API or in the browser.
    const otherToken = await signUp(base, 'other.results@example.com', 'Other Maker');
    assert.equal((await api(base, otherToken, 'GET', `/api/issues/${clog.id}`)).status, 404);

    for (const vp of VIEWPORTS) {
      const { page, errors } = await newPage(env.browser.context, vp);
      // A short page size, so five issues need Show More twice.
      await page.route(/\/api\/issues\?/, (route) => route.continue({ url: route.request().url().replace(/limit=\d+/, 'limit=2') }));
      if (vp === VIEWPORTS[0]) await signIn(page, base, 'farm.results@example.com', PASSWORD);
      else await page.goto(`${base}/dashboard`);
      await page.waitForURL('**/dashboard', { timeout: 15_000 });
      // Per-printer statistics count the clog as an extrusion issue, not "Other".
      const card = page.getByTestId('printer-card').filter({ hasText: 'Workshop' });
      await card.getByText(/^Extrusion Issues · 1$/).waitFor();
      assert.equal(await card.getByText(/^Other/).count(), 0);

      await page.goto(`${base}/issues`);
      const cards = page.getByTestId('issue-card');
      await cards.first().waitFor();
      assert.equal(await cards.count(), 2);
      await page.getByRole('button', { name: 'Show More (2 of 5)' }).click();
      await page.getByRole('button', { name: 'Show More (4 of 5)' }).waitFor();
      assert.equal(await cards.count(), 4);
      // The fourth card (the warping report), scrolled to, opened.
      const fourth = cards.nth(3);
      await fourth.scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollBy(0, 40));
      const listY = await page.evaluate(() => window.scrollY);
      if (vp.name === '390') assert.ok(listY > 200, `the list was scrolled (${listY})`);
      const fourthId = Number(/#(\d+)/.exec(await fourth.innerText())[1]);
      await fourth.click();
      await page.waitForURL(new RegExp(`/issues/${fourthId}$`));
      await atTopWithSummaryFocused(page);
      if (vp.name === '390') await shoot(page, 'saved-issue');

      // Back (the page's own link, then the browser's) returns to the same place in the list.
      const backs = [() => page.getByRole('link', { name: 'All Issues' }).click(), () => page.goBack()];
      for (const [i, goBack] of backs.entries()) {
        await goBack();
        await page.waitForURL(/\/issues$/);
        await page.waitForFunction(() => document.querySelectorAll('[data-testid="issue-card"]').length === 4);
        await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 2, listY, { timeout: 5_000 });
        if (i === backs.length - 1) break;
        await cards.nth(3).click();
        await page.waitForURL(new RegExp(`/issues/${fourthId}$`));
        await atTopWithSummaryFocused(page);
      }

      // The address works on its own: reloaded, and in a second tab.
      await page.goto(`${base}/issues/${clog.id}`);
      await atTopWithSummaryFocused(page);
      const details = page.getByRole('button', { name: 'Original Issue Details' });
      await details.click();
      await page.getByText('Extrusion Issues', { exact: true }).waitFor();
      const tab = await env.browser.context.newPage();
      await tab.setViewportSize(vp);
      await tab.goto(`${base}/issues/${clog.id}`);
      await tab.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 15_000 });
      await tab.getByRole('link', { name: 'All Issues' }).waitFor();
      await tab.close();

      // Search: debounced, in the address, kept on reload; the box shows it again.
      await page.goto(`${base}/issues`);
      await cards.first().waitFor();
      await page.getByRole('searchbox', { name: 'Search' }).fill('clogged');
      await page.waitForURL(/\/issues\?q=clogged$/);
      await page.getByTestId('filter-count').filter({ hasText: 'Showing 1 of 5 issues' }).waitFor();
      assert.equal(await cards.count(), 1);
      // The badge is the diagnosed category, not "Other".
      await cards.first().getByText('Extrusion Issues', { exact: true }).waitFor();
      await page.reload();
      await page.getByTestId('filter-count').filter({ hasText: 'Showing 1 of 5 issues' }).waitFor();
      assert.equal(await page.getByRole('searchbox', { name: 'Search' }).inputValue(), 'clogged');

      // Category, bookmarked: the diagnosed category finds the issue left on "Other".
      await page.getByRole('button', { name: 'Clear Filters' }).click();
      await page.waitForURL(/\/issues$/);
      assert.equal(await page.getByRole('searchbox', { name: 'Search' }).inputValue(), '');
      await page.getByRole('combobox', { name: 'Category' }).click();
      await page.getByRole('option', { name: 'Extrusion Issues' }).click();
      await page.waitForURL(/\/issues\?category=extrusion-issues$/);
      await page.getByTestId('filter-count').filter({ hasText: 'Showing 1 of 5 issues' }).waitFor();
      if (vp.name === '390') await shoot(page, 'issues-filtered');
      await page.goto(`${base}/issues?category=stringing&q=towers`);
      await page.getByTestId('filter-count').filter({ hasText: 'Showing 3 of 5 issues' }).waitFor();
      assert.match(await page.getByRole('combobox', { name: 'Category' }).innerText(), /Stringing & Oozing/);
      await page.getByRole('searchbox', { name: 'Search' }).fill('nothing like this');
      await page.getByText('No Issues Match Filters').waitFor();

      assert.deepEqual(errors.map(String), []);
      await page.close();
    }

    // Another account gets the not-found screen at the address.
    const { page } = await newPage(env.browser.context, VIEWPORTS[0]);
    await page.goto(`${base}/`);
    await page.evaluate(() => localStorage.clear());
    await signIn(page, base, 'other.results@example.com', PASSWORD);
    await page.waitForURL('**/dashboard', { timeout: 15_000 });
    await page.goto(`${base}/issues/${clog.id}`);
    await page.getByText('404 Page Not Found').waitFor();
    assert.equal(await page.getByText(/nozzle is clogged/).count(), 0);
    await page.close();
  });
});
