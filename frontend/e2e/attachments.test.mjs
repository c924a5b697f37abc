// End-to-end check of attachments against the real binary, at 390 px: a klippy.log picked as a file
// and an M503 dump pasted, on the home form and on the signed-in form; the analysis gets them, the
// results list them, and a saved issue keeps them for its owner with their secrets removed.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { newPage } from './browser.mjs';
import { resultsDir, signIn, useServerAndBrowser, present } from './helpers.mjs';

const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const TOKEN = 'ab12cd34ef56ab12';
const KLIPPY_LOG = `Starting Klippy...
Args: ['/home/pi/klipper/klippy/klippy.py', '/home/pi/printer_data/config/printer.cfg', '-l', '/home/pi/printer_data/logs/klippy.log']
Git version: 'v0.12.0-85-gd785b396'
===== Config file =====
[extruder]
step_pin = PB3
rotation_distance = 22.6789511
nozzle_diameter = 0.400
sensor_type = EPCOS 100K B57560G104F
min_temp = 0
max_temp = 270
=======================
webhooks client 281473520541488: New connection
Failed to fetch http://192.168.1.20:7125/server/files/gcodes/part.gcode?token=${TOKEN}&path=gcodes
Stats 3456.7: gcodein=0  mcu: mcu_awake=0.004 mcu_task_avg=0.000011 print_time=12.3 extruder: target=240 temp=239.6 pwm=0.412
Stats 3457.7: gcodein=0  mcu: mcu_awake=0.004 mcu_task_avg=0.000011 print_time=13.3 extruder: target=240 temp=-14.2 pwm=1.000
MCU 'mcu' shutdown: ADC out of range
This generally occurs when a heater temperature exceeds
its configured min_temp or max_temp.
Transition to shutdown state: MCU 'mcu' shutdown: ADC out of range
`;
const M503 = `echo:; Steps per unit:
echo:  M92 X80.00 Y80.00 Z400.00 E93.00
echo:; Maximum feedrates (units/s):
echo:  M203 X500.00 Y500.00 Z5.00 E25.00
echo:; PID settings:
echo:  M301 P21.73 I1.54 D76.55
echo:; Z-Probe Offset (mm):
echo:  M851 X-44.00 Y-6.00 Z-1.85
ok
`;
const DESCRIPTION = 'The printer stops in the middle of the print and the screen says the extruder heater is out of range.';

async function shoot(page, name) {
  for (const [label, size] of [['mobile', MOBILE], ['desktop', DESKTOP]]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(resultsDir, `attachments-${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(MOBILE);
}

// shootPart screenshots one part of the page at 390 px, where the details are readable.
async function shootPart(locator, name) {
  // Centred, so the sticky app bar does not cover the part's top.
  await locator.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await locator.screenshot({ path: path.join(resultsDir, `attachments-${name}-part-mobile.png`) });
}

// attachBoth picks the klippy.log as a file and pastes the M503 dump, then checks the chips.
async function attachBoth(page) {
  const section = page.getByRole('region', { name: 'Attach a log or config' });
  await section.scrollIntoViewIfNeeded();
  await page.getByTestId('attach-input').setInputFiles({ name: 'klippy.log', mimeType: 'text/plain', buffer: Buffer.from(KLIPPY_LOG) });
  await section.getByText(/^klippy\.log · \d+ B · Klipper log$/).waitFor();
  await section.getByRole('button', { name: 'Paste Text' }).click();
  const dialog = page.getByRole('dialog', { name: 'Paste a log or settings' });
  await dialog.getByLabel('Text').fill(M503);
  await dialog.getByRole('button', { name: 'M503.txt' }).click();
  await page.screenshot({ path: path.join(resultsDir, 'attachments-paste-dialog-mobile.png') });
  await dialog.getByRole('button', { name: 'Attach' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await section.getByText(/^M503\.txt · \d+ B · Marlin M503 settings$/).waitFor();
  await section.getByText(/^2 of 4 files, \d+ K?B of 256 KB$/).waitFor();
  await shootPart(section, 'control');
  // Nothing of the form is wider than the phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
}

// namesTheFact checks what the maker sees of the klippy.log's line: the analysis names it, and a
// step quotes it and says what it means, then screenshots that step at 390 px.
async function namesTheFact(page, name) {
  const analysis = page.getByRole('region', { name: 'Issue Analysis' });
  await analysis.getByText(/Your klippy\.log shows “[^”]*(ADC out of range|-14\.2)/).waitFor();
  const step = page
    .getByTestId('solution-step')
    .filter({ hasText: /Your klippy\.log shows “[^”]*ADC out of range[^”]*”: the temperature reading left the min_temp\/max_temp range/ });
  await step.waitFor();
  assert.match(await step.locator('h3').innerText(), /thermistor/i);
  const rank = await page.getByTestId('solution-step').evaluateAll((els, want) => els.indexOf(want), await step.elementHandle());
  assert.ok(rank >= 0 && rank < 3, `the thermistor step is step ${rank + 1}`);
  await shootPart(step, name);
}

// attachedFiles opens 'Original Issue Details' and reads the attached files' list.
async function attachedFiles(page) {
  await page.getByRole('button', { name: 'Original Issue Details' }).click();
  const list = page.getByTestId('issue-attachments');
  await list.getByText('klippy.log').waitFor();
  await list.getByText('M503.txt').waitFor();
  await shootPart(page.getByRole('region', { name: 'Original Issue Details' }), 'details');
  return list.innerText();
}

describe('attachments', () => {
  const env = useServerAndBrowser();

  test('home form at 390 px: a klippy.log and a pasted M503 go with the analysis', { timeout: 120_000 }, async () => {
    const base = env.server.baseURL;
    const { page, errors } = await newPage(env.browser.context, MOBILE);
    await page.goto(`${base}/`);
    await present(page);
    await page.getByTestId('credits-badge').waitFor({ timeout: 15_000 });
    await page.getByLabel('Printer Brand/Model').fill('Voron 2.4');
    await page.getByRole('radio', { name: 'Temperature & Heating' }).click();
    await page.getByLabel('Detailed Description').fill(DESCRIPTION);
    await attachBoth(page);
    await shoot(page, 'home-form');

    const sent = page.waitForRequest((r) => r.url().endsWith('/api/troubleshoot') && r.method() === 'POST');
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/troubleshoot') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    const body = (await sent).postDataJSON();
    assert.deepEqual(
      body.attachments.map((a) => a.name),
      ['klippy.log', 'M503.txt'],
    );
    assert.equal(body.attachments[1].text, M503);
    assert.equal((await answered).status(), 200);
    assert.ok(!(await (await answered).text()).includes('M301'), 'the answer does not echo the files');
    await page.waitForURL('**/troubleshooting-results');
    await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 20_000 });
    await namesTheFact(page, 'home-step');
    const listed = await attachedFiles(page);
    assert.match(listed, /Klipper log · \d+ B/);
    assert.match(listed, /Marlin M503 settings · \d+ B/);
    await shoot(page, 'home-results');
    assert.deepEqual(errors, []);
  });

  test('signed in at 390 px: the saved issue keeps the files, without their secrets, for its owner', { timeout: 150_000 }, async () => {
    const base = env.server.baseURL;
    const owner = { email: 'ada.attach@example.com', password: 'filament-42', displayName: 'Ada' };
    const signup = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(owner),
    });
    assert.equal(signup.status, 201);
    const { token } = await signup.json();
    const printer = await fetch(`${base}/api/printers`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Voron', brand: 'Voron 2.4' }),
    });
    assert.equal(printer.status, 201);
    const { id: printerId } = await printer.json();

    const { page, errors } = await newPage(env.browser.context, MOBILE);
    await signIn(page, base, owner.email, owner.password);
    await page.waitForURL('**/dashboard', { timeout: 15_000 });
    await page.goto(`${base}/report-issue?printerId=${printerId}`);
    await page.waitForFunction(() => document.querySelector('[role="combobox"]')?.textContent?.includes('Voron'), null, { timeout: 10_000 });
    await page.getByRole('radio', { name: 'Temperature & Heating' }).click();
    await page.getByLabel('Detailed Description').fill(DESCRIPTION);
    await attachBoth(page);
    await shoot(page, 'report-form');

    const created = page.waitForResponse((r) => r.url().endsWith('/api/issues') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    const res = await created;
    assert.equal(res.status(), 201);
    const saved = await res.json();
    assert.deepEqual(
      saved.attachments.map((a) => [a.name, a.label]),
      [
        ['klippy.log', 'Klipper log'],
        ['M503.txt', 'Marlin M503 settings'],
      ],
    );
    await page.waitForURL(/\/issues\/\d+$/);
    await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 20_000 });
    await namesTheFact(page, 'saved-step');
    await attachedFiles(page);

    // The owner opens the log: the server's copy, with the Moonraker token removed.
    await page.getByRole('button', { name: 'Open klippy.log' }).click();
    const dialog = page.getByRole('dialog', { name: /klippy\.log/ });
    const text = dialog.getByLabel('Text of klippy.log');
    await text.waitFor();
    const shown = await text.innerText();
    assert.ok(shown.includes('ADC out of range') && shown.includes('?token=[removed]&path'), shown);
    assert.ok(!shown.includes(TOKEN), 'the token was removed');
    await page.waitForTimeout(500); // the dialog's fade-in
    await page.screenshot({ path: path.join(resultsDir, 'attachments-file-dialog-mobile.png') });
    await shoot(page, 'saved-file');
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    assert.equal((await download).suggestedFilename(), 'klippy.log');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Opened again from the issue log, the issue names its files.
    await page.goto(`${base}/issues`);
    await page.getByTestId('issue-card').first().click();
    await page.waitForURL(/\/issues\/\d+$/);
    await namesTheFact(page, 'reopened-step');
    const listed = await attachedFiles(page);
    assert.match(listed, /Klipper log/);
    assert.match(listed, /Marlin M503 settings/);
    await shoot(page, 'saved-issue');

    // Another maker gets nothing of them.
    const other = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'bob.attach@example.com', password: 'filament-42', displayName: 'Bob' }),
    });
    const bob = (await other.json()).token;
    const peek = await fetch(`${base}/api/issues/${saved.id}/attachments/0`, { headers: { Authorization: `Bearer ${bob}` } });
    assert.equal(peek.status, 404);
    assert.deepEqual(errors, []);
  });
});
