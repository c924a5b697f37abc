// End-to-end checks of accounts against the real binary in local mode with no
// configuration: sign up, stay signed in across a reload, sign out,
// sign in again, one error for a wrong password and an unknown email, the
// route guard, the anonymous usage moved to the new account, the 390 px drawer.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { newPage } from './browser.mjs';
import { anonymousAnalysis, resultsDir, signIn, signUpViaApi, useServerAndBrowser } from './helpers.mjs';
import { binaryPath } from './server.mjs';

const shot = (page, name) => page.screenshot({ path: path.join(resultsDir, `auth-${name}.png`), fullPage: true });

const run = promisify(execFile);
const PASSWORD = 'benchy-calibration-cube';
const NAME = 'Ada Lovelace';

function pathOf(page) {
  return new URL(page.url()).pathname;
}

describe('accounts (local mode)', () => {
  const env = useServerAndBrowser();

  test('a protected screen sends a signed-out visitor to /login', async () => {
    const { page, errors } = await newPage(env.browser.context);
    for (const route of ['/dashboard', '/issues', '/report-issue', '/subscribe']) {
      await page.goto(`${env.server.baseURL}${route}`);
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
      assert.equal(pathOf(page), '/login', route);
    }
    assert.equal(await page.getByRole('button', { name: 'Continue with Google' }).count(), 0, 'no Google in local mode');
    await shot(page, 'login-1280');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByTestId('operator-reset').waitFor();
    assert.match(await page.getByTestId('operator-reset').innerText(), /layerfix user reset-password/);
    await shot(page, 'reset-1280');
    assert.deepEqual(errors.map(String), []);
    await page.close();
  });

  test('sign up, reload, sign out, wrong password, unknown email, sign in again', async () => {
    const email = 'ada@example.com';
    const { page, errors } = await newPage(env.browser.context);

    // Local mode never downloads the Firebase SDK.
    await page.goto(`${env.server.baseURL}/`);
    await page.getByText('AI-Powered 3D Printing Troubleshooter').first().waitFor();
    const scripts = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => e.name).filter((u) => u.endsWith('.js')),
    );
    assert.ok(scripts.length > 0);
    for (const url of scripts) {
      const body = await (await fetch(url)).text();
      assert.ok(!body.includes('identitytoolkit.googleapis.com'), `${url} holds the Firebase SDK`);
    }

    // One anonymous analysis first: it moves to the account at sign-up.
    const anon = await anonymousAnalysis(page, { width: 1280, height: 800 });
    assert.equal(anon, 200, 'anonymous analysis');

    await page.goto(`${env.server.baseURL}/login?mode=signup`);
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    await page.getByLabel('Display Name').fill(NAME);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByLabel(/^Confirm Password/).fill('something-else');
    await page.getByRole('button', { name: 'Create Account' }).click();
    assert.equal(await page.getByTestId('auth-error').innerText(), "Passwords don't match");
    await page.getByLabel(/^Confirm Password/).fill(PASSWORD);
    await shot(page, 'signup-1280');
    const started = Date.now();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Account Created Successfully!').waitFor();
    await page.waitForURL('**/dashboard');
    assert.ok(Date.now() - started >= 900, 'the redirect waits about a second');

    const session = await page.evaluate(() => JSON.parse(localStorage.getItem('layerfix.session')));
    assert.ok(session?.token && session.expiresAt > Date.now(), 'session kept in localStorage');

    const accountButton = page.getByRole('button', { name: 'Account menu' });
    await accountButton.waitFor();
    assert.equal((await accountButton.innerText()).trim(), 'AL');
    await page.getByTestId('usage-badge').waitFor();
    assert.equal((await page.getByTestId('usage-badge').innerText()).trim(), '1/3 credits used', 'anonymous use transferred');
    await shot(page, 'dashboard-1280');

    await page.reload();
    await accountButton.waitFor();
    assert.equal(pathOf(page), '/dashboard', 'still signed in after a reload');

    await accountButton.click();
    const menu = page.getByRole('menu');
    await menu.getByText(email).waitFor();
    assert.equal((await menu.getByTestId('user-name').innerText()).trim(), NAME);
    await page.getByText('AI Troubleshooting Sessions', { exact: true }).waitFor();
    await page.waitForTimeout(400); // menu grow animation
    await page.screenshot({ path: path.join(resultsDir, 'auth-menu-1280.png') });
    await menu.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('layerfix.session')), null);

    // The old token is revoked on the server.
    const revoked = await fetch(`${env.server.baseURL}/api/user/profile`, { headers: { Authorization: `Bearer ${session.token}` } });
    assert.equal(revoked.status, 401);

    await signIn(page, env.server.baseURL, email, 'not-the-password');
    const wrong = (await page.getByTestId('auth-error').innerText()).trim();
    assert.equal(wrong, 'Incorrect email or password');
    await shot(page, 'wrong-password-1280');
    await signIn(page, env.server.baseURL, 'nobody@example.com', 'not-the-password');
    assert.equal((await page.getByTestId('auth-error').innerText()).trim(), wrong, 'unknown email: the same answer');

    await signIn(page, env.server.baseURL, email, PASSWORD);
    await page.waitForURL('**/dashboard');
    await accountButton.waitFor();

    // A signed-in visitor to /login goes to /dashboard at once.
    await page.goto(`${env.server.baseURL}/login`);
    await page.waitForURL('**/dashboard');
    assert.deepEqual(errors.map(String), []);
    await page.close();
  });

  test('390 px: the drawer shows the user, Subscription and Sign Out', async () => {
    const email = 'grace@example.com';
    await signUpViaApi(env.server.baseURL, { email, password: PASSWORD, displayName: 'Grace Hopper' });

    const { page, errors } = await newPage(env.browser.context, { width: 390, height: 844 });
    // The browser profile is shared: forget the previous test's session.
    await page.goto(`${env.server.baseURL}/features`);
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${env.server.baseURL}/login`);
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await shot(page, 'login-390');
    await signIn(page, env.server.baseURL, email, PASSWORD);
    await page.waitForURL('**/dashboard');
    const open = page.getByRole('button', { name: 'Open menu' });
    await open.waitFor();
    assert.equal(await page.getByRole('button', { name: 'Account menu' }).isVisible(), false, 'no avatar menu on mobile');
    const badge = await page.getByTestId('usage-badge').first().boundingBox();
    assert.ok(badge && badge.x + badge.width <= 390, 'badge inside the viewport');
    await shot(page, 'dashboard-390');

    await open.click();
    const drawer = page.getByTestId('drawer-user');
    await drawer.waitFor();
    assert.equal((await drawer.getByTestId('user-name').innerText()).trim(), 'Grace Hopper');
    assert.equal((await drawer.getByTestId('user-email').innerText()).trim(), email);
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
    for (const label of ['Dashboard', 'Issues', 'Subscription']) await mobileNav.getByRole('link', { name: label }).waitFor();
    await page.waitForTimeout(400); // drawer slide-in
    await page.screenshot({ path: path.join(resultsDir, 'auth-drawer-390.png') });
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await open.waitFor();
    assert.equal(await page.getByRole('button', { name: 'Account menu' }).count(), 0);
    assert.deepEqual(errors.map(String), []);
    await page.close();
  });
  test("the operator's reset link sets a new password", async () => {
    const email = 'linus@example.com';
    await signUpViaApi(env.server.baseURL, { email, password: PASSWORD, displayName: 'Linus' });
    const { stdout } = await run(binaryPath, ['user', 'reset-password', email], {
      env: { ...process.env, LAYERFIX_DATA_DIR: env.server.dataDir },
    });
    const code = new URL(stdout.trim().split(/\s+/).find((w) => w.includes('oobCode='))).searchParams.get('oobCode');
    assert.ok(code, stdout);

    const { page, errors } = await newPage(env.browser.context);
    await page.goto(`${env.server.baseURL}/features`);
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${env.server.baseURL}/login?mode=reset&oobCode=${encodeURIComponent(code)}`);
    await page.getByRole('heading', { name: 'Choose a New Password' }).waitFor();
    await page.getByLabel(/^New Password/).fill('a-brand-new-secret');
    await page.getByLabel(/^Confirm Password/).fill('a-brand-new-secret');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    assert.match(await page.getByTestId('auth-success').innerText(), /Please sign in/);
    assert.equal(new URL(page.url()).search, '', 'the used code leaves the address bar');

    await signIn(page, env.server.baseURL, email, PASSWORD);
    await page.getByTestId('auth-error').waitFor();
    await signIn(page, env.server.baseURL, email, 'a-brand-new-secret');
    await page.waitForURL('**/dashboard');
    assert.deepEqual(errors.map(String), []);
    await page.close();
  });

  for (const [label, viewport] of [['390', { width: 390, height: 844 }], ['1280', { width: 1280, height: 800 }]]) {
    test(`${label} px: an account the operator disables is told so, only with the right password`, async () => {
      const email = `grace-${label}@example.com`;
      const cli = (cmd) => run(binaryPath, ['user', cmd, email], { env: { ...process.env, LAYERFIX_DATA_DIR: env.server.dataDir } });
      const disabledText = 'This account has been disabled. Contact the operator of this site to have it restored.';
      await signUpViaApi(env.server.baseURL, { email, password: PASSWORD, displayName: 'Grace' });
      const { page, errors } = await newPage(env.browser.context, viewport);
      await page.goto(`${env.server.baseURL}/features`);
      await page.evaluate(() => localStorage.clear());
      await signIn(page, env.server.baseURL, email, PASSWORD);
      await page.waitForURL('**/dashboard');

      // Signed in: the next call is refused, the app signs out and the sign-in screen says why.
      await cli('disable');
      await page.reload();
      await page.waitForURL('**/login');
      await page.getByTestId('auth-success').getByText(disabledText).waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem('layerfix.session')), null);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll');
      await shot(page, `disabled-${label}`);

      // The right password says the same; a wrong one answers as for any account.
      await signIn(page, env.server.baseURL, email, 'not-the-password');
      assert.equal(await page.getByTestId('auth-error').innerText(), 'Incorrect email or password');
      await signIn(page, env.server.baseURL, email, PASSWORD);
      assert.equal(await page.getByTestId('auth-error').innerText(), disabledText);

      await cli('enable');
      await signIn(page, env.server.baseURL, email, PASSWORD);
      await page.waitForURL('**/dashboard');
      assert.deepEqual(errors.map(String), []);
      await page.close();
    });
  }
});