import { patterns } from '@wharf/contract';
import { describe, expect, it } from 'vitest';
import { colorFromName, contrastWithWhite } from './colors.ts';

const rgbOf = (hex: string) =>
  [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)) as [number, number, number];

const names = [
  'Acme',
  'Web',
  'Docs',
  'Marketing',
  'Platform',
  'Design',
  'Mobile',
  'Growth',
  'Data',
  'Security',
  ...Array.from({ length: 90 }, (_, i) => `site-${i}`),
];

describe('colorFromName', () => {
  it('gives a valid color, never the default black', () => {
    for (const name of names) {
      expect(colorFromName(name)).toMatch(patterns.color);
      expect(colorFromName(name)).not.toBe('#000000');
    }
  });

  it('gives the same name the same color every time', () => {
    expect(colorFromName('Marketing')).toBe(colorFromName('Marketing'));
  });

  it('gives different names different colors, even names one letter apart', () => {
    // An organization's teams, say: each its own color.
    expect(new Set(names.slice(0, 10).map(colorFromName)).size).toBe(10);
    // Among many names, a repeat is rare (a hash of the name, not a registry of colors).
    expect(new Set(names.map(colorFromName)).size).toBeGreaterThanOrEqual(names.length - 3);
    expect(colorFromName('site-1')).not.toBe(colorFromName('site-2'));
    expect(colorFromName('docs')).not.toBe(colorFromName('Docs'));
  });

  it('spreads names over the whole wheel rather than one family of hues', () => {
    const hues = new Set(
      names.map((name) => {
        const [r, g, b] = rgbOf(colorFromName(name));
        const max = Math.max(r, g, b);
        // Which of the six sectors of the color wheel the color's strongest channels fall in.
        return `${r === max ? 'r' : g === max ? 'g' : 'b'}${[r, g, b].sort((x, y) => x - y)[1]! > max / 2 ? '+' : ''}`;
      }),
    );
    expect(hues.size).toBeGreaterThanOrEqual(5);
  });

  it('keeps a white initial legible on it (WCAG AA, 4.5:1)', () => {
    for (const name of names) expect(contrastWithWhite(rgbOf(colorFromName(name)))).toBeGreaterThanOrEqual(4.5);
  });
});
