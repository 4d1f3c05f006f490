import { defineConfig } from 'vite';

// The gateway serves dist/ under / (apps/gateway/src/web). Everything the page loads comes from the same
// origin: no CDN, no web font, no inline script (the CSP allows only 'self').
export default defineConfig({
  base: '/',
  publicDir: 'public',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Vite's modulepreload polyfill is only for browsers older than the target.
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: true,
  },
});
