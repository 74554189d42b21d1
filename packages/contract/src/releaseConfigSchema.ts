import { z } from 'zod';
import { releaseConfig } from './entities/form.ts';

/** Where the repository keeps the JSON Schema of `.wharf.yml`, beside this package's package.json. */
export const RELEASE_CONFIG_SCHEMA_FILE = 'wharf.schema.json';

/**
 * The JSON Schema of `.wharf.yml`, made from the zod schema that validates it at upload, so the two
 * never disagree. Editors read it (`# yaml-language-server: $schema=…`); the server answers it at
 * `/api/v1/schemas/wharf.yml.json` and the repository ships it as `packages/contract/wharf.schema.json`.
 */
export function releaseConfigJsonSchema() {
  return { title: '.wharf.yml', ...z.toJSONSchema(releaseConfig, { io: 'input' }) };
}
