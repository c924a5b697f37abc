// Maker experience, round 3: links that preview, promises the screens keep and the smaller things,
// at 390 px and on a desktop, against the real binary. Every maker here comes from an address of
// its own (the server believes X-Forwarded-For from loopback), so their free analyses never mix.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launchBrowser, newPage } from './browser.mjs';
import { present, resultsDir, signIn, signUpViaApi } from './helpers.mjs';
import { binaryPath, startServer } from './server.mjs';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const here = path.dirname(fileURLToPath(import.meta.url));
const PRUSA_3MF = path.resolve(here, '..', 'src', 'features', 'slicedfile', 'testdata', 'prusa-ender3v2.3mf');

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const VIEWPORTS = [
  ['390', PHONE],
  ['1280', DESKTOP],
];
const OPERATOR = 'Ada Print Lab';
const CONTACT = 'ops@example.com';
const PASSWORD = 'layers and gears 9';

// The first day of next month (UTC), as the app writes it: "December 1".
const next = new Date();
const RESET = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1)).toLocaleDateString('en-US', {
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

let ipSeq = 10;
const newIP = () => `203.0.113.${ipSeq++}`;

async function noOverflow(page, where) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${where}: the page scrolls sideways by ${overflow} px`);
}

async function axeViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const shot = (page, name) => page.screenshot({ path: path.join(resultsDir, `promises-${name}.png`), fullPage: true });

describe('promises the screens keep', () => {
  let server;
  let browser;

  // A page as a new visitor from its own address: nothing stored from an earlier maker.
  async function visitor(viewport, ip = newIP()) {
    const { page, errors } = await newPage(browser.context, viewport);
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
    await page.goto(`${server.baseURL}/privacy-policy`);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    return { page, errors, ip };
  }

  // Runs body on a new visitor's page at 390 px and on a desktop, then checks the page fits, saves a
  // screenshot and expects no console errors.
  async function atEachSize(label, body) {
    for (const [name, viewport] of VIEWPORTS) {
      const { page, errors } = await visitor(viewport);
      await body(page, name);
      await noOverflow(page, `${label} at ${name}`);
      await shot(page, `${label.replace(/\W+/g, '-')}-${name}`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  }

  async function anonymousAnalysis(ip, body = {}) {
    const res = await fetch(`${server.baseURL}/api/troubleshoot`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: JSON.stringify({
        category: 'stringing',
        description: 'Long thin strings between the two towers on every print',
        printerBrand: 'Creality Ender 3 V2',
        images: [],
        screenDimensions: { width: 390, height: 844 },
        ...body,
      }),
    });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    return JSON.parse(text);
  }

  async function analyzeInForm(page, { brand = 'Creality Ender 3 V2', description, material, nozzleTemp } = {}) {
    await page.goto(`${server.baseURL}/preview`);
    await present(page);
    await page.getByTestId('credits-badge').waitFor();
    if (brand) await page.getByLabel('Printer Brand/Model').fill(brand);
    await page.getByLabel('Detailed Description').fill(description);
    if (material || nozzleTemp) {
      await page.getByRole('button', { name: 'Additional Details' }).click();
      if (material) await page.getByLabel('Material').fill(material);
      if (nozzleTemp) await page.getByLabel('Nozzle Temperature').fill(String(nozzleTemp));
    }
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    await page.waitForURL('**/troubleshooting-results');
    await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 15_000 });
  }

  async function signUpInForm(page, name, email) {
    await page.locator('input[name="displayName"]').fill(name);
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="confirmPassword"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
  }

  before(async () => {
    server = await startServer({
      env: {
        LAYERFIX_TRUSTED_PROXIES: '127.0.0.1',
        LAYERFIX_OPERATOR_NAME: OPERATOR,
        LAYERFIX_CONTACT_EMAIL: CONTACT,
        LAYERFIX_TIER_LIMITS: 'free=3,hobby=20,pro=50,farm=1',
      },
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('a shared link previews the guide: its title and summary in the HTML, escaped, in words for a stranger', async () => {
    const result = await anonymousAnalysis(newIP(), { description: 'Long "strings" <script>alert(1)</script> between the towers on every print' });
    const share = await fetch(`${server.baseURL}/api/share-results`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': newIP() },
      body: JSON.stringify({ troubleshootingData: result, signature: result.signature }),
    });
    assert.equal(share.status, 201);
    const { shareId } = await share.json();

    // What Discord, a forum or a chat app reads: the raw HTML.
    const res = await fetch(`${server.baseURL}/share/${shareId}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    const head = html.slice(0, html.indexOf('</head>'));
    const meta = (attr, name) => new RegExp(`<meta ${attr}="${name}" content="([^"]*)">`).exec(head)?.[1];
    const title = /<title>([^<]*)<\/title>/.exec(head)?.[1];
    assert.match(title, /^This looks most like stringing.*– Layerfix$/);
    assert.equal(meta('property', 'og:type'), 'article');
    assert.match(meta('property', 'og:title'), /^This looks most like stringing/);
    const desc = meta('property', 'og:description');
    assert.match(desc, /^This looks most like stringing and oozing between parts \(Stringing &amp; Oozing\)\./);
    assert.equal(meta('name', 'description'), desc);
    assert.equal(meta('name', 'robots'), 'noindex');
    assert.doesNotMatch(html, /<script>alert/, 'nothing a maker typed runs on the page');
    assert.doesNotMatch(html, /Layerfix - AI 3D Print Troubleshooting/, 'no generic title');
    // A guide that does not exist is a 404 that says so.
    const missing = await fetch(`${server.baseURL}/share/AAAAAAAAAAAAAAAAAAAAAAAA`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /<title>Guide Not Found – Layerfix<\/title>/);

    // What a stranger reads: the maker's report in the third person.
    await atEachSize('shared guide', async (page) => {
      await page.goto(`${server.baseURL}/share/${shareId}`);
      await page.getByText(/The maker's description mentions "strings/).waitFor({ timeout: 15_000 });
      assert.equal(await page.getByText(/Your description mentions/).count(), 0);
      assert.match(await page.title(), /^This looks most like stringing.*– Layerfix$/);
    });
  });

  test('"Sign Up to Save Results" saves them: the new account\'s first dashboard shows the issue, its printer is preselected', async () => {
    for (const [name, viewport] of VIEWPORTS) {
      const { page, errors } = await visitor(viewport);
      const description = `Thin hairs of plastic between the two towers, saved at ${name} px`;
      await analyzeInForm(page, { description, material: 'PETG', nozzleTemp: 245 });
      // The steps start from the maker's own 245 °C.
      await page.getByText('You print at 245 °C: try 235–240 °C.', { exact: false }).first().waitFor();
      await page.getByRole('link', { name: 'Sign Up to Save Results' }).click();
      await page.waitForURL('**/login?mode=signup');
      await page.getByTestId('save-pending').waitFor();
      await noOverflow(page, `sign-up with a result to save at ${name}`);
      await signUpInForm(page, 'Grace Hopper', `grace-${name}@example.com`);
      await page.getByText('Your troubleshooting results are saved to your issues.', { exact: false }).waitFor({ timeout: 15_000 });
      await page.waitForURL('**/dashboard', { timeout: 15_000 });
      // The first dashboard welcomes; the saved issue is there, not "No issues reported yet".
      await page.getByRole('heading', { name: 'Welcome, Grace!' }).waitFor();
      await page.getByText(description).first().waitFor({ timeout: 15_000 });
      assert.equal(await page.getByText('No issues reported yet').count(), 0);
      await noOverflow(page, `dashboard at ${name}`);
      await shot(page, `saved-dashboard-${name}`);
      // The form's printer became the account's only printer: New Issue has it chosen.
      await page.goto(`${server.baseURL}/report-issue`);
      await page.getByRole('combobox', { name: /Printer/ }).filter({ hasText: 'Ender 3 V2 (Creality)' }).waitFor({ timeout: 15_000 });
      await noOverflow(page, `report issue at ${name}`);
      // The next dashboard is a return.
      await page.goto(`${server.baseURL}/dashboard`);
      await page.getByRole('heading', { name: 'Welcome back, Grace!' }).waitFor({ timeout: 15_000 });
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test('a new account that inherits the month\'s 3/3 is told so, with the reset date, before typing a description', async () => {
    const ip = newIP();
    for (let i = 0; i < 3; i++) await anonymousAnalysis(ip);
    // The anonymous limit screen says the day the credits return.
    for (const [name, viewport] of VIEWPORTS) {
      const { page, errors } = await visitor(viewport, ip);
      await page.goto(`${server.baseURL}/preview`);
      await present(page);
      await page.getByTestId('limit-reset').filter({ hasText: `Your free credits reset on ${RESET}.` }).waitFor({ timeout: 15_000 });
      await noOverflow(page, `limit screen at ${name}`);
      assert.deepEqual(errors, []);
      await page.close();
    }

    const { page, errors } = await visitor(PHONE, ip);
    await page.goto(`${server.baseURL}/login?mode=signup`);
    await signUpInForm(page, 'Linus', 'linus@example.com');
    const toast = page.getByText(/count toward your account/);
    await toast.waitFor({ timeout: 15_000 });
    assert.match(await toast.innerText(), new RegExp(`The 3 free analyses already used from this network this month count toward your account, so this month's 3 free credits are used up\\. New credits arrive on ${RESET}`));
    assert.equal(await page.getByText(/right away/).count(), 0);
    await page.waitForURL('**/dashboard', { timeout: 15_000 });
    await page.getByTestId('limit-reached-alert').filter({ hasText: `Your credits reset on ${RESET}.` }).waitFor({ timeout: 15_000 });
    for (const [name, viewport] of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.baseURL}/report-issue`);
      const alert = page.getByTestId('limit-reached-alert');
      await alert.waitFor({ timeout: 15_000 });
      // Said above the form, before the description.
      const alertBox = await alert.boundingBox();
      const descBox = await page.getByLabel('Detailed Description').boundingBox();
      assert.ok(alertBox.y < descBox.y, `at ${name} the 0-credit notice comes before the description`);
      assert.match(await alert.innerText(), /All 3 credits of your Free plan are used this month/);
      assert.deepEqual(await axeViolations(page), [], `axe on the report form at 0 credits, ${name}`);
      await noOverflow(page, `report form at 0 credits, ${name}`);
      await shot(page, `zero-credits-${name}`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('an account made before this network\'s anonymous analyses is never charged them on sign-in', async () => {
    for (const [name, viewport] of VIEWPORTS) {
      const ip = newIP();
      const email = `early-${name}@example.com`;
      await signUpViaApi(server.baseURL, { email, password: PASSWORD, displayName: 'Early' });
      // Someone else on the same network, after the account existed.
      for (let i = 0; i < 2; i++) await anonymousAnalysis(ip);
      const { page, errors } = await visitor(viewport, ip);
      await signIn(page, server.baseURL, email, PASSWORD);
      await page.waitForURL('**/dashboard', { timeout: 15_000 });
      await page.getByTestId('usage-remaining').filter({ hasText: '3 credits remaining' }).waitFor({ timeout: 15_000 });
      assert.equal(await page.getByText(/count toward your account/).count(), 0);
      await noOverflow(page, `dashboard of an earlier account at ${name}`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test('the Privacy Policy follows the server: with the built-in engine nothing goes to an AI provider', async () => {
    await atEachSize('privacy policy', async (page, name) => {
      await page.goto(`${server.baseURL}/privacy-policy`);
      await page.getByText(/Analyses are made on this server by its built-in engine/).waitFor({ timeout: 15_000 });
      assert.equal(await page.getByText(/sent to (an|our) AI provider|AI analysis\./).count(), 0);
      assert.deepEqual(await axeViolations(page), [], `axe on the privacy policy, ${name}`);
    });
  });

  test('a Print Farm at its limit is told the reset date and whom to ask, never a setting or "Upgrade your plan"', async () => {
    const email = 'farm@example.com';
    await signUpViaApi(server.baseURL, { email, password: PASSWORD, displayName: 'Farm Ops' });
    const { stdout } = await run(binaryPath, ['user', 'set-tier', email, 'farm'], {
      env: { ...process.env, LAYERFIX_DATA_DIR: server.dataDir },
    });
    assert.match(stdout, /farm/);
    const { page, errors } = await visitor(DESKTOP);
    await signIn(page, server.baseURL, email, PASSWORD);
    await page.waitForURL('**/dashboard', { timeout: 15_000 });
    // Its one credit (farm=1 on this server) is spent on a report.
    await page.goto(`${server.baseURL}/report-issue`);
    await page.getByRole('button', { name: 'Add New Printer' }).or(page.getByTestId('inline-add-printer')).first().waitFor();
    const inline = page.getByTestId('inline-add-printer');
    await inline.getByLabel('Printer Name').fill('Bay 1');
    await inline.getByLabel('Brand').fill('Prusa MK4');
    await inline.getByRole('button', { name: 'Add Printer' }).click();
    await page.getByRole('combobox', { name: /Printer/ }).filter({ hasText: 'Bay 1 (Prusa MK4)' }).waitFor();
    const describe = page.getByLabel('Detailed Description');
    await describe.fill('Corners of large ABS parts lift off the bed after an hour');
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 15_000 });

    for (const [name, viewport] of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.baseURL}/dashboard`);
      const card = page.getByTestId('usage-card');
      await card.getByTestId('top-tier-note').waitFor({ timeout: 15_000 });
      const text = await card.innerText();
      assert.match(text, new RegExp(`Your credits reset on ${RESET}\\.`));
      assert.match(text, /Ask Ada Print Lab, who runs this server, to raise the Print Farm allowance/);
      assert.doesNotMatch(text, /LAYERFIX_|TIER_LIMITS|Upgrade Now/);
      assert.equal(await card.getByRole('link', { name: CONTACT }).getAttribute('href'), `mailto:${CONTACT}`);
      await noOverflow(page, `farm dashboard at ${name}`);
      await shot(page, `farm-dashboard-${name}`);
    }
    // Submitting anyway: the server's answer names the operator, not an upgrade.
    await page.goto(`${server.baseURL}/report-issue`);
    await page.getByTestId('limit-reached-alert').waitFor({ timeout: 15_000 });
    await describe.fill('Corners of large ABS parts lift off the bed after an hour, again');
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    // The reason is said twice: in the toast and above the kept form.
    for (const where of ['toast', 'form-failure']) {
      const said = page.getByTestId(where).getByText(/Print Farm is the largest plan/);
      await said.waitFor({ timeout: 15_000 });
      assert.match(await said.innerText(), new RegExp(`ask ${OPERATOR}, who runs this server, at ${CONTACT}\\.`));
    }
    await page.getByTestId('toast').getByText('Monthly Limit Reached').waitFor();
    assert.equal(await page.getByText(/Upgrade your plan/).count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('pricing says billing is off before a click, with the operator contact; no "Coming Soon"', async () => {
    await atEachSize('pricing', async (page) => {
      await page.goto(`${server.baseURL}/pricing`);
      const notice = page.getByTestId('billing-off-notice');
      await notice.waitFor({ timeout: 15_000 });
      assert.match(await notice.innerText(), /Billing is not enabled on this server/);
      assert.equal(await notice.getByRole('link', { name: CONTACT }).getAttribute('href'), `mailto:${CONTACT}`);
      // Seen before the plans, without scrolling past them.
      // (Read in one go: hydration may replace the prerendered cards between two reads.)
      await page.waitForFunction(() => {
        const top = (id) => document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect().top;
        return top('billing-off-notice') < top('plan-free');
      });
      assert.equal(await page.getByText('Coming Soon').count(), 0);
      assert.ok((await page.getByTestId('plan-pro').getByText(/Narrow-it-down questions/).count()) === 1);
    });
  });

  test("a PrusaSlicer 3MF fills in the printer's name; steps never suggest the file's own values; ticked steps stay readable", async () => {
    for (const [name, viewport] of VIEWPORTS) {
      const { page, errors } = await visitor(viewport);
      await page.goto(`${server.baseURL}/preview`);
      await present(page);
      await page.getByTestId('credits-badge').waitFor();
      await page.locator('input[type="file"][accept*=".3mf"]').setInputFiles(PRUSA_3MF);
      const brand = page.getByLabel('Printer Brand/Model');
      await page.waitForFunction(() => document.querySelector('input[name="printerBrand"]')?.value === 'Creality Ender-3 V2', null, {
        timeout: 15_000,
      });
      assert.equal(await brand.inputValue(), 'Creality Ender-3 V2');
      await noOverflow(page, `3MF import at ${name}`);
      await page.getByLabel('Detailed Description').fill('Fine strings and wisps between the two towers on every print');
      await page.getByRole('button', { name: 'Analyze Issue' }).click();
      await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 15_000 });
      const steps = await page.getByTestId('solution-step').allInnerTexts();
      assert.ok(steps.length > 0);
      for (const s of steps) assert.doesNotMatch(s, /travel speed to 150|150–250 mm\/s/, `a step suggests the file's own travel speed: ${s}`);
      // Ticked, a step keeps its text as it was.
      const first = page.getByTestId('solution-step').first();
      await first.getByRole('checkbox').check();
      const decoration = await first.locator('h3').evaluate((el) => getComputedStyle(el).textDecorationLine);
      assert.equal(decoration, 'none');
      await noOverflow(page, `results at ${name}`);
      await shot(page, `3mf-results-${name}`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
});
