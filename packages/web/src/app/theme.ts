import { type CSSVariablesResolver, createTheme } from '@mantine/core';
import { harbour, info, warning } from './palettes.ts';
import { readableColorTable } from './readableColorTable.ts';

export const theme = createTheme({
  primaryColor: 'harbour',
  // White text on a filled control reads at AA (4.5:1) only from shade 7 on: 5.7:1.
  primaryShade: { light: 7, dark: 7 },
  colors: { harbour, info, warning },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Modals, menus and collapses appear at once for those who ask their system for less motion (WCAG 2.3.3).
  respectReducedMotion: true,
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

/**
 * Mantine's dimmed grays read below WCAG AA (4.5:1) on its own surfaces (3.3:1 on white, 2.9:1 on
 * dark hover rows): these keep at least 4.6:1 on every surface dimmed text shows on, from the body
 * to hovered and selected rows; placeholders a little lighter, at 4.8:1. Links in the dark scheme
 * take a lighter blue (5.4:1 on cards, where shade 4 read 4.0:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { ...readableColorTable.light, '--mantine-color-dimmed': '#636a71', '--mantine-color-placeholder': '#6c737a' },
  dark: {
    ...readableColorTable.dark,
    '--mantine-color-dimmed': '#a6a6a6',
    '--mantine-color-placeholder': '#9a9a9a',
    '--mantine-color-anchor': harbour[3],
  },
});
