// Shared e2e helper: starts the REAL layerfix binary on a free 127.0.0.1 port
// with a fresh data directory, waits for /healthz, and stops it afterwards.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Path of the binary under test: $LAYERFIX_BIN, else ../bin/layerfix from frontend/. */
export const binaryPath = process.env.LAYERFIX_BIN
  ? path.resolve(process.env.LAYERFIX_BIN)
  : path.resolve(here, '..', '..', 'bin', 'layerfix');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the server. `env` adds LAYERFIX_* variables (e.g. LAYERFIX_BASE_PATH).
 * Returns { baseURL, origin, port, dataDir, logs(), stop() }. baseURL includes the base path.
 */
export async function startServer({ env = {}, timeoutMs = 30_000 } = {}) {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'layerfix-e2e-'));
  const output = [];
  const child = spawn(binaryPath, [], {
    env: {
      ...process.env,
      LAYERFIX_ADDR: `127.0.0.1:${port}`,
      LAYERFIX_DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => output.push(d.toString()));
  child.stderr.on('data', (d) => output.push(d.toString()));
  let exited = null;
  const exitPromise = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
    child.on('error', (err) => {
      exited = { code: -1, signal: null, err };
      output.push(String(err));
      resolve(exited);
    });
  });

  const origin = `http://127.0.0.1:${port}`;
  const basePath = (env.LAYERFIX_BASE_PATH || '').replace(/\/+$/, '');
  const started = Date.now();
  for (;;) {
    if (exited) {
      await rm(dataDir, { recursive: true, force: true });
      throw new Error(`layerfix exited early (${JSON.stringify(exited)}):\n${output.join('')}`);
    }
    try {
      const res = await fetch(`${origin}${basePath}/healthz`);
      if (res.status === 200) break;
      // Some setups keep /healthz at the root even under a base path.
      if (basePath && (await fetch(`${origin}/healthz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
      throw new Error(`layerfix not healthy after ${timeoutMs} ms:\n${output.join('')}`);
    }
    await sleep(100);
  }

  return {
    port,
    origin,
    baseURL: `${origin}${basePath}`,
    dataDir,
    startupMs: Date.now() - started,
    pid: child.pid,
    logs: () => output.join(''),
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exitPromise;
        clearTimeout(timer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
