// The maker's own account against the real binary: no signed-in screen is wider than a 360 px
// phone (a free and a Print Farm account), and /account at 390 px and on a desktop: rename,
// change the email and the password (then sign in with them), download my data (the zip is
// read), delete the account (then sign-in fails and the data is gone).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { newPage } from './browser.mjs';
import { makePng, openAccount, resultsDir, signIn, signUpViaApi, useServerAndBrowser } from './helpers.mjs';
import { binaryPath } from './server.mjs';

const run = promisify(execFile);
const PASSWORD = 'first-layer-squish';
const shot = (page, name) => page.screenshot({ path: path.join(resultsDir, `account-${name}.png`), fullPage: true });

/** Calls the API with a bearer token; returns { status, body }. */
async function api(baseURL, token, method, url, body) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  if (body !== undefined && !(body instanceof FormData)) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${baseURL}${url}`, {
    method,
    headers,
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed };
}

async function login(baseURL, email, password) {
  return api(baseURL, null, 'POST', '/api/auth/login', { email, password });
}

/**
 * A maker on `tier` (granted by the operator's command) with a printer and `issues` saved issues,
 * the first with a photo; returns the photo's id.
 */
async function seed({ baseURL, dataDir }, email, displayName, issues, tier = 'free') {
  await signUpViaApi(baseURL, { email, password: PASSWORD, displayName });
  if (tier !== 'free') {
    const { stdout } = await run(binaryPath, ['user', 'set-tier', email, tier], {
      env: { ...process.env, LAYERFIX_DATA_DIR: dataDir },
    });
    assert.match(stdout, new RegExp(tier));
  }
  const { body: session } = await login(baseURL, email, PASSWORD);
  const token = session.token;
  const printer = await api(baseURL, token, 'POST', '/api/printers', { name: 'Workhorse', brand: 'Prusa MK4' });
  assert.equal(printer.status, 201, JSON.stringify(printer.body));
  const form = new FormData();
  form.append('images', new Blob([makePng(64, 48)], { type: 'image/png' }), 'spaghetti.png');
  const upload = await api(baseURL, token, 'POST', '/api/upload-images', form);
  assert.equal(upload.status, 200, JSON.stringify(upload.body));
  const photoUrl = upload.body.images[0].url;
  for (let i = 0; i < issues; i++) {
    const issue = await api(baseURL, token, 'POST', '/api/issues', {
      printerId: printer.body.id,
      category: 'stringing',
      description: `Thin strings between the towers of print number ${i + 1}`,
      material: 'PETG',
      nozzleTemp: 240,
      bedTemp: null,
      layerHeight: null,
      printSpeed: null,
      infill: null,
      photoUrls: i === 0 ? [photoUrl] : [],
    });
    assert.equal(issue.status, 201, JSON.stringify(issue.body));
  }
  return { token, photoId: /photos\/([0-9a-f]{32})\.jpg/.exec(photoUrl)[1] };
}

/** The entries of a zip archive (central directory; stored or deflated). */
function readZip(buf) {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0, 'not a zip archive');
  const files = {};
  let p = buf.readUInt32LE(eocd + 16);
  for (let i = buf.readUInt16LE(eocd + 10); i > 0; i--) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    files[name] = method === 8 ? zlib.inflateRawSync(data) : Buffer.from(data);
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return files;
}

/** How far the page scrolls sideways (0 or less: it does not). */
const overflowOf = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function noSidewaysScroll(page, where) {
  const overflow = await overflowOf(page);
  assert.ok(overflow <= 0, `${where}: the page is ${overflow} px wider than the ${page.viewportSize().width} px screen`);
}

describe('the maker account', () => {
  const env = useServerAndBrowser();

  test('no signed-in screen is wider than a 360 px phone, free or Print Farm', async () => {
    const { baseURL } = env.server;
    await seed(env.server, 'free-360@example.com', 'Frida Free', 1);
    await seed(env.server, 'farm-360@example.com', 'Farah Farmsworth-Delacroix', 12, 'farm');

    for (const [email, badgeText] of [
      ['free-360@example.com', '1/3 credits used'],
      ['farm-360@example.com', '12/175 credits used'],
    ]) {
      const { page, errors } = await newPage(env.browser.context, { width: 360, height: 740 });
      await page.goto(`${baseURL}/features`);
      await page.evaluate(() => localStorage.clear());
      await signIn(page, baseURL, email, PASSWORD);
      await page.waitForURL('**/dashboard');
      const tier = email.startsWith('farm') ? 'farm' : 'free';
      const check = async (where) => {
        const badge = page.getByTestId('usage-badge');
        await badge.waitFor();
        assert.equal((await badge.innerText()).trim(), badgeText, `${where}: the whole badge`);
        const menu = await page.getByRole('button', { name: 'Open menu' }).boundingBox();
        assert.ok(menu && menu.x >= 0 && menu.x + menu.width <= 360, `${where}: the menu button is on screen (${JSON.stringify(menu)})`);
        await noSidewaysScroll(page, `${tier} ${where}`);
      };
      const visit = async (route, ready) => {
        await page.goto(`${baseURL}${route}`);
        await ready().waitFor({ timeout: 15_000 });
        await check(route);
      };
      const heading = (name) => () => page.getByRole('heading', { name }).first();

      await page.getByTestId('usage-card').waitFor({ timeout: 15_000 });
      await check('/dashboard');
      await shot(page, `dashboard-${tier}-360`);
      // The drawer's entries are whole on screen.
      await page.getByRole('button', { name: 'Open menu' }).click();
      const signOut = page.getByRole('button', { name: 'Sign Out' });
      await signOut.waitFor();
      await page.waitForTimeout(400); // drawer slide-in
      for (const entry of [page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Subscription' }), signOut]) {
        const box = await entry.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 360, `drawer entry off screen: ${JSON.stringify(box)}`);
      }
      await shot(page, `drawer-${tier}-360`);
      await page.keyboard.press('Escape');
      await signOut.waitFor({ state: 'hidden' });
      // The dashboard's printer dialog.
      await page.getByRole('button', { name: /Add New Printer/ }).first().click();
      await page.getByRole('dialog').waitFor();
      await noSidewaysScroll(page, `${tier} add-printer dialog`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });

      await visit('/report-issue', heading(/Report an Issue/));
      await visit('/issues', heading(/All Issues/));
      // A saved issue, opened as a maker opens it.
      await page.locator('[data-testid="issue-card"]').first().click();
      await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 15_000 });
      await check('a saved issue');
      await shot(page, `issue-${tier}-360`);
      await visit('/subscribe', () => page.getByTestId('subscribe-farm'));
      await visit('/pricing', () => page.getByTestId('subscribe-farm'));
      await visit('/account', heading('Your Account'));
      await shot(page, `account-${tier}-360`);
      await page.getByRole('button', { name: 'Delete my account' }).click();
      await page.getByRole('dialog').waitFor();
      await noSidewaysScroll(page, `${tier} delete dialog`);
      await page.keyboard.press('Escape');
      await visit('/features', heading(/Fix Every Print/));
      await visit('/privacy-policy', heading('Privacy Policy'));
      await visit('/terms-of-service', heading('Terms of Service'));
      await visit('/share/AAAAAAAAAAAAAAAAAAAAAAAA', heading(/not found/i));
      await visit('/no-such-page', heading('404 Page Not Found'));
      assert.deepEqual(errors.map(String), []);
      await page.evaluate(() => localStorage.clear());
      await page.close();
    }
  });

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    const phone = viewport.width < 600;
    test(`account at ${viewport.width} px: rename, email, password, download my data, delete`, async () => {
      const { baseURL, dataDir } = env.server;
      const email = `maker-${viewport.width}@example.com`;
      const newEmail = `renamed-${viewport.width}@example.com`;
      const newPassword = 'retraction-tuned-7';
      const { photoId } = await seed(env.server, email, 'Ada Lovelace', 1);

      const { page, errors } = await newPage(env.browser.context, viewport);
      await page.goto(`${baseURL}/features`);
      await page.evaluate(() => localStorage.clear());
      await signIn(page, baseURL, email, PASSWORD);
      await page.waitForURL('**/dashboard');
      // The top bar fits here too: the whole badge and the menu button are on screen.
      await page.getByTestId('usage-badge').waitFor();
      await noSidewaysScroll(page, '/dashboard');
      const menu = await page.getByRole('button', { name: phone ? 'Open menu' : 'Account menu' }).boundingBox();
      assert.ok(menu && menu.x >= 0 && menu.x + menu.width <= viewport.width, `the menu button is on screen (${JSON.stringify(menu)})`);
      await openAccount(page, phone);
      await noSidewaysScroll(page, '/account');
      await shot(page, `screen-${viewport.width}`);

      // Rename: the navigation shows the new name.
      const profile = page.getByTestId('account-profile');
      await profile.getByLabel('Display Name').fill('Grace Hopper');
      await profile.getByRole('button', { name: 'Save Name' }).click();
      await profile.getByText('Your display name was saved.').waitFor();
      if (phone) await page.getByRole('button', { name: 'Open menu' }).click();
      else await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByTestId('user-name').filter({ hasText: 'Grace Hopper' }).first().waitFor();
      await page.keyboard.press('Escape');

      // Every wrong password counts against this address like a failed sign-in (10 in 15 minutes),
      // so each viewport tries a different one.
      const emailForm = page.getByTestId('account-email');
      await emailForm.getByLabel('New Email').fill(newEmail);
      if (phone) {
        // A wrong current password is refused on the field.
        await emailForm.getByLabel('Current Password').fill('not-my-password');
        await emailForm.getByRole('button', { name: 'Change Email' }).click();
        await emailForm.getByText('Incorrect password').waitFor();
      }
      // This server sends no email: the change takes effect at once.
      await emailForm.getByLabel('Current Password').fill(PASSWORD);
      await emailForm.getByRole('button', { name: 'Change Email' }).click();
      await emailForm.getByText(`Your email address is now ${newEmail}.`, { exact: false }).waitFor();
      await page.getByTestId('account-current-email').filter({ hasText: newEmail }).waitFor();

      const passwordForm = page.getByTestId('account-password');
      await passwordForm.getByLabel('Current Password').fill(PASSWORD);
      await passwordForm.getByLabel('New Password', { exact: true }).fill(newPassword);
      await passwordForm.getByLabel('Confirm New Password').fill(newPassword);
      await passwordForm.getByRole('button', { name: 'Change Password' }).click();
      await passwordForm.getByText('Your password was changed.', { exact: false }).waitFor();
      await shot(page, `changed-${viewport.width}`);

      // Download my data: the zip holds the account, the printer, the issue and its photo.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download my data' }).click(),
      ]);
      assert.match(download.suggestedFilename(), /^layerfix-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const files = readZip(await readFile(await download.path()));
      const account = JSON.parse(files['account.json']);
      assert.equal(account.email, newEmail);
      assert.equal(account.displayName, 'Grace Hopper');
      assert.equal(JSON.parse(files['printers.json'])[0].name, 'Workhorse');
      const issues = JSON.parse(files['issues.json']);
      assert.equal(issues.length, 1);
      assert.match(issues[0].description, /Thin strings/);
      assert.ok(issues[0].aiChecklist.summary, 'the analysis is in the export');
      assert.deepEqual(issues[0].photos, [`photos/${photoId}.jpg`]);
      const photo = files[`photos/${photoId}.jpg`];
      assert.ok(photo && photo[0] === 0xff && photo[1] === 0xd8, 'the photo file is a JPEG');

      // Signed out, the new email and password sign in; the old ones do not.
      if (phone) {
        assert.equal((await login(baseURL, email, PASSWORD)).status, 401);
        assert.equal((await login(baseURL, newEmail, PASSWORD)).status, 401);
      }
      await page.evaluate(() => localStorage.clear());
      await signIn(page, baseURL, newEmail, newPassword);
      await page.waitForURL('**/dashboard');

      // Delete my account.
      await openAccount(page, phone);
      await page.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      assert.match(await dialog.innerText(), /printers, issues, photos/);
      if (!phone) {
        await dialog.getByLabel('Password').fill('not-my-password');
        await dialog.getByRole('button', { name: 'Delete Account' }).click();
        await dialog.getByText('Incorrect password').waitFor();
      }
      await page.waitForTimeout(300); // dialog fade-in
      await page.screenshot({ path: path.join(resultsDir, `account-delete-${viewport.width}.png`) });
      await dialog.getByLabel('Password').fill(newPassword);
      await dialog.getByRole('button', { name: 'Delete Account' }).click();
      await page.waitForURL((u) => u.pathname === '/');
      await page.getByText('Your account and everything in it were deleted.').waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem('layerfix.session')), null);

      // Sign-in fails and the data is gone.
      await signIn(page, baseURL, newEmail, newPassword);
      assert.equal((await page.getByTestId('auth-error').innerText()).trim(), 'Incorrect email or password');
      await assert.rejects(stat(path.join(dataDir, 'photos', photoId.slice(0, 2), `${photoId}.jpg`)), { code: 'ENOENT' });
      const { stdout } = await run(binaryPath, ['user', 'list', '--json'], { env: { ...process.env, LAYERFIX_DATA_DIR: dataDir } });
      assert.ok(!JSON.parse(stdout).some((u) => u.email === newEmail || u.email === email), 'the account is gone from the database');
      assert.deepEqual(errors.map(String), []);
      await page.close();
    });
  }
});
