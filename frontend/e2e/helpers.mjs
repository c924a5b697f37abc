// Shared e2e helpers: one real server and one browser per test file, sign-up and sign-in, and a
// generated PNG, so the test files hold only their flows.
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { launchBrowser } from './browser.mjs';
import { startServer } from './server.mjs';

/** Where screenshots and measurements go: frontend/test-results. */
export const resultsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

/**
 * Call inside describe(): starts the real binary and a browser before the suite and stops both
 * after it. Returns { server, browser }, filled in once the suite starts. `serverOptions` go to
 * startServer (e.g. { env: { LAYERFIX_TIER_LIMITS: 'free=20' } }).
 */
export function useServerAndBrowser(serverOptions) {
  const env = { server: undefined, browser: undefined };
  before(async () => {
    await mkdir(resultsDir, { recursive: true });
    env.server = await startServer(serverOptions);
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/** Creates a local account through the API (201 expected); returns its session ({ token, ... }). */
export async function signUpViaApi(baseURL, { email, password, displayName }) {
  const res = await fetch(`${baseURL}/api/auth/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, displayName }),
  });
  const text = await res.text();
  assert.equal(res.status, 201, text);
  return JSON.parse(text);
}

/** Fills and sends the sign-in form of /login; the caller waits for the outcome. */
export async function signIn(page, baseURL, email, password) {
  await page.goto(`${baseURL}/login`);
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Opens the account screen from the navigation: the drawer on a phone, the avatar menu on a desktop. */
export async function openAccount(page, phone) {
  if (phone) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Account' }).click();
  } else {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Account' }).click();
  }
  await page.waitForURL('**/account');
  await page.getByRole('heading', { name: 'Your Account', level: 1 }).waitFor();
}

/** Encodes a w×h RGB gradient as a PNG, so the tests need no fixture file. */
export function makePng(w, h) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    for (let x = 0; x < w; x++) raw.set([(x * 255) / w, (y * 255) / h, 120], row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Shows the page someone is on it (the pointer moves, near `at`), as a prerendered public page
 * loads the app only then; returns once the app's code is loading (at once on a page that starts
 * it by itself). The pointer moves until then: a prerendered page imports its entry after the
 * first paint, possibly after the load event, and a move before the entry runs goes unseen.
 */
export async function present(page, at = { x: 1, y: 1 }) {
  for (let i = 0; ; i++) {
    const loading = await page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/assets\/app-[^/]+\.js$/.test(e.name)));
    if (loading) return;
    if (i >= 100) throw new Error('the app did not start loading');
    await page.mouse.move(at.x + (i % 2), at.y);
    await page.waitForTimeout(50);
  }
}

/**
 * Counts the page's requests in flight. The returned settled() resolves once none is in flight
 * and none starts over two animation frames (time for a response's render and the fetches its
 * effects start): the page then shows everything it loads, without playwright's networkidle
 * wait of 500 ms of silence.
 */
export function trackRequests(page) {
  const inFlight = new Set();
  page.on('request', (r) => inFlight.add(r));
  page.on('requestfinished', (r) => inFlight.delete(r));
  page.on('requestfailed', (r) => inFlight.delete(r));
  return async function settled({ timeout = 15_000 } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      while (inFlight.size > 0) {
        if (Date.now() > deadline) throw new Error(`requests still in flight: ${[...inFlight].map((r) => r.url()).join(', ')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      if (inFlight.size === 0) return;
    }
  };
}

/**
 * Resolves once the app has taken the prerendered page over (the prerender's inert marks are gone):
 * until then a prerendered form shows its HTML, not the app's state (a restored draft, say).
 */
export const takenOver = (page) => page.waitForFunction(() => !document.querySelector('#root [data-lf-inert]'));

const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations on the page, one line each. */
export async function axeViolations(page) {
  // Evaluated through the DevTools protocol: the page's CSP allows no inline script.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // Contrast is measured on the final colours: a button just enabled by data that arrived is still in
  // its 250 ms colour transition. Finite transitions and animations are waited for (at most 2 s);
  // endless ones (a spinner, a skeleton's pulse) are not.
  await page.evaluate(() => {
    const finite = document
      .getAnimations()
      .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
      .map((a) => a.finished.catch(() => undefined));
    return Promise.race([Promise.all(finite), new Promise((done) => setTimeout(done, 2000))]);
  });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Runs one anonymous analysis (stringing on a Prusa MK4) from the page, as a visitor's form would
 * send it, and returns the HTTP status.
 */
export async function anonymousAnalysis(page, screen) {
  return page.evaluate(async (screenDimensions) => {
    const res = await fetch('api/troubleshoot', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        category: 'stringing',
        description: 'Thin strings between the towers of my benchy print',
        material: null,
        nozzleTemp: null,
        bedTemp: null,
        layerHeight: null,
        printSpeed: null,
        infill: null,
        printerBrand: 'Prusa MK4',
        images: [],
        screenDimensions,
      }),
    });
    return res.status;
  }, screen);
}
