// End-to-end check of the signed-in workspace against the real binary: sign up, add a
// printer, report an issue with a photo, tick two steps, resolve, find it in /issues, share it and
// open the link signed out.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { launchBrowser, newPage } from './browser.mjs';
import { makePng, resultsDir, useServerAndBrowser } from './helpers.mjs';

const WIDTHS = [
  { name: 'mobile', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];
const OWNER = { name: 'Ada Lovelace', email: 'ada.workspace@example.com', password: 'filament-42' };
const PRINTER = { name: 'Workshop Ender', brand: 'Creality Ender 3 V2', volume: '220 x 220 x 250' };

async function shoot(page, name) {
  for (const v of WIDTHS) {
    await page.setViewportSize({ width: v.width, height: v.height });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(resultsDir, `workspace-${name}-${v.name}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('signed-in workspace', () => {
  const env = useServerAndBrowser();

  test('printer, issue with photo, two ticked steps, resolve, issue log, share', { timeout: 180_000 }, async () => {
    const base = env.server.baseURL;
    const { page, errors } = await newPage(env.browser.context);

    // Sign up through the login screen.
    await page.goto(`${base}/login?mode=signup`);
    await page.locator('input[name="displayName"]').fill(OWNER.name);
    await page.locator('input[name="email"]').fill(OWNER.email);
    await page.locator('input[name="password"]').fill(OWNER.password);
    await page.locator('input[name="confirmPassword"]').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/dashboard', { timeout: 15_000 });
    await page.getByRole('heading', { name: 'Welcome, Ada!' }).waitFor(); // the account's first dashboard
    await page.getByText('No issues reported yet').waitFor();
    await page.getByRole('button', { name: 'View Plans' }).or(page.getByRole('link', { name: 'View Plans' })).first().waitFor();

    // Add a printer; the form refuses a name with an invisible character first, and says which.
    await page.getByRole('button', { name: 'Add New Printer' }).click();
    const add = page.getByRole('dialog', { name: 'Add Printer' });
    await add.getByLabel('Printer Name').fill('Bad\u200bName');
    await add.getByLabel('Brand').fill(PRINTER.brand);
    await add.getByRole('button', { name: 'Add Printer' }).click();
    await add.getByText('Printer name contains invalid characters: an invisible formatting character (U+200B). Remove it and try again.').waitFor();
    await add.getByLabel('Printer Name').fill(PRINTER.name);
    await add.getByLabel('Build Volume').fill(PRINTER.volume);
    await add.getByRole('button', { name: 'Add Printer' }).click();
    await page.getByText('Printer added successfully').waitFor();
    const card = page.getByTestId('printer-card').filter({ hasText: PRINTER.name });
    await card.waitFor();
    assert.match(await card.innerText(), /0\.4 mm/);
    assert.match(await card.innerText(), /220 x 220 x 250 mm/);
    assert.equal(await page.getByTestId('stat-Printers').innerText(), '1');
    await page.getByTestId('stat-Printers').waitFor();

    // New Issue from the printer card preselects it.
    await card.getByRole('link', { name: 'New Issue' }).click();
    await page.waitForURL(/\/report-issue\?printerId=\d+$/);
    const select = page.getByRole('combobox', { name: 'Printer' });
    await assert.doesNotReject(async () => {
      await page.waitForFunction(
        (want) => document.querySelector('[role="combobox"]')?.textContent?.includes(want),
        `${PRINTER.name} (${PRINTER.brand})`,
        { timeout: 10_000 },
      );
    });
    assert.ok(await select.isVisible());

    // Report an issue with a photo; a too-short description is refused first.
    await page.getByRole('radio', { name: 'Bed Adhesion & Warping' }).click();
    await page.getByLabel('Detailed Description').fill('warps');
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    await page.getByText('Please provide a detailed description (at least 10 characters)').waitFor();
    await page
      .getByLabel('Detailed Description')
      .fill('The corners of my PETG box lift off the bed after about ten layers and the first layer looks uneven.');
    await page.getByTestId('photo-input').setInputFiles({ name: 'warp.png', mimeType: 'image/png', buffer: makePng(640, 480) });
    await page.getByText(/^warp\.png/).waitFor();
    await page.getByRole('button', { name: 'Additional Details' }).click();
    await page.getByLabel('Material').fill('PETG');
    await page.getByLabel('Bed Temperature').fill('70');
    await shoot(page, 'report-issue');
    const uploaded = page.waitForResponse((r) => r.url().includes('/api/upload-images') && r.request().method() === 'POST');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/issues') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    assert.equal((await uploaded).status(), 200);
    assert.equal((await created).status(), 201);
    await page.waitForURL(/\/issues\/\d+$/);
    await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 20_000 });

    // The saved issue shows its photo from the env.server.
    await page.getByRole('button', { name: 'Original Issue Details' }).click();
    const photo = page.getByRole('img', { name: 'Photo 1' });
    await photo.waitFor();
    assert.match(await photo.getAttribute('src'), /\/api\/photos\//);
    await page.waitForFunction(() => {
      const img = document.querySelector('img[alt="Photo 1"]');
      return img && img.complete && img.naturalWidth > 0;
    });

    // Tick two steps; the first moves the issue to in-progress.
    const steps = page.getByTestId('solution-step');
    assert.ok((await steps.count()) >= 2, 'at least two steps');
    const titles = [await steps.nth(0).locator('h3').innerText(), await steps.nth(1).locator('h3').innerText()];
    const progress = page.waitForResponse((r) => r.url().includes('/progress') && r.request().method() === 'PATCH');
    await steps.nth(0).getByRole('checkbox').check();
    assert.equal((await progress).status(), 200);
    await steps.nth(1).getByRole('checkbox').check();
    await shoot(page, 'results');

    // Resolve: the ticked steps are preselected.
    await page.getByRole('button', { name: 'Mark as Resolved' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark as Resolved' });
    for (const t of titles) assert.equal(await dialog.getByRole('checkbox', { name: t }).isChecked(), true, t);
    await dialog.getByLabel(/Resolution Notes/).fill('  Glue stick and a brim fixed it.  ');
    await dialog.getByRole('button', { name: 'Mark as Resolved' }).click();
    await page.getByText('Issue Resolved', { exact: true }).waitFor();
    await page.getByTestId('resolved-indicator').waitFor();
    const notes = page.getByRole('region', { name: 'Resolution Notes' });
    assert.match(await notes.innerText(), /Glue stick and a brim fixed it\./);
    assert.equal(await page.getByRole('button', { name: 'Mark as Resolved' }).count(), 0);

    // Share the result.
    await page.getByRole('button', { name: 'Share' }).click();
    const shareLink = await page.getByTestId('share-link').inputValue();
    assert.match(shareLink, /\/share\/[\w-]+$/);
    await shoot(page, 'resolved');

    // The issue log: under Resolved with the working steps.
    await page.getByRole('link', { name: 'Return to Dashboard' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByTestId('recent-issue').first().waitFor();
    assert.equal(await page.getByTestId('stat-Resolved').innerText(), '1');
    assert.equal(await page.getByTestId('recent-issue').first().getByTestId('status-badge').innerText(), 'Resolved');
    await page.getByTestId('printer-history').waitFor();
    await shoot(page, 'dashboard');
    await page.goto(`${base}/issues`);
    await page.getByTestId('issue-card').first().waitFor();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Resolved' }).click();
    await page.getByText('Showing 1 of 1 issues').waitFor();
    const resolvedCard = page.getByTestId('issue-card');
    assert.equal(await resolvedCard.count(), 1);
    const working = await resolvedCard.getByTestId('working-solutions').innerText();
    for (const t of titles) assert.ok(working.includes(t), `working solutions list ${t}`);
    assert.match(await resolvedCard.innerText(), new RegExp(`${PRINTER.name} \\(${PRINTER.brand}\\)`));
    await shoot(page, 'issues');

    // Export as CSV.
    await page.getByRole('button', { name: 'Export' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Download CSV' }).click();
    const file = await download;
    assert.match(file.suggestedFilename(), /\.csv$/);
    const csv = await readFile(await file.path(), 'utf8');
    assert.ok(csv.includes('resolved') && csv.includes(titles[0]), 'the CSV carries the resolved issue');

    // In Progress shows nothing now; the card opens the saved result.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'In Progress' }).click();
    await page.getByText('No Issues Match Filters').waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.getByTestId('issue-card').first().click();
    await page.waitForURL(/\/issues\/\d+$/);
    await page.getByTestId('resolved-indicator').waitFor();
    assert.deepEqual(errors, []);

    // A fresh signed-out browser sees the shared guide and nothing of the owner.
    const other = await launchBrowser();
    try {
      const { page: anon } = await newPage(other.context);
      await anon.goto(shareLink);
      await anon.getByText(titles[0]).first().waitFor({ timeout: 15_000 });
      const text = await anon.locator('body').innerText();
      // The brand/model is part of the advice itself (and generic); the printer's own name is not.
      for (const secret of [OWNER.name, 'Ada', OWNER.email, PRINTER.name, 'Glue stick and a brim fixed it.']) {
        assert.ok(!text.includes(secret), `shared page must not show ${secret}`);
      }
      assert.equal(await anon.locator('img[src*="/api/photos/"]').count(), 0);
      const html = await anon.content();
      assert.ok(!html.includes(OWNER.email));
    } finally {
      await other.close();
    }
  });
});
