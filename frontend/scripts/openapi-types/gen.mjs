// Writes frontend/src/api/schema.gen.ts, the TypeScript types of the API,
// from server/openapi/openapi.json (which the Go server generates).
//   node scripts/openapi-types/gen.mjs          write it
//   node scripts/openapi-types/gen.mjs --check  fail when the committed file is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = new URL('../../../', import.meta.url);
const docURL = new URL('server/openapi/openapi.json', root);
const out = fileURLToPath(new URL('frontend/src/api/schema.gen.ts', root));

const header =
  '/* eslint-disable */\n' +
  '// Generated from server/openapi/openapi.json by frontend/scripts/openapi-types/gen.mjs.\n' +
  '// Do not edit: change the Go types, run `go generate ./server`, then this script.\n\n';
const ast = await openapiTS(JSON.parse(readFileSync(docURL, 'utf8')));
const ts = header + astToString(ast);

if (process.argv.includes('--check')) {
  let have = '';
  try {
    have = readFileSync(out, 'utf8');
  } catch {}
  if (have !== ts) {
    console.error(`${out} is stale: run \`node frontend/scripts/openapi-types/gen.mjs\` and commit it`);
    process.exit(1);
  }
} else {
  writeFileSync(out, ts);
}
