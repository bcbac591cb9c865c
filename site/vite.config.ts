/// <reference types="vitest/config" />
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import darkThemeClass from 'postcss-dark-theme-class';
import { chunkRulesPlugin } from './scripts/chunkRulesPlugin';
import { iconsPlugin } from './scripts/iconsPlugin';

// The Go binary (devhub serve) serves the built dist/ and the API on one origin.
// In development the API is proxied to a running binary (DEVHUB_DEV_API, default :8080).
const apiTarget = process.env.DEVHUB_DEV_API ?? 'http://127.0.0.1:8080';

/** Modules of the emulator page (emulator.html) only: never part of the site's entry chunk. */
const EMULATOR_ONLY = /emulator\.html|[\\/]features[\\/]games[\\/]emulator[\\/]|[\\/]node_modules[\\/]nostalgist[\\/]/;

const reactRouterProduction = resolve(import.meta.dirname, 'node_modules/react-router/dist/production/index.mjs');

export default defineConfig(({ command }) => ({
  plugins: [react(), iconsPlugin(), chunkRulesPlugin(resolve(import.meta.dirname, 'src/app/routes.tsx'))],
  // react-router's package exports point at its development build for every consumer (its issue
  // #14102: dev warnings and their strings in production bundles); the build takes the production
  // one it ships beside it. Tests and the dev server keep the development build and its warnings.
  resolve: { alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [] },
  // Every `@media (prefers-color-scheme: dark)` rule also applies under html.is-dark and not under
  // html.is-light: the header's theme switch (src/lib/theme.ts) sets those classes.
  css: { postcss: { plugins: [darkThemeClass()] } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    // Every browser the site supports follows <link rel=modulepreload> itself (Chromium 66,
    // Safari 17, Firefox 115); the polyfill was one more request before the first screen.
    modulePreload: { polyfill: false },
    // One Vite entry per HTML page; the emulator page (emulator.html) joins this list.
    rollupOptions: {
      input: {
        index: resolve(import.meta.dirname, 'index.html'),
        emulator: resolve(import.meta.dirname, 'emulator.html'),
      },
      // Everything the site's entry imports statically is loaded by every page at once, so it is
      // one chunk: left to itself Rolldown cut it into ~10 shared pieces (react, i18next, the
      // router, TanStack Query, ...), each gzipped on its own (5.6 KB more on the home page) and
      // each one more request. The emulator page's own modules stay out of it.
      output: {
        codeSplitting: {
          groups: [{ name: 'index', tags: ['$initial'], test: (id: string) => !EMULATOR_ONLY.test(id) }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/romserv': apiTarget,
      '/cores': apiTarget,
      '/healthz': apiTarget,
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // A test waits for what it needs (findBy…, waitFor); the whole-test limit only catches a hang.
    // Vitest's 5 s was hit by tests that take 0.5 s when a loaded two-core machine runs them.
    testTimeout: 30_000,
  },
}));
