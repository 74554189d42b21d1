import { config } from 'zod/v4/core';

// The console's policy refuses eval. Unless told not to, zod tries `new Function` once to see
// whether it may compile faster parsers, and the browser reports that try as a violation.
config({ jitless: true });
