// End-to-end check of plans and usage against the real binary with billing
// off: a new account's dashboard shows 0 of 3 credits, /subscribe
// shows the four plans and explains that billing is off, and the operator's
// `layerfix user set-tier EMAIL pro` lifts the dashboard to 50.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { newPage } from './browser.mjs';
import { resultsDir, signIn, signUpViaApi, useServerAndBrowser } from './helpers.mjs';
import { binaryPath } from './server.mjs';

const run = promisify(execFile);

const EMAIL = 'maker@example.com';
const PASSWORD = 'benchy-3d-printer';

async function usageCredits(page) {
  return (await page.getByTestId('usage-credits').innerText()).trim();
}

describe('plans and usage with billing off', () => {
  const env = useServerAndBrowser();

  test('usage card, plans, billing-off message and an operator-granted plan', async () => {
    const { baseURL, dataDir } = env.server;
    await signUpViaApi(baseURL, { email: EMAIL, password: PASSWORD, displayName: 'Marta Maker' });
    const { page, errors } = await newPage(env.browser.context);

    // The dashboard usage card of a new account.
    await signIn(page, baseURL, EMAIL, PASSWORD);
    await page.waitForURL('**/dashboard');
    const card = page.getByTestId('usage-card');
    await card.waitFor({ timeout: 15_000 });
    assert.equal(await usageCredits(page), '0 of 3 credits');
    assert.ok(await card.getByText('AI Troubleshooting Sessions').isVisible());
    assert.ok(await card.getByText('Used this month').isVisible());
    assert.equal((await card.getByTestId('usage-remaining').innerText()).trim(), '3 credits remaining');
    assert.equal((await page.getByTestId('usage-badge').first().innerText()).trim(), '0/3 credits used');
    await page.screenshot({ path: path.join(resultsDir, 'billing-dashboard-1280.png'), fullPage: true });

    // 'Manage Subscription' leads to the plans.
    await card.getByRole('link', { name: 'Manage Subscription' }).click();
    await page.waitForURL('**/subscribe');
    for (const tier of ['free', 'hobby', 'pro', 'farm']) {
      await page.getByTestId(`subscribe-${tier}`).waitFor();
    }
    const free = page.getByTestId('subscribe-free');
    assert.equal(await free.getAttribute('data-current'), 'true');
    assert.ok(await free.getByRole('button', { name: 'Current Plan' }).isDisabled());
    assert.ok(await page.getByTestId('subscribe-hobby').getByText('Popular').isVisible());
    assert.equal(await page.getByText('Coming Soon').count(), 0);
    assert.match(await page.getByTestId('subscribe-pro').getByTestId('plan-limit').innerText(), /50 issues per month/);
    await page.screenshot({ path: path.join(resultsDir, 'billing-subscribe-1280.png'), fullPage: true });

    // Subscribing explains that billing is off.
    await page.getByRole('button', { name: 'Choose Pro' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Billing is not enabled on this server').waitFor();
    await page.waitForTimeout(400); // let the dialog finish fading in
    assert.match(await dialog.innerText(), /operator can grant plans/);
    await page.screenshot({ path: path.join(resultsDir, 'billing-off-dialog-1280.png') });
    await dialog.getByRole('button', { name: 'Got It' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The server agrees: the subscription calls answer 503 BILLING_DISABLED.
    const status = await page.evaluate(async () => {
      const session = JSON.parse(localStorage.getItem('layerfix.session') || '{}');
      const res = await fetch('api/create-subscription', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.token}` },
        body: JSON.stringify({ tier: 'pro' }),
      });
      return { status: res.status, body: await res.json() };
    });
    assert.equal(status.status, 503);
    assert.equal(status.body.error.code, 'BILLING_DISABLED');

    // Signed-in /pricing is the same screen.
    await page.goto(`${baseURL}/pricing`);
    await page.getByTestId('subscribe-free').waitFor();
    assert.equal(await page.getByTestId('subscribe-free').getAttribute('data-current'), 'true');

    // The operator grants Pro; the dashboard shows the new allowance.
    const { stdout } = await run(binaryPath, ['user', 'set-tier', EMAIL, 'pro'], {
      env: { ...process.env, LAYERFIX_DATA_DIR: dataDir },
    });
    assert.match(stdout, /pro/);
    await page.goto(`${baseURL}/dashboard`);
    await page.getByTestId('usage-card').waitFor({ timeout: 15_000 });
    assert.equal(await usageCredits(page), '0 of 50 credits');
    assert.equal((await page.getByTestId('usage-badge').first().innerText()).trim(), '0/50 credits used');
    assert.match(await page.getByTestId('usage-plan').innerText(), /Pro plan/);

    await page.goto(`${baseURL}/subscribe`);
    const pro = page.getByTestId('subscribe-pro');
    await pro.waitFor();
    assert.equal(await pro.getAttribute('data-current'), 'true');

    // Phone width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseURL}/dashboard`);
    await page.getByTestId('usage-card').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: path.join(resultsDir, 'billing-dashboard-390.png'), fullPage: true });
    await page.goto(`${baseURL}/subscribe`);
    await page.getByRole('button', { name: 'Choose Print Farm' }).waitFor();
    await page.waitForTimeout(300); // button colour transitions
    await page.screenshot({ path: path.join(resultsDir, 'billing-subscribe-390.png'), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at 390 px`);

    assert.deepEqual(errors.map(String), []);
  });
});
