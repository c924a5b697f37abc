// Firebase mode in a real browser against the Firebase Auth emulator (firebase-tools of
// scripts/firebase): sign-up, session, sign-out, the verification and reset mails, the one
// sign-in failure message, a disabled account, the anonymous usage transfer and the account
// screen (rename; deletion removes the Firebase user too), at 390 px and on a desktop.
// One emulator, one server, one browser.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launchBrowser, newPage } from './browser.mjs';
import { anonymousAnalysis, openAccount, resultsDir, signIn } from './helpers.mjs';
import { binaryPath, startServer } from './server.mjs';

const firebaseBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'firebase', 'node_modules', '.bin', 'firebase');
const PROJECT = 'demo-layerfix-e2e';
const PASSWORD = 'battery staple 1';
// Fresh addresses on every run, so a reused emulator works too.
const RUN = Date.now().toString(36);
const ONE_MESSAGE = 'Incorrect email or password';
const DISABLED_MESSAGE = 'This account has been disabled. Contact the operator of this site to have it restored.';
const viewports = [
  ['390', { width: 390, height: 844 }],
  ['1280', { width: 1280, height: 800 }],
];

// A dialog is shot as the screen shows it: a full-page shot moves the fixed backdrop.
const shot = (page, name, fullPage = true) => page.screenshot({ path: path.join(resultsDir, `firebase-${name}.png`), fullPage });
const pathOf = (page) => new URL(page.url()).pathname;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the Auth emulator; it needs about ten CPU-seconds before its port answers. */
async function startEmulator() {
  // FIREBASE_AUTH_EMULATOR_HOST: an emulator already running for project demo-layerfix-e2e.
  if (process.env.FIREBASE_AUTH_EMULATOR_HOST) return emulatorClient(process.env.FIREBASE_AUTH_EMULATOR_HOST, async () => {});
  assert.ok(existsSync(firebaseBin), 'firebase-tools missing: cd scripts/firebase && npm ci');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'layerfix-firebase-'));
  const [auth, hub, logging] = [await freePort(), await freePort(), await freePort()];
  await writeFile(
    path.join(dir, 'firebase.json'),
    JSON.stringify({
      emulators: { auth: { host: '127.0.0.1', port: auth }, hub: { host: '127.0.0.1', port: hub }, logging: { host: '127.0.0.1', port: logging }, ui: { enabled: false } },
    }),
  );
  const output = [];
  const child = spawn(firebaseBin, ['emulators:start', '--only', 'auth', '--project', PROJECT, '--config', path.join(dir, 'firebase.json')], {
    cwd: dir,
    env: { ...process.env, CI: 'true', TMPDIR: dir, NO_UPDATE_NOTIFIER: '1', FIREBASE_AUTH_EMULATOR_HOST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => output.push(String(d)));
  child.stderr.on('data', (d) => output.push(String(d)));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const host = `127.0.0.1:${auth}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the Auth emulator exited:\n${output.join('')}`);
    try {
      const status = await (await fetch(`http://${host}/`)).json();
      if (status.authEmulator?.ready) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 180_000) throw new Error(`the Auth emulator did not start:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return emulatorClient(host, async () => {
    child.kill('SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
}

/** The emulator's REST endpoints the tests use. */
async function emulatorClient(host, stop) {
  const api = `http://${host}/identitytoolkit.googleapis.com`;
  const admin = async (method, url, body) => {
    const res = await fetch(url, { method, headers: { Authorization: 'Bearer owner', 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    return JSON.parse(text);
  };
  // Enumeration protection, on by default for new projects: one answer for a wrong password and
  // an unknown email.
  await admin('PATCH', `http://${host}/emulator/v1/projects/${PROJECT}/config`, { emailPrivacyConfig: { enableImprovedEmailPrivacy: true } });
  return {
    host,
    /** The newest out-of-band code of `type` (VERIFY_EMAIL, PASSWORD_RESET) mailed to `email`. */
    async oobCode(email, type) {
      const { oobCodes } = await (await fetch(`http://${host}/emulator/v1/projects/${PROJECT}/oobCodes`)).json();
      const code = oobCodes.filter((c) => c.email === email && c.requestType === type).at(-1);
      assert.ok(code, `no ${type} mail for ${email}`);
      return code.oobCode;
    },
    async account(email) {
      const { users } = await admin('POST', `${api}/v1/projects/${PROJECT}/accounts:lookup`, { email: [email] });
      return users?.[0] ?? null;
    },
    /** Creates an email/password account as the SDK's sign-up does. */
    async signUp(email, password, displayName) {
      const res = await fetch(`${api}/v1/accounts:signUp?key=demo-api-key`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password, displayName }),
      });
      assert.equal(res.status, 200, await res.text());
    },
    disable: (localId) => admin('POST', `${api}/v1/projects/${PROJECT}/accounts:update`, { localId, disableUser: true }),
    stop,
  };
}

describe('Firebase mode against the Auth emulator', () => {
  let emulator, server, browser;
  before(async () => {
    await mkdir(resultsDir, { recursive: true });
    emulator = await startEmulator();
    server = await startServer({
      env: {
        LAYERFIX_AUTH_MODE: 'firebase',
        LAYERFIX_FIREBASE_PROJECT_ID: PROJECT,
        LAYERFIX_FIREBASE_API_KEY: 'demo-api-key',
        FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      },
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await emulator?.stop();
  });

  /** A page of a fresh visitor: no session, no anonymous usage. */
  async function freshPage(viewport) {
    await browser.context.clearCookies();
    const { page, errors } = await newPage(browser.context, viewport);
    await page.goto(`${server.baseURL}/features`);
    await page.evaluate(async () => {
      localStorage.clear();
      sessionStorage.clear();
      for (const db of await indexedDB.databases()) indexedDB.deleteDatabase(db.name);
    });
    return { page, errors };
  }

  async function signUp(page, name, email) {
    await page.goto(`${server.baseURL}/login?mode=signup`);
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    await page.getByLabel('Display Name').fill(name);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByLabel(/^Confirm Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
  }

  for (const [label, viewport] of viewports) {
    test(`${label} px: sign-up, session, sign-out, verification and reset mails, the usage transfer`, async () => {
      const email = `ada-${label}-${RUN}@example.com`;
      const name = `Ada ${label}`;
      const { page, errors } = await freshPage(viewport);
      // One anonymous analysis moves to the account at sign-up.
      const anon = await anonymousAnalysis(page, { width: 390, height: 844 });
      assert.equal(anon, 200, 'anonymous analysis');

      await signUp(page, name, email);
      const started = Date.now();
      await page.getByText('Account Created Successfully!').waitFor();
      await shot(page, `signup-${label}`);
      await page.waitForURL('**/dashboard');
      assert.ok(Date.now() - started >= 800, 'the redirect waits about a second');
      await page.getByText('Welcome, Ada!').waitFor(); // the first dashboard of a new account
      await page.getByTestId('usage-badge').waitFor();
      // The anonymous allowance is counted per address, so it moves to the first account only.
      const used = label === viewports[0][0] ? '1/3' : '0/3';
      assert.equal((await page.getByTestId('usage-badge').innerText()).trim(), `${used} credits used`, 'anonymous use transferred');
      await shot(page, `dashboard-${label}`);

      await page.reload();
      await page.getByText('Welcome back, Ada!').waitFor();
      assert.equal(pathOf(page), '/dashboard', 'still signed in after a reload');

      // The verification mail's link, followed through the app's own screen.
      const verify = await emulator.oobCode(email, 'VERIFY_EMAIL');
      assert.equal((await emulator.account(email)).emailVerified, false);
      await page.goto(`${server.baseURL}/login?mode=verifyEmail&oobCode=${encodeURIComponent(verify)}&apiKey=demo-api-key`);
      await page.getByTestId('auth-success').getByText('Your email is verified.').waitFor();
      // Signed in, the screen leads on to the dashboard, never to a sign-in form.
      await page.getByRole('button', { name: 'Go to Dashboard' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Sign In', exact: true }).count(), 0);
      assert.equal(new URL(page.url()).search, '', 'the code leaves the address bar');
      await shot(page, `verified-${label}`);
      assert.equal((await emulator.account(email)).emailVerified, true);

      await page.goto(`${server.baseURL}/dashboard`);
      await signOut(page, viewport.width);
      await page.waitForURL((u) => u.pathname === '/');
      await page.waitForFunction(() => localStorage.getItem('layerfix.firebase.signedIn') === null);
      assert.equal(await page.getByRole('button', { name: 'Account menu' }).count(), 0);

      // The reset mail: asked for on the app's screen, its link followed to the app's new-password screen.
      await page.goto(`${server.baseURL}/login?mode=reset`);
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send Reset Email' }).click();
      await page.getByTestId('auth-success').waitFor();
      await shot(page, `reset-sent-${label}`);
      const reset = await emulator.oobCode(email, 'PASSWORD_RESET');
      await page.goto(`${server.baseURL}/login?mode=resetPassword&oobCode=${encodeURIComponent(reset)}&apiKey=demo-api-key`);
      await page.getByRole('heading', { name: 'Choose a New Password' }).waitFor();
      await page.getByLabel(/^New Password/).fill('a-brand-new-secret');
      await page.getByLabel(/^Confirm Password/).fill('a-brand-new-secret');
      await shot(page, `new-password-${label}`);
      await page.getByRole('button', { name: 'Update Password' }).click();
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
      assert.match(await page.getByTestId('auth-success').innerText(), /Please sign in/);

      // The old password and an unknown email get the same one message.
      await signIn(page, server.baseURL, email, PASSWORD);
      assert.equal((await page.getByTestId('auth-error').innerText()).trim(), ONE_MESSAGE);
      await shot(page, `wrong-password-${label}`);
      await signIn(page, server.baseURL, `nobody-${label}@example.com`, PASSWORD);
      assert.equal((await page.getByTestId('auth-error').innerText()).trim(), ONE_MESSAGE);

      await signIn(page, server.baseURL, email, 'a-brand-new-secret');
      await page.waitForURL('**/dashboard');
      await page.getByText('Welcome back, Ada!').waitFor();
      assert.deepEqual(errors.map(String), []);
      await page.close();
    });
  }

  async function signOut(page, width) {
    if (width < 600) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('button', { name: 'Sign Out' }).click();
    } else {
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menu').getByRole('menuitem', { name: 'Sign Out' }).click();
    }
  }

  async function shownName(page, width, name) {
    await page.getByRole('button', { name: width < 600 ? 'Open menu' : 'Account menu' }).click();
    await page.getByTestId('user-name').filter({ hasText: name }).first().waitFor();
    await page.keyboard.press('Escape');
  }

  for (const [label, viewport] of viewports) {
    test(`${label} px: the account screen renames and deletes, the Firebase user too`, async () => {
      const email = `lin-${label}-${RUN}@example.com`;
      await emulator.signUp(email, PASSWORD, 'Lin');
      const { page, errors } = await freshPage(viewport);
      await signIn(page, server.baseURL, email, PASSWORD);
      await page.waitForURL('**/dashboard');
      await openAccount(page, viewport.width < 600);

      // Rename: kept by Firebase and the server, shown in the menu, still there after a reload.
      const profile = page.getByTestId('account-profile');
      await profile.getByLabel('Display Name').fill('Lin Renamed');
      await profile.getByRole('button', { name: 'Save Name' }).click();
      await profile.getByText('Your display name was saved.').waitFor();
      await shot(page, `account-renamed-${label}`);
      await shownName(page, viewport.width, 'Lin Renamed');
      assert.equal((await emulator.account(email)).displayName, 'Lin Renamed');
      await page.reload();
      await page.getByTestId('account-profile').getByLabel('Display Name').waitFor();
      assert.equal(await page.getByTestId('account-profile').getByLabel('Display Name').inputValue(), 'Lin Renamed');
      await shownName(page, viewport.width, 'Lin Renamed');

      // Delete: a wrong password is refused, the right one signs in again and deletes.
      await page.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Password').fill('not-my-password');
      await dialog.getByRole('button', { name: 'Delete Account' }).click();
      await dialog.getByText('Incorrect password').waitFor();
      await shot(page, `account-delete-refused-${label}`, false);
      assert.ok(await emulator.account(email), 'a wrong password deletes nothing');
      await dialog.getByLabel('Password').fill(PASSWORD);
      await shot(page, `account-delete-${label}`, false);
      await dialog.getByRole('button', { name: 'Delete Account' }).click();
      await page.waitForURL((u) => u.pathname === '/');
      await page.getByText('Your account and everything in it were deleted.').waitFor();
      await shot(page, `account-deleted-${label}`);
      assert.equal(await emulator.account(email), null, 'the Firebase user is deleted');

      await signIn(page, server.baseURL, email, PASSWORD);
      assert.equal((await page.getByTestId('auth-error').innerText()).trim(), ONE_MESSAGE);
      assert.deepEqual(errors.map(String), []);
      await page.close();
    });
  }

  // The SDK's popup (and redirect) loads Google's api.js from apis.google.com for its relay frame,
  // against the emulator too, so the popup itself cannot run offline. Blocked here on purpose, the
  // way an offline machine or a script blocker stops it: the maker gets a sentence.
  test("390 px: Continue with Google when Google's script cannot load", async () => {
    const { page, errors } = await freshPage({ width: 390, height: 844 });
    const asked = [];
    await page.route('https://apis.google.com/**', (route) => {
      asked.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    const popups = [];
    browser.context.on('page', (p) => popups.push(p));
    await page.goto(`${server.baseURL}/login`);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    assert.equal(
      (await page.getByTestId('auth-error').innerText()).trim(),
      'Google sign-in could not be reached. Please check your connection and try again.',
    );
    await shot(page, 'google-unreachable-390');
    assert.match(asked[0] ?? '', /^https:\/\/apis\.google\.com\/js\/api\.js/);
    assert.equal(popups.length, 0);
    assert.equal(pathOf(page), '/login');
    assert.deepEqual(errors.map(String), []);
    await page.close();
  });

  test('a user disabled in the emulator gets 403 account-disabled and is told so on /login', async () => {
    const email = `grace-${RUN}@example.com`;
    const { page, errors } = await freshPage({ width: 390, height: 844 });
    await signUp(page, 'Grace', email);
    await page.waitForURL('**/dashboard').catch(async (err) => {
      await shot(page, 'disabled-signup-390');
      throw err;
    });
    await page.getByText('Welcome, Grace!').waitFor();
    const { localId } = await emulator.account(email);
    const token = await page.evaluate(async () => {
      const res = await new Promise((resolve) => {
        const open = indexedDB.open('firebaseLocalStorageDb');
        open.onsuccess = () => {
          const get = open.result.transaction('firebaseLocalStorage').objectStore('firebaseLocalStorage').getAll();
          get.onsuccess = () => resolve(get.result);
        };
      });
      return res.find((r) => r.value?.stsTokenManager)?.value.stsTokenManager.accessToken;
    });
    assert.ok(token, 'the SDK keeps an ID token');
    const profile = () => fetch(`${server.baseURL}/api/user/profile`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);
    assert.equal(await profile(), 200);
    await emulator.disable(localId);
    // The token itself stays valid for an hour. Against the emulator the Admin SDK looks the
    // account up on every token check, so the refusal comes at once; against Firebase the server
    // looks an account up again once its status is a minute old.
    const deadline = Date.now() + 75_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      status = await profile();
    }
    assert.equal(status, 403, 'the disabled account is refused');
    // The open app's next call is refused: it signs out and the sign-in screen says why.
    await page.evaluate(() => {
      history.pushState({}, '', '/issues');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL('**/login');
    await page.getByText(DISABLED_MESSAGE).waitFor();
    await shot(page, 'disabled-390');
    assert.deepEqual(errors.map(String), []);
    await page.close();
  });

  test('1280 px: a user disabled on this server is told so, signed in or signing in (no loop back to sign-in)', async () => {
    const email = `hedy-${RUN}@example.com`;
    const { page, errors } = await freshPage({ width: 1280, height: 800 });
    await signUp(page, 'Hedy', email);
    await page.waitForURL('**/dashboard');
    await page.getByText('Welcome, Hedy!').waitFor();
    await promisify(execFile)(binaryPath, ['user', 'disable', email], { env: { ...process.env, LAYERFIX_DATA_DIR: server.dataDir } });

    // Firebase still signs the maker in; this server refuses every call and the app says why.
    await page.reload();
    await page.waitForURL('**/login');
    await page.getByTestId('auth-success').getByText(DISABLED_MESSAGE).waitFor();
    await signIn(page, server.baseURL, email, PASSWORD);
    await page.waitForURL('**/login');
    await page.getByText(DISABLED_MESSAGE).waitFor();
    assert.equal(pathOf(page), '/login');
    await shot(page, 'server-disabled-1280');
    assert.deepEqual(errors.map(String), []);
    await page.close();
  });
});
