import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  darken,
  lighten,
  luminance,
  type MantineColorsTuple,
} from '@mantine/core';

// The harbour blue of the brand, and the two extra colors the method badges use (spec.md §2).
const harbour: MantineColorsTuple = [
  '#e6f4ff',
  '#cde4fb',
  '#9cc7f3',
  '#67a8ec',
  '#3d8ee6',
  '#237ee3',
  '#1176e2',
  '#0065c9',
  '#0059b5',
  '#004ca1',
];
const info: MantineColorsTuple = [
  '#e2fbff',
  '#d0f1fd',
  '#a4e2f7',
  '#74d1f1',
  '#4fc3ec',
  '#37bbea',
  '#25b6ea',
  '#0c9fd0',
  '#008dba',
  '#007aa5',
];
const warning: MantineColorsTuple = [
  '#fff7e1',
  '#ffedcc',
  '#ffd99b',
  '#ffc464',
  '#ffb237',
  '#ffa71a',
  '#ffa105',
  '#e38c00',
  '#ca7c00',
  '#af6a00',
];

export const theme = createTheme({
  primaryColor: 'harbour',
  // White text on a filled control reads at AA (4.5:1) only from shade 7 on: 5.7:1.
  primaryShade: { light: 7, dark: 7 },
  colors: { harbour, info, warning },
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    Card: { defaultProps: { withBorder: true, radius: 'lg', padding: 'lg' } },
    Paper: { defaultProps: { radius: 'lg' } },
    Modal: { defaultProps: { centered: true, radius: 'lg' } },
    Badge: { defaultProps: { radius: 'sm' } },
    // A link in a sentence must not be told apart by its color alone (WCAG 1.4.1).
    Anchor: { defaultProps: { underline: 'always' } },
  },
});

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
 * nearest shade that reads at 4.6:1.
 */
function readableColors(scheme: 'light' | 'dark') {
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

/**
 * Mantine's dimmed grays read below WCAG AA (4.5:1) on its own surfaces (3.3:1 on white, 2.9:1 on
 * dark hover rows): these keep at least 4.6:1 on every surface dimmed text shows on, from the body
 * to hovered and selected rows; placeholders a little lighter, at 4.8:1. Links in the dark scheme
 * take a lighter blue (5.4:1 on cards, where shade 4 read 4.0:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { ...readableColors('light'), '--mantine-color-dimmed': '#636a71', '--mantine-color-placeholder': '#6c737a' },
  dark: {
    ...readableColors('dark'),
    '--mantine-color-dimmed': '#a6a6a6',
    '--mantine-color-placeholder': '#9a9a9a',
    '--mantine-color-anchor': harbour[3],
  },
});
