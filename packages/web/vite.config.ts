import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { consoleBuildId } from './build/consoleBuild.ts';
import { precompress } from './build/precompress.ts';
import { routeTableWithoutSchemas } from './build/routeTable.ts';

/** Where `npm run dev` sends API calls: a Wharf server started separately. */
const apiTarget = process.env.WHARF_API_URL ?? 'http://localhost:8080';

const toServer: ProxyOptions = {
  target: apiTarget,
  // The server refuses mutations from another origin: present the dev console as its own.
  configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', new URL(apiTarget).origin)),
};

/**
 * What the sign-in page and the signed-in frame share: the footer and header pieces, and Mantine's
 * helpers and text input (the sign-in form's, the home's search). In a chunk of their own,
 * neither page loads the other's code.
 */
const FRAME = [
  /src[\\/](app[\\/]shell[\\/](Footer|ColorSchemeToggle)|components[\\/]Brand)\.tsx$/,
  /@mantine[\\/](core[\\/]esm[\\/](core|utils|components[\\/](Divider|ThemeIcon|Input|InputBase|TextInput))|hooks)[\\/]/,
];

export default defineConfig({
  plugins: [react(), routeTableWithoutSchemas(), consoleBuildId(), precompress()],
  // The server puts a fresh nonce here in each page and in its Content-Security-Policy.
  html: { cspNonce: 'WHARF_CSP_NONCE' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // A first screen loads few files: what the page's script needs in one, then the sign-in or
        // the signed-in frame (with the organization's home), and what those two share. Over
        // HTTP/1.1 each more file is a round trip more; other pages split as Rolldown sees fit.
        codeSplitting: {
          groups: [
            { name: 'startup', tags: ['$initial'], priority: 3 },
            {
              name: 'frame',
              test: (id) => FRAME.some((pattern) => pattern.test(id)),
              priority: 2,
            },
            {
              name: 'signed-out',
              test: /src[\\/](features[\\/]auth[\\/]LoginPage|app[\\/]shell[\\/]PublicLayout)\.tsx$/,
              priority: 1,
            },
            {
              name: 'signed-in',
              test: /src[\\/](app[\\/]shell[\\/]AppLayout|features[\\/]teams[\\/]TeamsPage)\.tsx$/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': toServer, '/auth': toServer, '/socket.io': { ...toServer, ws: true } },
  },
});
