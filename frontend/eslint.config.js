// ESLint for the app: the React hooks rules (rules-of-hooks, exhaustive-deps)
// and typescript-eslint's recommended rules, without type information so a
// run stays a few seconds. Warnings fail `npm run lint` (--max-warnings 0).
import Module, { createRequire } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

// The app builds with TypeScript 7, which has no JavaScript API; the
// typescript-eslint parser needs one (TypeScript < 6.1), so its packages get
// the typescript-for-eslint copy (6.0.x) while tsc and Vite keep TypeScript 7.
const require = createRequire(import.meta.url);
const typescriptForEslint = require.resolve('typescript-for-eslint');
const lintTools = /[\\/]node_modules[\\/](@typescript-eslint[\\/][^\\/]+|ts-api-utils|typescript-eslint)[\\/]/;
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (request === 'typescript' && parent?.filename && lintTools.test(parent.filename)) {
    return typescriptForEslint;
  }
  return resolveFilename.call(this, request, parent, ...rest);
};
const { default: tseslint } = await import('typescript-eslint');

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    rules: {
      // A leading underscore marks a name left unused on purpose (a field dropped by
      // destructuring, a callback's unused argument), as tsc's noUnusedLocals allows.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Node scripts, and the browser tests, whose page.evaluate callbacks run in the page.
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
