// End-to-end check that share ids and one-time codes never reach Google or Meta: the real binary
// with both analytics ids, a visitor who accepted analytics, and every request to the analytics
// hosts intercepted and recorded. gtag.js and fbevents.js are answered with stand-ins that send
// what the real libraries send: a beacon per event with the page's address (the event's
// page_location for gtag, always location.href for the pixel) and its referrer, automatic pixel
// events on clicks unless autoConfig is false, and pixel page views of its own on history changes
// unless fbq.disablePushState.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { launchBrowser, newPage } from './browser.mjs';
import { resultsDir, signIn, signUpViaApi, present } from './helpers.mjs';
import { binaryPath, startServer } from './server.mjs';

const run = promisify(execFile);
const PIXEL_ID = '123456789';
const GA_ID = 'G-E2ETEST';
const PASSWORD = 'first-layer-squish';

// The stand-in of fbevents.js (runs in the page).
function pixelStandIn() {
  const fbq = window.fbq;
  const seen = (window.__standIn ||= { addresses: [], pixel: [] });
  seen.addresses.push(location.href);
  const ids = [];
  const autoConfig = {};
  const send = (id, ev, extra = '') => {
    const q = `id=${encodeURIComponent(id)}&ev=${encodeURIComponent(ev)}&dl=${encodeURIComponent(location.href)}&rl=${encodeURIComponent(document.referrer)}`;
    new Image().src = `https://www.facebook.com/tr/?${q}${extra}`;
  };
  const call = (args) => {
    seen.pixel.push(args);
    const [cmd, a, b, c] = args;
    if (cmd === 'set' && a === 'autoConfig') autoConfig[c] = b;
    else if (cmd === 'init') {
      ids.push(a);
      const s = document.createElement('script');
      s.src = `https://connect.facebook.net/signals/config/${a}?v=2.9&r=stable&domain=${location.hostname}`;
      document.head.appendChild(s);
    } else if (cmd === 'track' || cmd === 'trackCustom') {
      for (const id of ids) send(id, a, b ? `&cd=${encodeURIComponent(JSON.stringify(b))}` : '');
    }
  };
  fbq.callMethod = (...args) => call(args);
  (fbq.queue || []).splice(0).forEach(call);
  document.addEventListener(
    'click',
    (e) => {
      if (!e.target.closest?.('button, a, [role=button], [role=radio]')) return;
      for (const id of ids) if (autoConfig[id] !== false) send(id, 'SubscribedButtonClick');
    },
    true,
  );
  const pageView = () => {
    if (!fbq.disablePushState) for (const id of ids) send(id, 'PageView');
  };
  const push = history.pushState;
  history.pushState = function (...a) {
    const r = push.apply(this, a);
    pageView();
    return r;
  };
  window.addEventListener('popstate', pageView);
}

// The stand-in of gtag.js: an event's own parameters win over its config's,
// which win over 'set'; without page_location it reports location.href.
function gtagStandIn() {
  const seen = (window.__standIn ||= { addresses: [], pixel: [] });
  seen.addresses.push(location.href);
  const configs = {};
  let global = {};
  const pick = (k, ...scopes) => scopes.find((s) => s && s[k] !== undefined)?.[k];
  const send = (id, name, params) => {
    const q = new URLSearchParams({
      v: '2',
      tid: id,
      en: name,
      dl: pick('page_location', params, configs[id], global) ?? location.href,
      dr: pick('page_referrer', params, configs[id], global) ?? document.referrer,
      dt: pick('page_title', params, configs[id], global) ?? document.title,
    });
    for (const [k, v] of Object.entries(params)) if (!k.startsWith('page_')) q.set(`ep.${k}`, String(v));
    fetch(`https://region1.google-analytics.com/g/collect?${q}`, { method: 'POST', mode: 'no-cors', keepalive: true });
  };
  const call = (args) => {
    const [cmd, a, b] = args;
    if (cmd === 'config') {
      configs[a] = b || {};
      if (configs[a].send_page_view !== false) send(a, 'page_view', {});
    } else if (cmd === 'set') global = { ...global, ...(typeof a === 'object' ? a : { [a]: b }) };
    else if (cmd === 'event') for (const id of Object.keys(configs)) send(id, a, b || {});
  };
  const dl = (window.dataLayer ||= []);
  dl.forEach((a) => call(Array.from(a)));
  const push = dl.push.bind(dl);
  dl.push = (...items) => {
    items.forEach((a) => call(Array.from(a)));
    return push(...items);
  };
}

const ANALYTICS_HOSTS = /^https:\/\/([^/]+\.)?(facebook\.(com|net)|google-analytics\.com|analytics\.google\.com|googletagmanager\.com)\//;

describe('analytics never carry a share id or a one-time code', () => {
  let server;
  let browser;
  let shareId;
  let resetCode;
  const email = 'grace@example.com';
  const recorded = [];

  before(async () => {
    server = await startServer({ env: { LAYERFIX_GA_MEASUREMENT_ID: GA_ID, LAYERFIX_META_PIXEL_ID: PIXEL_ID } });
    // A guide shared the way the app shares one: an analysis, then its signed result.
    const analysis = await fetch(`${server.baseURL}/api/troubleshoot`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        category: 'stringing',
        description: 'Thin strings between the towers of my benchy print, new PETG spool.',
        printerBrand: 'Prusa MK4',
        images: [],
      }),
    });
    assert.equal(analysis.status, 200, await analysis.clone().text());
    const result = await analysis.json();
    const shared = await fetch(`${server.baseURL}/api/share-results`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        troubleshootingData: { summary: result.summary, steps: result.steps, additionalTips: result.additionalTips },
        signature: result.signature,
      }),
    });
    assert.equal(shared.status, 201, await shared.clone().text());
    ({ shareId } = await shared.json());

    await signUpViaApi(server.baseURL, { email, password: PASSWORD, displayName: 'Grace' });
    const { stdout } = await run(binaryPath, ['user', 'reset-password', email], {
      env: { ...process.env, LAYERFIX_DATA_DIR: server.dataDir },
    });
    resetCode = new URL(stdout.trim().split(/\s+/).find((w) => w.includes('oobCode='))).searchParams.get('oobCode');
    assert.ok(resetCode && shareId);

    browser = await launchBrowser();
    await browser.context.route(ANALYTICS_HOSTS, (route) => {
      const req = route.request();
      const url = req.url();
      recorded.push(`${url} ${req.postData() ?? ''}`);
      if (url.startsWith('https://www.googletagmanager.com/gtag/js')) {
        return route.fulfill({ contentType: 'text/javascript', body: `(${gtagStandIn})();` });
      }
      if (url === 'https://connect.facebook.net/en_US/fbevents.js') {
        return route.fulfill({ contentType: 'text/javascript', body: `(${pixelStandIn})();` });
      }
      if (url.startsWith('https://connect.facebook.net/')) return route.fulfill({ contentType: 'text/javascript', body: '' });
      return route.fulfill({ status: 204 });
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  // Waits until both stand-ins run and the route's GA page view went out.
  async function settled(page, template) {
    await page.waitForFunction(() => window.__standIn?.addresses.length === 2);
    const dl = encodeURIComponent(`${server.baseURL}${template}`);
    const deadline = Date.now() + 10_000;
    while (!recorded.some((r) => r.includes('en=page_view') && r.includes(`dl=${dl}&`))) {
      assert.ok(Date.now() < deadline, `no GA page view for ${template}:\n${recorded.join('\n')}`);
      await page.waitForTimeout(50);
    }
  }

  test('share pages, reset links and the pixel', async () => {
    const base = server.baseURL;
    const { page, errors } = await newPage(browser.context);
    await page.goto(`${base}/features`);
    await page.evaluate(() => localStorage.setItem('layerfix.analyticsConsent', 'granted'));

    // A reset link: the code is gone before either script runs, and stays out of every request.
    await page.goto(`${base}/login?mode=reset&oobCode=${encodeURIComponent(resetCode)}`);
    await page.getByRole('heading', { name: 'Choose a New Password' }).waitFor();
    await settled(page, '/login');
    const start = await page.evaluate(() => window.__standIn);
    for (const address of start.addresses) assert.ok(!address.includes('oobCode'), `a script started on ${address}`);
    const commands = start.pixel.map((c) => JSON.stringify(c));
    const autoOff = commands.indexOf(JSON.stringify(['set', 'autoConfig', false, PIXEL_ID]));
    assert.ok(autoOff >= 0 && autoOff < commands.indexOf(JSON.stringify(['init', PIXEL_ID])), commands.join('\n'));
    assert.equal(await page.evaluate(() => window.fbq.disablePushState), true);

    // A shared guide by every address that carries its id; clicks and history moves on each.
    await page.goto(`${base}/?share=${shareId}`);
    await present(page);
    await page.getByTestId('credits-badge').waitFor({ timeout: 15_000 });
    await settled(page, '/');
    await page.getByRole('radio', { name: 'Stringing & Oozing' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL(/\/pricing$/);
    await page.getByText('Print Farm').first().waitFor();
    await settled(page, '/pricing');
    await page.goBack();
    await page.waitForURL(/\?share=/);

    await page.goto(`${base}/preview?share=${shareId}`);
    await present(page);
    await page.getByTestId('credits-badge').waitFor({ timeout: 15_000 });
    await settled(page, '/preview');
    await page.getByRole('radio', { name: 'Warping' }).click();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/share/${shareId}`);
    await page.getByText('Get Started for Free').waitFor({ timeout: 15_000 });
    await settled(page, '/share/:shareId');
    await page.screenshot({ path: path.join(resultsDir, 'analytics-share-390.png'), fullPage: true });
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('link', { name: 'Try It Free' }).click();
    await page.waitForURL(/\/preview$/);
    await page.goBack();
    await page.waitForURL(/\/share\//);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Signed in, the home page's share link moves on to the report form with the id.
    await signIn(page, base, email, PASSWORD);
    await page.waitForURL('**/dashboard');
    await page.goto(`${base}/?share=${shareId}`);
    await page.waitForURL(/\/report-issue\?share=/);
    await settled(page, '/report-issue');
    await page.goto(`${base}/report-issue?share=${shareId}`);
    await settled(page, '/report-issue');
    await page.waitForTimeout(300);

    // The recorders saw the traffic: the pixel's page view on a plain route, GA's by template.
    const pricingView = `ev=PageView&dl=${encodeURIComponent(`${base}/pricing`)}&`;
    assert.ok(
      recorded.some((r) => r.startsWith('https://www.facebook.com/tr/') && r.includes(pricingView)),
      `no pixel page view for /pricing:\n${recorded.join('\n')}`,
    );
    for (const secret of [shareId, resetCode, encodeURIComponent(resetCode), 'oobCode']) {
      const leaks = recorded.filter((r) => r.includes(secret));
      assert.deepEqual(leaks, [], `${secret} reached an analytics host`);
    }
    assert.deepEqual(errors.map(String), []);
    await page.close();
  });
});
