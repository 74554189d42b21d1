// Preloaded into `wharf` by a test (NODE_OPTIONS=--require): tells on exit whether the schema
// library was loaded, by the registry zod keeps on the global object from the moment it loads.
process.on('exit', () => {
  process.stderr.write(`schema library loaded: ${'__zod_globalRegistry' in globalThis ? 'yes' : 'no'}\n`);
});
