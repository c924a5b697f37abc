// End-to-end checks of the app shell against the real binary.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { launchBrowser, newPage } from './browser.mjs';
import { present, resultsDir, useServerAndBrowser } from './helpers.mjs';
import { startServer } from './server.mjs';


const TAGLINE = 'AI-powered 3D printer troubleshooting for makers worldwide';
const FOOTER_LINKS = ['/privacy-policy', '/terms-of-service', '/pricing', '/features'];

// Every route of the app with a text that proves the screen rendered.
const ROUTES = [
  ['/', null],
  ['/preview', null],
  ['/features', 'Fix Every Print'],
  ['/pricing', 'Get Started Free'],
  ['/privacy-policy', 'Privacy Policy'],
  ['/terms-of-service', 'Terms of Service'],
  ['/dashboard', null],
  ['/login', null],
  ['/report-issue', null],
  ['/issues', null],
  ['/troubleshooting-results', null],
  ['/subscribe', null],
  ['/share/e2e-missing-share', null],
];

async function expectShell(page, errors, url) {
  const footer = page.locator('footer');
  await footer.getByText(TAGLINE, { exact: true }).waitFor({ timeout: 15_000 });
  for (const href of FOOTER_LINKS) {
    const n = await footer.locator(`a[href$="${href}"]`).count();
    assert.equal(n, 1, `${url}: footer link ${href}`);
  }
  assert.match(await footer.innerText(), new RegExp(`© ${new Date().getFullYear()} Layerfix`), `${url}: copyright`);
  assert.equal(await page.getByText('404 Page Not Found').count(), 0, `${url}: unexpected 404 screen`);
  assert.equal(await page.getByText('Something went wrong').count(), 0, `${url}: error screen`);
  assert.deepEqual(errors.map(String), [], `${url}: uncaught page errors`);
}

describe('app shell', () => {
  const env = useServerAndBrowser();

  test('every spec route answers 200 with the app', async () => {
    for (const [route] of ROUTES) {
      const res = await fetch(env.server.baseURL + route);
      // A guide that does not exist is a 404 (link previews and crawlers see it), still with the app.
      assert.equal(res.status, route.startsWith('/share/') ? 404 : 200, route);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/, route);
      const html = await res.text();
      // The app's root, empty or holding a prerendered screen, and the app's entry.
      assert.match(html, /<div id="root">/, route);
      assert.match(html, /src="\.\/assets\/index-[\w-]+\.js"|data-entry="\.\/assets\/index-[\w-]+\.js"/, `${route}: app entry`);
      assert.doesNotMatch(html, /<!--layerfix:head-->/, `${route}: runtime config not injected`);
      assert.match(html, /id="layerfix-config"/, `${route}: runtime config`);
    }
  });

  test('every spec route renders with the footer and no page errors', async () => {
    const { page, errors } = await newPage(env.browser.context);
    try {
      for (const [route, text] of ROUTES) {
        errors.length = 0;
        await page.goto(env.server.baseURL + route, { waitUntil: 'load' });
        if (text) await page.getByText(text).first().waitFor({ timeout: 15_000 });
        await expectShell(page, errors, route);
      }
    } finally {
      await page.close();
    }
  });

  test('an unknown route shows the not-found screen', async () => {
    const { page, errors } = await newPage(env.browser.context);
    try {
      await page.goto(`${env.server.baseURL}/no-such-page`);
      await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor({ timeout: 15_000 });
      assert.equal(await page.getByText(/forget to add the page to the router/).count(), 1);
      await page.locator('footer').getByText(TAGLINE).waitFor();
      assert.deepEqual(errors.map(String), []);
    } finally {
      await page.close();
    }
  });

  test('navigation links move between screens and highlight the current one', async () => {
    const { page, errors } = await newPage(env.browser.context);
    try {
      await page.goto(`${env.server.baseURL}/features`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Pricing' }).click();
      await page.waitForURL(/\/pricing$/);
      await page.getByText('Get Started Free').first().waitFor();
      // The link's state follows the route: wait for it rather than race a busy machine.
      await nav.locator('a[aria-current="page"]', { hasText: 'Pricing' }).waitFor();
      assert.equal(await nav.getByRole('link', { name: 'Pricing' }).getAttribute('aria-current'), 'page');
      assert.equal(await nav.getByRole('link', { name: 'Features' }).getAttribute('aria-current'), null);
      await page.locator('footer').getByRole('link', { name: 'Privacy Policy' }).click();
      await page.getByText('Last updated June 7, 2025').waitFor();
      assert.deepEqual(errors.map(String), []);
    } finally {
      await page.close();
    }
  });

  test('the pricing page shows the server prices and limits', async () => {
    const pricing = await (await fetch(`${env.server.baseURL}/api/pricing`)).json();
    const limits = await (await fetch(`${env.server.baseURL}/api/usage-limits`)).json();
    const { page } = await newPage(env.browser.context);
    try {
      await page.goto(`${env.server.baseURL}/pricing`);
      await present(page);
      for (const { tier, amount } of pricing) {
        const card = page.getByTestId(`plan-${tier}`);
        const price = Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`;
        await card.getByTestId('plan-price').filter({ hasText: price }).waitFor({ timeout: 15_000 });
        assert.match(await card.getByTestId('plan-limit').innerText(), new RegExp(`^${limits[tier].limit} issues`));
      }
    } finally {
      await page.close();
    }
  });

  test('the mobile menu opens at 390 px', async () => {
    const { page, errors } = await newPage(env.browser.context, { width: 390, height: 844 });
    try {
      await page.goto(`${env.server.baseURL}/features`);
      await page.getByRole('button', { name: 'Open menu' }).click();
      const drawer = page.getByRole('navigation', { name: 'Mobile' });
      await drawer.getByRole('link', { name: 'Pricing' }).click();
      await page.waitForURL(/\/pricing$/);
      assert.deepEqual(errors.map(String), []);
    } finally {
      await page.close();
    }
  });

  test('screenshots and landing JS size', async () => {
    const widths = [390, 1280];
    for (const width of widths) {
      for (const [route, name] of [
        ['/', 'home'],
        ['/features', 'features'],
        ['/pricing', 'pricing'],
      ]) {
        const { page, errors } = await newPage(env.browser.context, { width, height: width < 600 ? 844 : 800 });
        const scripts = [];
        page.on('response', async (res) => {
          if (res.request().resourceType() === 'script' && res.url().startsWith(env.server.origin)) {
            scripts.push(res.body().then((b) => ({ url: res.url(), raw: b.length, gzip: gzipSync(b, { level: 9 }).length })));
          }
        });
        try {
          await page.goto(env.server.baseURL + route, { waitUntil: 'networkidle' });
          await page.locator('footer').getByText(TAGLINE).waitFor();
          await page.screenshot({ path: path.join(resultsDir, `${name}-${width}.png`), fullPage: true });
          assert.deepEqual(errors.map(String), []);
          if (route === '/' && width === 1280) {
            const files = await Promise.all(scripts);
            const gzip = files.reduce((n, f) => n + f.gzip, 0);
            const raw = files.reduce((n, f) => n + f.raw, 0);
            await writeFile(path.join(resultsDir, 'landing-js.json'), JSON.stringify({ raw, gzip, files }, null, 2));
            console.log(`landing route JS: ${files.length} files, ${raw} bytes raw, ${gzip} bytes gzipped`);
            assert.ok(files.length > 0);
          }
        } finally {
          await page.close();
        }
      }
    }
  });
});

describe('app shell under LAYERFIX_BASE_PATH', () => {
  let server;
  let browser;

  before(async () => {
    server = await startServer({ env: { LAYERFIX_BASE_PATH: '/layerfix' } });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('deep routes load their assets and call the API under the base path', async () => {
    assert.match(server.baseURL, /\/layerfix$/);
    const { page, errors } = await newPage(browser.context);
    const failed = [];
    page.on('response', (res) => {
      // A guide that does not exist is a 404, its page included.
      if (res.status() >= 400 && !res.url().includes('/share/')) failed.push(`${res.status()} ${res.url()}`);
    });
    try {
      await page.goto(`${server.baseURL}/share/e2e-missing-share`);
      await page.locator('footer').getByText(TAGLINE).waitFor({ timeout: 15_000 });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
      await page.waitForURL(`${server.baseURL}/pricing`);
      const pricing = await (await fetch(`${server.baseURL}/api/pricing`)).json();
      const hobby = pricing.find((p) => p.tier === 'hobby');
      await page
        .getByTestId('plan-hobby')
        .getByTestId('plan-price')
        .filter({ hasText: `$${hobby.amount.toFixed(2)}` })
        .waitFor({ timeout: 15_000 });
      assert.equal(await page.locator('footer a[href="/layerfix/terms-of-service"]').count(), 1);
      assert.deepEqual(failed, []);
      assert.deepEqual(errors.map(String), []);
    } finally {
      await page.close();
    }
  });
});

describe('analytics', () => {
  test('sends nothing to third parties without ids', async () => {
    const server = await startServer();
    const browser = await launchBrowser();
    try {
      const { page, errors } = await newPage(browser.context);
      const external = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(server.origin) && !req.url().startsWith('data:')) external.push(req.url());
      });
      await page.goto(`${server.baseURL}/pricing`, { waitUntil: 'networkidle' });
      await page.getByText('Get Started Free').first().waitFor();
      assert.deepEqual(external, []);
      assert.equal(await page.evaluate(() => typeof window.gtag + typeof window.fbq), 'undefinedundefined');
      assert.deepEqual(errors.map(String), []);
    } finally {
      await browser.close();
      await server.stop();
    }
  });

  test('with ids it asks first, then loads GA4 and the pixel and sends route templates only', async () => {
    const server = await startServer({
      env: { LAYERFIX_GA_MEASUREMENT_ID: 'G-E2ETEST', LAYERFIX_META_PIXEL_ID: '123456789' },
    });
    const browser = await launchBrowser();
    try {
      const { page, errors } = await newPage(browser.context);
      const requested = [];
      const cspViolations = [];
      page.on('request', (req) => requested.push(req.url()));
      page.on('console', (msg) => {
        if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
      });
      await page.goto(`${server.baseURL}/features`);
      await page.getByText('Fix Every Print').waitFor();
      // No consent yet: nothing of Google's or Meta's is loaded.
      const banner = page.getByRole('region', { name: 'Analytics consent' });
      await banner.waitFor();
      assert.ok(!requested.some((u) => /googletagmanager|facebook/.test(u)), 'a third party was contacted before consent');
      assert.equal(await page.evaluate(() => typeof window.gtag + typeof window.fbq), 'undefinedundefined');
      await banner.getByRole('button', { name: 'Accept' }).click();
      await banner.waitFor({ state: 'detached' });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
      // 'Get Started Free' is on /features too: wait for the pricing page itself.
      await page.waitForURL(/\/pricing$/);
      await page.getByText('Print Farm').first().waitFor();
      await page.waitForFunction(() =>
        (window.dataLayer || []).some((a) => a[0] === 'event' && a[1] === 'page_view' && a[2]?.page_path === '/pricing'),
      );

      assert.ok(requested.some((u) => u.startsWith('https://www.googletagmanager.com/gtag/js?id=G-E2ETEST')), 'gtag.js requested');
      assert.ok(requested.includes('https://connect.facebook.net/en_US/fbevents.js'), 'fbevents.js requested');
      assert.deepEqual(cspViolations, []);

      // A reset code and a share id never reach the analytics queues or a third-party request.
      const code = 'resetCode1234567890abcdefghijklmnopqrstuvwxyz';
      await page.goto(`${server.baseURL}/login?mode=reset&oobCode=${code}`);
      await page.waitForFunction(() => !window.location.search.includes('oobCode'));
      await page.goto(`${server.baseURL}/share/AAAAAAAAAAAAAAAAAAAAAAAA`);
      await page.waitForFunction(() =>
        (window.dataLayer || []).some((a) => a[0] === 'event' && a[1] === 'page_view' && a[2]?.page_path === '/share/:shareId'),
      );
      const sent = await page.evaluate(() => JSON.stringify([window.dataLayer.map((a) => Array.from(a)), window.fbq.queue]));
      for (const secret of [code, 'AAAAAAAAAAAAAAAAAAAAAAAA', 'oobCode']) {
        assert.ok(!sent.includes(secret), `${secret} was queued for analytics`);
        assert.ok(!requested.some((u) => /googletagmanager|facebook/.test(u) && u.includes(secret)), `${secret} was sent to a third party`);
      }
      assert.deepEqual(errors.map(String), []);
    } finally {
      await browser.close();
      await server.stop();
    }
  });

});
