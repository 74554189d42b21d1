import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { precompress } from './build/precompress.ts';
import { routeTableWithoutSchemas } from './build/routeTable.ts';

/** Where `npm run dev` sends API calls: a Wharf server started separately. */
const apiTarget = process.env.WHARF_API_URL ?? 'http://localhost:8080';

const toServer: ProxyOptions = {
  target: apiTarget,
  // The server refuses mutations from another origin: present the dev console as its own.
  configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', new URL(apiTarget).origin)),
};

export default defineConfig({
  plugins: [react(), routeTableWithoutSchemas(), precompress()],
  // The server puts a fresh nonce here in each page and in its Content-Security-Policy.
  html: { cspNonce: 'WHARF_CSP_NONCE' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  server: {
    proxy: { '/api': toServer, '/auth': toServer, '/socket.io': { ...toServer, ws: true } },
  },
});
