// End-to-end check of the printer link against the real binary: a printer linked to a loopback
// Moonraker fake (the shapes of Moonraker v0.9.3 in front of Klipper v0.12.0, as the Go fakes in
// printerlink/printerlinktest), "Diagnose the last print" fills the issue form, and the
// analysis of that form names the log's fact. At 390 px.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launchBrowser, newPage } from './browser.mjs';
import { resultsDir, signIn, signUpViaApi } from './helpers.mjs';
import { startServer } from './server.mjs';

const MOBILE = { width: 390, height: 844 };
const KEY = 'moonraker-e2e-key-7f3a9c1d5e';

// The Go fakes' files: a klippy.log whose extruder read beyond max_temp, and its printer.cfg. The
// log gets 4000 more status lines before its shutdown, so only its end fits the attachments.
const testdata = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'printerlink', 'printerlinktest', 'testdata');
const PRINTER_CFG = readFileSync(path.join(testdata, 'printer.cfg'), 'utf8');
const KLIPPY_LOG = (() => {
  const log = readFileSync(path.join(testdata, 'klippy.log'), 'utf8');
  const at = log.indexOf('Stats ');
  const status = 'Stats 1100.1: gcodein=0 mcu: mcu_awake=0.003 mcu_task_avg=0.000010 extruder: target=215 temp=214.9 pwm=0.412\n';
  return log.slice(0, at) + status.repeat(4000) + log.slice(at);
})();

// startMoonraker answers like Moonraker: JSON wrapped in {"result": ...}, 401 without the key,
// files with byte ranges ("Range: bytes=-N" gives the last N bytes).
function startMoonraker() {
  const seen = [];
  const json = (res, result) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ result }));
  };
  const file = (req, res, text) => {
    const body = Buffer.from(text);
    const m = /^bytes=-(\d+)$/.exec(req.headers.range || '');
    if (m && Number(m[1]) < body.length) {
      const start = body.length - Number(m[1]);
      res.writeHead(206, { 'Content-Type': 'text/plain', 'Content-Range': `bytes ${start}-${body.length - 1}/${body.length}` });
      res.end(body.subarray(start));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(body);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://moonraker');
    seen.push(url.pathname);
    if (req.headers['x-api-key'] !== KEY) {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end('{"error": {"code": 401, "message": "Unauthorized"}}');
      return;
    }
    switch (url.pathname) {
      case '/printer/info':
        return json(res, {
          state: 'shutdown',
          state_message: "MCU 'mcu' shutdown: ADC out of range\nThis generally occurs when a heater temperature exceeds\nits configured min_temp or max_temp.",
          hostname: 'voron',
          software_version: 'v0.12.0-85-gd785b396',
          cpu_info: '4 core ARMv7 Processor rev 4 (v7l)',
        });
      case '/server/history/list':
        return json(res, {
          count: 1,
          jobs: [{ job_id: '0000BF', exists: true, filename: 'benchy_0.2mm_PLA.gcode', status: 'klippy_shutdown', print_duration: 2731.4, metadata: {}, auxiliary_data: [] }],
        });
      case '/server/files/metadata':
        return json(res, {
          slicer: 'PrusaSlicer',
          slicer_version: '2.7.1',
          layer_height: 0.2,
          first_layer_height: 0.2,
          nozzle_diameter: 0.4,
          first_layer_extr_temp: 215,
          first_layer_bed_temp: 60,
          filament_type: 'PLA',
          filename: url.searchParams.get('filename'),
        });
      case '/server/temperature_store':
        return json(res, { extruder: { temperatures: [214.8, 323], targets: [215, 0], powers: [0.4, 0] } });
      case '/server/files/config/printer.cfg':
        return file(req, res, PRINTER_CFG);
      case '/server/files/logs/klippy.log':
        return file(req, res, KLIPPY_LOG);
    }
    res.writeHead(404);
    res.end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, seen, close: () => server.close() })));
}

describe('printer link', () => {
  let moon, server, browser;
  before(async () => {
    moon = await startMoonraker();
    server = await startServer({ env: { LAYERFIX_PRINTER_LINK: 'on', LAYERFIX_PRINTER_LINK_NETS: '127.0.0.1/32' } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    moon?.close();
  });

  test('at 390 px: link a printer to Moonraker, diagnose the last print, analyze', { timeout: 180_000 }, async () => {
    const base = server.baseURL;
    const maker = { email: 'klipper@example.com', password: 'corexy-and-canbus', displayName: 'Kay' };
    await signUpViaApi(base, maker);
    const { page, errors } = await newPage(browser.context, MOBILE);
    await signIn(page, base, maker.email, maker.password);
    await page.waitForURL('**/dashboard', { timeout: 15_000 });

    // Link the printer in its settings.
    await page.getByRole('button', { name: 'Add New Printer' }).click();
    const add = page.getByRole('dialog', { name: 'Add Printer' });
    await add.getByLabel('Printer Name').fill('Voron');
    await add.getByLabel('Brand').fill('Voron 2.4');
    await add.getByLabel('Printer Host').click();
    await page.getByRole('option', { name: 'Moonraker (Klipper)' }).click();
    await add.getByLabel('Host Address').fill(moon.url);
    await add.getByLabel('API Key').fill(KEY);
    await page.screenshot({ path: path.join(resultsDir, 'printerlink-settings-390.png') });
    await add.getByRole('button', { name: 'Add Printer' }).click();
    await page.getByText('Printer added successfully').waitFor();

    // The key is saved and never comes back.
    const token = await page.evaluate(() => Object.entries(localStorage).find(([k]) => /token|session/i.test(k))?.[1] ?? '');
    const listed = await page.evaluate(async (t) => (await fetch('/api/printers', { headers: t ? { Authorization: `Bearer ${t}` } : {} })).text(), token);
    assert.ok(!listed.includes(KEY), 'the API key came back');
    const card = page.getByTestId('printer-card').filter({ hasText: 'Voron' });
    await card.getByRole('button', { name: /edit/i }).first().click();
    const edit = page.getByRole('dialog', { name: 'Edit Printer' });
    await edit.getByText('Key saved: leave empty to keep it').waitFor();
    assert.equal(await edit.getByLabel('API Key').inputValue(), '');
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // Diagnose the last print: the form fills from the printer.
    await card.getByRole('link', { name: 'New Issue' }).click();
    await page.waitForURL(/\/report-issue\?printerId=\d+$/);
    await page.getByRole('button', { name: 'Diagnose the last print' }).click();
    const says = page.getByTestId('printer-says');
    await says.waitFor({ timeout: 30_000 });
    const summary = await says.innerText();
    assert.match(summary, /klippy\.log: ADC out of range/);
    assert.match(summary, /benchy_0\.2mm_PLA\.gcode klippy shutdown/);
    assert.match(await page.getByLabel('Detailed Description').inputValue(), /What the printer says: .*ADC out of range/);
    assert.equal(await page.getByLabel('Material').inputValue(), 'PLA');
    assert.equal(await page.getByRole('radio', { name: 'Temperature & Heating' }).isChecked(), true);
    await page.getByText(/^klippy\.log · \d+(\.\d+)? K?B · Klipper log$/).waitFor();
    await page.getByText(/^printer\.cfg · \d+ B · Klipper config$/).waitFor();
    await page.screenshot({ path: path.join(resultsDir, 'printerlink-diagnose-390.png'), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    assert.ok(moon.seen.includes('/server/files/logs/klippy.log'), 'the log was not asked for');

    // Analyze: the analysis names what the log says.
    const answered = page.waitForResponse((r) => /\/api\/issues$/.test(r.url()) && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Analyze Issue' }).click();
    const sent = (await answered).request().postDataJSON();
    assert.deepEqual(sent.attachments.map((a) => a.name).sort(), ['klippy.log', 'printer.cfg']);
    await page.waitForURL('**/troubleshooting-results', { timeout: 30_000 });
    await page.getByRole('heading', { name: 'Issue Analysis' }).waitFor({ timeout: 30_000 });
    const analysis = await page.getByTestId('solution-step').allInnerTexts();
    // A step quotes the attached log itself, not only the summary's words.
    assert.ok(analysis.some((s) => /klippy\.log/.test(s) && /ADC out of range/.test(s)), `the analysis does not name the log's fact:\n${analysis.join('\n')}`);
    await page.screenshot({ path: path.join(resultsDir, 'printerlink-analysis-390.png'), fullPage: true });
    assert.deepEqual(errors, []);
  });
});
