import { keepCompiledCode } from './lifecycle/compiledCode.ts';

/**
 * The entry of the bundled server (`dist/main.mjs`, what `npm start`, the package, the image and
 * the systemd unit run): Node's compile cache goes on before any module of the server loads, then
 * the server (`dist/server.mjs`, the bundle of main.ts) is loaded. An ES module's imports load
 * before its first line runs, so main.ts turning the cache on itself came after every dependency
 * it imports had been compiled anew, in every start.
 */
keepCompiledCode();
await import(new URL('./server.mjs', import.meta.url).href);
