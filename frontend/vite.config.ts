/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// The entry (src/main.tsx) is small and loads the app (src/boot/app.tsx) when it is wanted. On a
// page that is not prerendered the app is wanted at once: index.html preloads it and everything it
// imports beside the entry, rather than after it. The server drops these preloads from the
// prerendered pages, which load the app only when someone is on them.
function preloadApp(): Plugin {
  return {
    name: 'layerfix-preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const app = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/boot/app.tsx'));
        if (!app) throw new Error('layerfix-preload-app: no chunk for src/boot/app.tsx');
        const files = new Set<string>();
        const visit = (name: string) => {
          const c = bundle[name];
          if (files.has(name) || c?.type !== 'chunk') return;
          files.add(name);
          c.imports.forEach(visit);
        };
        visit(app.fileName);
        return {
          html,
          tags: [...files]
            .filter((f) => !html.includes(`"./${f}"`))
            .map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` }, injectTo: 'head' as const })),
        };
      },
    },
  };
}

// The Go binary serves the build under any base path (LAYERFIX_BASE_PATH) and
// injects <base href>, so asset URLs stay relative.
export default defineConfig({
  base: './',
  plugins: [react(), preloadApp()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core CI runner,
    // where the main process mostly waits. Each test file takes about as much CPU either way.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
