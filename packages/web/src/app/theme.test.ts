import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrast, readableColors } from './readableColors.ts';
import { readableColorTable } from './readableColorTable.ts';
import { cssVariablesResolver, theme } from './theme.ts';

const { light, dark } = cssVariablesResolver({ ...DEFAULT_THEME, ...theme } as never);
const names = Object.keys({ ...DEFAULT_THEME.colors, ...theme.colors });
const AA = 4.5;

describe('the colors the console reads in', () => {
  it('are the shades the search finds (else: npx tsx scripts/writeReadableColors.ts in packages/web)', () => {
    expect(readableColorTable).toEqual({ light: readableColors('light'), dark: readableColors('dark') });
  });

  it.each(names)('%s: white text on a filled control, and colored text, read at AA in both schemes', (name) => {
    for (const scheme of [light, dark]) {
      expect(contrast(scheme[`--mantine-color-${name}-filled`]!, '#ffffff')).toBeGreaterThanOrEqual(AA);
    }
    expect(contrast(light[`--mantine-color-${name}-text`]!, '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(dark[`--mantine-color-${name}-text`]!, '#2e2e2e')).toBeGreaterThanOrEqual(AA);
  });

  it.each(names)("%s: a light variant's text reads at AA on its tint", (name) => {
    const palette = { ...DEFAULT_THEME.colors, ...theme.colors }[name]!;
    expect(contrast(light[`--mantine-color-${name}-light-color`]!, palette[1]!)).toBeGreaterThanOrEqual(AA);
  });

  it('keeps dimmed text and placeholders at AA on white and on dark cards', () => {
    expect(contrast(light['--mantine-color-dimmed']!, '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(light['--mantine-color-placeholder']!, '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(dark['--mantine-color-dimmed']!, '#2e2e2e')).toBeGreaterThanOrEqual(AA);
    expect(contrast(dark['--mantine-color-placeholder']!, '#2e2e2e')).toBeGreaterThanOrEqual(AA);
  });
});
