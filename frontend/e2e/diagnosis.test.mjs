// End-to-end checks of the diagnosis additions against the real binary: settings read from a
// sliced file (four slicers), the narrow-it-down questions, and the server learning from the fixes
// its makers confirm.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { newPage } from './browser.mjs';
import { resultsDir, signIn, signUpViaApi, useServerAndBrowser, present } from './helpers.mjs';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'features', 'slicedfile', 'testdata');

async function firstStep(page) {
  await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 20_000 });
  return (await page.getByTestId('solution-step').first().locator('h3').innerText()).trim();
}

describe('diagnosis', () => {
  const env = useServerAndBrowser();

  // Signed in first: the account's sign-in would otherwise take over this address's anonymous analyses.
  test('narrow it down re-ranks the steps without a credit; a confirmed fix leads on its printer and one maker does not teach the server', async () => {
    const base = env.server.baseURL;
    await signUpViaApi(base, { email: 'farm@example.com', password: 'layers-and-gears', displayName: 'Farm' });
    const { page, errors } = await newPage(env.browser.context);
    await signIn(page, base, 'farm@example.com', 'layers-and-gears');
    await page.waitForURL('**/dashboard');
    // Two printers; an ambiguous issue on the first.
    for (const [name, brand] of [['Left', 'Prusa MK4'], ['Right', 'Creality Ender 3 V2']]) {
      await page.goto(`${base}/dashboard`);
      await page.getByRole('button', { name: 'Add New Printer' }).click();
      const add = page.getByRole('dialog', { name: 'Add Printer' });
      await add.getByLabel('Printer Name').fill(name);
      await add.getByLabel('Brand').fill(brand);
      await add.getByRole('button', { name: 'Add Printer' }).click();
      await page.getByText('Printer added successfully').waitFor();
    }
    const report = async (printer, brand, description) => {
      await page.goto(`${base}/dashboard`);
      await page.getByTestId('printer-card').filter({ hasText: printer }).getByRole('link', { name: 'New Issue' }).click();
      await page.waitForURL(/\/report-issue\?printerId=\d+$/);
      await page.waitForFunction((want) => document.querySelector('[role="combobox"]')?.textContent?.includes(want), `${printer} (${brand})`);
      await page.getByLabel('Detailed Description').fill(description);
      await page.getByRole('button', { name: 'Analyze Issue' }).click();
      await page.waitForURL(/\/issues\/\d+$/);
      try {
        await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 20_000 });
      } catch (err) {
        throw new Error(`no analysis: ${page.url()} ${(await page.locator('body').innerText()).slice(0, 600)}`, {
          cause: err,
        });
      }
    };
    await report('Left', 'Prusa MK4', 'The temperature reading jumps around and drops by 10 degrees during the print.');
    const region = page.getByRole('region', { name: 'Narrow It Down' });
    await region.waitFor();
    const before = await page.getByTestId('solution-step').allInnerTexts();
    await region.getByRole('button', { name: 'Yes' }).first().click();
    await region.getByRole('button', { name: 'Yes', pressed: true }).first().waitFor();
    const after = await page.getByTestId('solution-step').allInnerTexts();
    assert.notDeepEqual(after, before, 'the answer changed nothing');
    await page.screenshot({ path: path.join(resultsDir, 'narrow-it-down-1280.png'), fullPage: true });

    // Resolve it with a step of the analysis: the same problem on the same printer offers it first
    // (the owner's own history). One maker's confirmation does not teach the server: the other
    // printer's answer carries no learned step.
    const learned = (await page.getByTestId('solution-step').nth(2).locator('h3').innerText()).trim();
    await page.getByRole('button', { name: 'Mark as Resolved' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark as Resolved' });
    await dialog.getByRole('checkbox', { name: learned }).check();
    await dialog.getByRole('button', { name: 'Mark as Resolved' }).click();
    await page.getByText('Issue Resolved', { exact: true }).waitFor();
    await page.waitForTimeout(1000); // the engine reloads confirmed fixes in the background
    await report('Left', 'Prusa MK4', 'The temperature reading jumps around and drops by 10 degrees while printing.');
    const first = page.getByTestId('solution-step').first();
    assert.equal((await first.locator('h3').innerText()).trim(), learned, 'the owner\'s fix is not first on the same printer');
    assert.match(await first.innerText(), /This fixed a similar problem on this printer/);
    await report('Right', 'Creality Ender 3 V2', 'The temperature reading jumps around and drops by 10 degrees while printing.');
    const other = (await page.getByTestId('solution-step').allInnerTexts()).join('\n');
    assert.doesNotMatch(other, /on this server confirmed|on this printer on/, 'one maker\'s confirmation reached another answer');
    assert.deepEqual(errors.map(String), []);
  });
  test('sliced files of four slicers fill the form, and a setting only the file had changes the answer', async () => {
    const base = env.server.baseURL;
    const { page, errors } = await newPage(env.browser.context, { width: 390, height: 844 });
    // Signed out: the maker of the test before is still signed in in this browser.
    await page.goto(`${base}/features`);
    await page.evaluate(() => localStorage.clear());
    for (const [file, slicer, nozzle] of [
      ['prusa-mk4.gcode', 'PrusaSlicer', '215'],
      ['cura-ender3.gcode', 'Cura', '230'],
      ['bambu-p1s.3mf', 'Bambu Studio', '250'],
      ['orca-ender3.gcode', 'OrcaSlicer', '205'],
    ]) {
      // Each file on a fresh form: the draft would otherwise keep the fields the
      // previous file filled and this one does not have.
      await page.goto(`${base}/`);
      await page.evaluate(() => sessionStorage.clear());
      await page.goto(`${base}/`);
      await present(page);
      await page.getByTestId('credits-badge').waitFor();
      await page.getByTestId('sliced-file-input').setInputFiles(path.join(fixtures, file));
      // The form may show the previous file's settings from the draft: wait for this file's.
      const read = page.getByTestId('sliced-settings').filter({ hasText: `${file} (${slicer})` });
      await read.waitFor();
      assert.match(await read.innerText(), new RegExp(`${file.replace('.', '\\.')} \\(${slicer}\\)`));
      assert.equal(await page.getByLabel('Nozzle Temperature').inputValue(), nozzle, `${file}: nozzle temperature`);
    }
    // The Orca file of a Bowden Ender 3 V2 retracts 0.8 mm: the answer names it.
    await page.screenshot({ path: path.join(resultsDir, 'sliced-file-390.png'), fullPage: true });
    await page.getByLabel('Detailed Description').fill('Fine strings and hairs between the towers on every print');
    await page.getByRole('radio', { name: 'Stringing & Oozing' }).click();
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    await page.waitForURL('**/troubleshooting-results');
    const withFile = await firstStep(page);
    assert.match(withFile, /Raise retraction to 4–6 mm .*0\.8 mm/);

    await page.goto(`${base}/`);
    await present(page);
    await page.getByTestId('credits-badge').waitFor();
    await page.getByLabel('Printer Brand/Model').fill('Creality Ender-3 V2');
    await page.getByRole('radio', { name: 'Stringing & Oozing' }).click();
    await page.getByLabel('Detailed Description').fill('Fine strings and hairs between the towers on every print');
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    await page.waitForURL('**/troubleshooting-results');
    const without = await firstStep(page);
    assert.notEqual(without, withFile, 'the same answer without the file');
    assert.deepEqual(errors.map(String), []);
  });

});
