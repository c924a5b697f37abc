// Prerenders the public screens after `vite build`: every screen in prerenderedPaths, signed out,
// for each value of the runtime settings its markup depends on. The Go server picks the variant
// that matches its configuration, fills in the string settings (operator name, contact email,
// base path, version) where the sentinels stand, and serves the page as HTML, so it paints before
// any JavaScript has run. Writes dist/prerender.json; the server-side bundle is thrown away.
import { build } from 'vite';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(root, 'node_modules', '.prerender');

// Strings a page may show are rendered as sentinels; the server replaces them, HTML-escaped.
const sentinel = (name) => `LFSENTINEL${name}X`;
const BASE = `/${sentinel('basePath')}`;

// The settings a page's markup may depend on, with the values prerendered. A setting whose
// change leaves a page's markup alone is not part of that page's key.
const dims = [
  { name: 'authMode', values: ['local', 'firebase'] },
  { name: 'billingEnabled', values: [false, true] },
  { name: 'emailEnabled', values: [false, true] },
  { name: 'imageAnalysis', values: [false, true] },
  { name: 'operatorName', values: ['', sentinel('operatorName')] },
  { name: 'contactEmail', values: ['', sentinel('contactEmail')] },
  // Only the default is prerendered; another limit is served without a prerendered page.
  { name: 'anonMonthlyLimit', values: [3], probe: 4 },
];

await build({
  root,
  logLevel: 'warn',
  build: {
    ssr: 'src/prerender/render.tsx',
    outDir: out,
    emptyOutDir: true,
    minify: false,
    // One file, so every import below is a fresh instance with its own configuration.
    rolldownOptions: { output: { codeSplitting: false } },
  },
  ssr: { noExternal: true },
});
const bundle = pathToFileURL(join(out, 'render.js')).href;
let instances = 0;

/** Renders `path` in a fresh instance of the app, configured with `cfg` from its first line on. */
async function render(path, cfg) {
  globalThis.__LAYERFIX_PRERENDER_CONFIG__ = cfg;
  const m = await import(`${bundle}?instance=${++instances}`);
  const r = await m.render(path);
  return { ...r, html: inert(r.html) };
}
const mod = await import(bundle);

const base = {
  ...mod.defaultConfig,
  basePath: BASE,
  version: sentinel('version'),
};

// Until the app's entry has run, the page's controls must do nothing: a form submitted natively
// would put what was typed (a password) into the URL, and text typed into a field could not be
// handed to the app. Fields are read-only, buttons disabled and forms inert (method "dialog"
// outside a dialog submits nothing), each marked so the entry can undo exactly this
// (src/boot/takeover.ts); none of it changes how the page looks. A field or button the app itself
// renders read-only or disabled stays so.
function inert(html) {
  const mark = `${mod.INERT_ATTR}=""`;
  return html
    .replace(/<(input|textarea)(?=[\s/>])[^>]*>/g, (tag, name) =>
      /\sreadonly(?=[\s=/>])/.test(tag) ? tag : `<${name} readonly="" ${mark}${tag.slice(name.length + 1)}`,
    )
    .replace(/<button(?=[\s>])[^>]*>/g, (tag) =>
      /\sdisabled(?=[\s=>])/.test(tag) ? tag : `<button disabled="" ${mark}${tag.slice('<button'.length)}`,
    )
    .replace(/<form(?=[\s>])/g, `<form method="dialog" ${mark}`);
}

function keyOf(cfg, names) {
  return names.map((n) => `${n}=${typeof cfg[n] === 'string' && n !== 'authMode' ? (cfg[n] ? 'set' : 'empty') : cfg[n]}`).join('|');
}

function* combos(list) {
  if (list.length === 0) {
    yield {};
    return;
  }
  const [first, ...rest] = list;
  for (const v of first.values) for (const c of combos(rest)) yield { [first.name]: v, ...c };
}

const routes = {};
let count = 0;
for (const path of mod.prerenderedPaths) {
  const baseline = await render(path, base);
  const depends = [];
  for (const d of dims) {
    for (const v of [...d.values, d.probe].filter((x) => x !== undefined && x !== base[d.name])) {
      const r = await render(path, { ...base, [d.name]: v });
      if (r.html !== baseline.html || r.styles !== baseline.styles) {
        depends.push(d);
        break;
      }
    }
  }
  const names = depends.map((d) => d.name);
  const variants = {};
  for (const c of combos(depends)) {
    const cfg = { ...base, ...c };
    variants[keyOf(cfg, names)] = await render(path, cfg);
    count++;
  }
  routes[path] = { dims: names, variants };
}

writeFileSync(
  join(dist, 'prerender.json'),
  JSON.stringify({ version: 1, sentinelBase: BASE, sentinels: ['operatorName', 'contactEmail', 'version'].map((n) => [n, sentinel(n)]), routes }),
);
rmSync(out, { recursive: true, force: true });
console.log(`prerendered ${Object.keys(routes).length} screens, ${count} variants`);
