import { writeFileSync } from 'node:fs';
import { RELEASE_CONFIG_SCHEMA_FILE, releaseConfigJsonSchema } from '../src/releaseConfigSchema.ts';

// Run after changing the forms' schema: `npm run write-schema -w @wharf/contract`.
writeFileSync(
  new URL(`../${RELEASE_CONFIG_SCHEMA_FILE}`, import.meta.url),
  `${JSON.stringify(releaseConfigJsonSchema(), null, 2)}\n`,
);
