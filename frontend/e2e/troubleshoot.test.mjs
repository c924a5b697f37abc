// End-to-end check of the anonymous troubleshooting flow against the real binary:
// the home form, the results, sharing, the credits badge and the monthly limit.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { launchBrowser, newPage } from './browser.mjs';
import { makePng, resultsDir, useServerAndBrowser, present } from './helpers.mjs';
import { startServer } from './server.mjs';

const LABELS = new Set(['Most Likely', 'Worth Checking', 'Less Common']);

// jpegSize reads width and height from a JPEG's start-of-frame marker.
function jpegSize(buf) {
  assert.equal(buf.readUInt16BE(0), 0xffd8, 'JPEG signature');
  let i = 2;
  while (i < buf.length) {
    const marker = buf.readUInt16BE(i);
    const len = buf.readUInt16BE(i + 2);
    if (marker >= 0xffc0 && marker <= 0xffc3) return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  throw new Error('no SOF marker');
}

async function badgeText(page) {
  return (await page.getByTestId('credits-badge').innerText()).trim();
}

async function fillForm(page, { brand, category, description, material, nozzleTemp }) {
  await page.getByLabel('Printer Brand/Model').fill(brand);
  if (category) await page.getByRole('radio', { name: category }).click();
  await page.getByLabel('Detailed Description').fill(description);
  if (material || nozzleTemp) {
    await page.getByRole('button', { name: 'Additional Details' }).click();
    if (material) await page.getByLabel('Material').fill(material);
    if (nozzleTemp) await page.getByLabel('Nozzle Temperature').fill(String(nozzleTemp));
  }
}

async function analyze(page, base, form) {
  await page.goto(`${base}/preview`);
  await present(page);
  await page.getByTestId('credits-badge').waitFor();
  await fillForm(page, form);
  await page.getByRole('button', { name: 'Analyze Issue' }).click();
  await page.waitForURL('**/troubleshooting-results');
  await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 15_000 });
}

describe('anonymous troubleshooting', () => {
  const env = useServerAndBrowser();

  before(async () => {
    await env.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
  });

  test('analyse, share, and run into the monthly limit', async () => {
    const base = env.server.baseURL;
    const { page, errors } = await newPage(env.browser.context);

    await page.goto(`${base}/`);
    await present(page);
    await page.getByTestId('credits-badge').waitFor({ timeout: 15_000 });
    assert.equal(await badgeText(page), '0/3 free credits used');
    assert.equal(await page.getByRole('heading', { name: 'AI-Powered 3D Printing Troubleshooter' }).count(), 1);
    assert.equal(
      await page.getByRole('radio', { name: "Other / I Don't Know" }).getAttribute('aria-checked'),
      'true',
      "'other' is preselected",
    );

    // Client-side validation stops an empty form before any request.
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    await page.getByText('Please enter your printer brand').waitFor();
    await page.getByText('Please provide a detailed description (at least 10 characters)').waitFor();

    // First analysis, with a photo larger than 800 px.
    await fillForm(page, {
      brand: 'Creality Ender 3 V2',
      category: 'Stringing & Oozing',
      description: 'Thin hairs and strings between the two towers, like spider webs. Started with a new spool.',
      material: 'PETG',
      nozzleTemp: 245,
    });
    await page.getByTestId('photo-input').setInputFiles({ name: 'print.png', mimeType: 'image/png', buffer: makePng(1600, 1200) });
    await page.getByText(/print\.png/).waitFor();
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/troubleshoot') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    await page.waitForURL('**/troubleshooting-results');
    const payload = JSON.parse((await sent).postData());
    assert.equal(payload.printerBrand, 'Creality Ender 3 V2');
    assert.equal(payload.category, 'stringing');
    assert.equal(payload.material, 'PETG');
    assert.equal(payload.nozzleTemp, 245);
    assert.equal(payload.bedTemp, null);
    assert.equal(payload.images.length, 1);
    assert.ok(!payload.images[0].startsWith('data:'), 'data URL prefix stripped');
    assert.deepEqual(jpegSize(Buffer.from(payload.images[0], 'base64')), { width: 800, height: 600 });

    await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 15_000 });
    const steps = page.getByTestId('solution-step');
    const count = await steps.count();
    assert.ok(count >= 3, `at least 3 steps, got ${count}`);
    const labels = await page.getByTestId('priority-label').allInnerTexts();
    assert.equal(labels.length, count);
    for (const l of labels) assert.ok(LABELS.has(l), `priority label ${l}`);
    assert.equal(labels[0], 'Most Likely');
    await page.getByRole('heading', { name: 'Additional Tips & Best Practices' }).waitFor();

    // A ticked step survives a reload.
    const firstBox = steps.first().getByRole('checkbox');
    await firstBox.check();
    await page.reload();
    await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor();
    assert.equal(await page.getByTestId('solution-step').first().getByRole('checkbox').isChecked(), true);

    // The original details show the downscaled photo, which enlarges.
    await page.getByRole('button', { name: 'Original Issue Details' }).click();
    await page.getByRole('button', { name: 'Enlarge photo 1' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Share: the banner's link opens the guide in a fresh env.browser.
    const summary = await page.getByRole('region', { name: 'Issue Analysis' }).locator('p').innerText();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByTestId('share-banner').waitFor();
    const link = await page.getByTestId('share-link').inputValue();
    assert.match(link, new RegExp(`^${env.server.baseURL}/share/[A-Za-z0-9_-]{22,}$`));
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied!' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    await page.getByRole('button', { name: 'Copy' }).waitFor({ timeout: 3000 });
    await page.screenshot({ path: path.join(resultsDir, 'troubleshoot-results-1280.png'), fullPage: true });

    const fresh = await launchBrowser();
    try {
      const { page: guest, errors: guestErrors } = await newPage(fresh.context, { width: 390, height: 844 });
      const res = await guest.goto(link);
      assert.equal(res.headers()['referrer-policy'], 'no-referrer');
      await guest.getByText('Get Started for Free').waitFor({ timeout: 15_000 });
      // The title is the summary's start, cut at a word boundary with an ellipsis, never mid-word.
      const title = await guest.getByRole('heading', { level: 1 }).innerText();
      if (summary.length <= 50) assert.equal(title, summary.trim());
      else {
        assert.match(title, /…$/);
        const kept = title.slice(0, -1);
        assert.ok(summary.startsWith(kept), `${title} is not the start of ${summary}`);
        assert.match(summary.slice(kept.length), /^[\s,;:.\-–—(]/, `${title} cuts a word`);
      }
      assert.equal(await guest.getByTestId('solution-step').count(), count);
      assert.equal(await guest.getByRole('checkbox').count(), 0, 'the shared guide is read-only');
      await guest.screenshot({ path: path.join(resultsDir, 'troubleshoot-shared-390.png'), fullPage: true });
      await guest.goto(`${base}/share/AAAAAAAAAAAAAAAAAAAAAAAA`);
      await guest.getByText("The troubleshooting guide you're looking for doesn't exist or has expired.").waitFor();
      assert.deepEqual(guestErrors.map(String), []);
    } finally {
      await fresh.close();
    }

    await page.goto(`${base}/`);
    await present(page);
    await page.getByTestId('credits-badge').waitFor();
    assert.equal(await badgeText(page), '1/3 free credits used');

    // Second analysis, then a second tab still shows the form at 2/3.
    await analyze(page, base, { brand: 'Prusa MK4', description: "First layer won't stick, corners curl up on the PEI sheet." });
    const { page: other } = await newPage(env.browser.context);
    await other.goto(`${base}/preview`);
    await present(other);
    await other.getByTestId('credits-badge').waitFor();
    assert.equal(await badgeText(other), '2/3 free credits used');

    // The third analysis uses the last credit.
    await analyze(page, base, { brand: 'Bambu Lab P1S', description: 'Layer shift halfway through the print, everything above is offset.' });
    await page.goto(`${base}/`);
    await present(page);
    await page.getByTestId('limit-reached').waitFor();
    assert.equal(await badgeText(page), '3/3 free credits used');
    assert.match(await page.getByTestId('credits-badge').getAttribute('class'), /colorWarning/);
    await page.getByText("You've used all your free credits!").waitFor();
    await page.getByRole('link', { name: 'Create Free Account' }).waitFor();
    await page.getByRole('link', { name: 'View Pricing Plans' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Analyze Issue' }).count(), 0);
    await page.screenshot({ path: path.join(resultsDir, 'troubleshoot-limit-1280.png'), fullPage: true });

    // A fourth analysis from the stale tab: the server refuses, the toast says so, the form gives way.
    await fillForm(other, { brand: 'Anycubic Kobra 2', description: 'Under extrusion and gaps in the top layers.' });
    await other.getByRole('button', { name: 'Analyze Issue' }).click();
    await other.getByTestId('toast').getByText('Monthly Limit Reached').waitFor({ timeout: 15_000 });
    await other.waitForURL('**/preview');
    await present(other);
    await other.getByTestId('limit-reached').waitFor();
    assert.equal(await badgeText(other), '3/3 free credits used');

    assert.deepEqual(errors.map(String), []);
  });

  test('works under a base path', async () => {
    const sub = await startServer({ env: { LAYERFIX_BASE_PATH: '/layerfix' } });
    const b = await launchBrowser();
    try {
      const { page, errors } = await newPage(b.context, { width: 390, height: 844 });
      await analyze(page, sub.baseURL, { brand: 'Sovol SV06', description: 'Elephant foot on the bottom layers, the base flares out.' });
      assert.equal(new URL(page.url()).pathname, '/layerfix/troubleshooting-results');
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const link = await page.getByTestId('share-link').inputValue();
      assert.match(link, new RegExp(`^${sub.origin}/layerfix/share/[A-Za-z0-9_-]{22,}$`));
      await page.goto(link);
      await page.getByText('Get Started for Free').waitFor({ timeout: 15_000 });
      await page.goto(`${sub.baseURL}/preview`);
      await present(page);
      await page.getByTestId('credits-badge').waitFor();
      assert.equal(await badgeText(page), '1/3 free credits used');
      assert.deepEqual(errors.map(String), []);
    } finally {
      await b.close();
      await sub.stop();
    }
  });
});
