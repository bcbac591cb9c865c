/// <reference types="vitest/config" />
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { chunkRulesPlugin } from './scripts/chunkRulesPlugin';
import { iconsPlugin } from './scripts/iconsPlugin';

// The Go binary (devhub serve) serves the built dist/ and the API on one origin.
// In development the API is proxied to a running binary (DEVHUB_DEV_API, default :8080).
const apiTarget = process.env.DEVHUB_DEV_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), iconsPlugin(), chunkRulesPlugin(resolve(import.meta.dirname, 'src/app/routes.tsx'))],
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
  },
});
