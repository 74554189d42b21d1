import { DEFAULT_THEME, darken, lighten, luminance } from '@mantine/core';
import { harbour, info, warning } from './palettes.ts';

/** WCAG's contrast ratio of two colors. */
export const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** AA for text (4.5:1), with a margin for the rounding of blended backgrounds. */
const AA = 4.6;
const DARK_SURFACE = '#2e2e2e';

/**
 * The first shade of the palette from `from` (towards 9 when darkening, towards 0 when lightening)
 * that reads at AA against `other`; past the palette's end, its last shade made darker or lighter.
 */
function readableShade(palette: readonly string[], other: string, from: number, way: 'darker' | 'lighter') {
  const order = way === 'darker' ? palette.slice(from) : palette.slice(0, from + 1).reverse();
  const found = order.find((shade) => contrast(shade, other) >= AA);
  if (found) return found;
  let color = order[order.length - 1]!;
  for (let step = 0; step < 20 && contrast(color, other) < AA; step++)
    color = way === 'darker' ? darken(color, 0.08) : lighten(color, 0.08);
  return color;
}

/**
 * Every color's shades where Mantine's defaults read below AA: text of the light variant (badges,
 * light buttons) on its tint, filled controls under white text, and colored text (`c="red"`) on
 * the page. Mantine's teal badge reads at 2.8:1, a red button at 3.8:1; each is moved to the
 * nearest shade that reads at 4.6:1. Found once, kept in readableColorTable.ts (a page would spend
 * 25 ms of its first render on it); theme.test.ts checks the table is what this finds.
 */
export function readableColors(scheme: 'light' | 'dark') {
  const palettes = { ...DEFAULT_THEME.colors, harbour, info, warning };
  return Object.fromEntries(
    Object.entries(palettes).flatMap(([name, palette]) => {
      const filled = readableShade(palette, '#ffffff', 7, 'darker');
      const text =
        scheme === 'light'
          ? readableShade(palette, '#ffffff', 6, 'darker')
          : readableShade(palette, DARK_SURFACE, 4, 'lighter');
      return [
        [`--mantine-color-${name}-filled`, filled],
        [`--mantine-color-${name}-filled-hover`, darken(filled, 0.1)],
        [`--mantine-color-${name}-text`, text],
        ...(scheme === 'light'
          ? [[`--mantine-color-${name}-light-color`, readableShade(palette, palette[1]!, 6, 'darker')]]
          : []),
      ];
    }),
  );
}
