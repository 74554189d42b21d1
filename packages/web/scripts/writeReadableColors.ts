// Writes src/app/readableColorTable.ts from the search in src/app/readableColors.ts:
// `npx tsx scripts/writeReadableColors.ts` (theme.test.ts says when the table is out of date).
import { writeFileSync } from 'node:fs';
import { readableColors } from '../src/app/readableColors.ts';

const table = { light: readableColors('light'), dark: readableColors('dark') };
const file = new URL('../src/app/readableColorTable.ts', import.meta.url);
writeFileSync(
  file,
  `// Written by scripts/writeReadableColors.ts from readableColors.ts; theme.test.ts checks it.\n` +
    `export const readableColorTable: { light: Record<string, string>; dark: Record<string, string> } = ${JSON.stringify(table, null, 2)};\n`,
);
