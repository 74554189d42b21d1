// Preloaded into `wharf` by a test (NODE_OPTIONS=--require): tells on exit whether the schema
// library was loaded, by the registry zod keeps on the global object from the moment it loads,
// and whether Node's fetch was, by undici's module among those Node loaded for the process.
process.on('exit', () => {
  const fetchLoaded = process.moduleLoadList.includes('NativeModule internal/deps/undici/undici');
  process.stderr.write(`schema library loaded: ${'__zod_globalRegistry' in globalThis ? 'yes' : 'no'}\n`);
  process.stderr.write(`fetch loaded: ${fetchLoaded ? 'yes' : 'no'}\n`);
});
