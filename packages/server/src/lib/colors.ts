/**
 * The color of a new organization, team or site whose creator chose none: derived from its name,
 * so that the avatars in a list differ at a glance (the spec's #000000 stays the forms' default),
 * the same name always gets the same color, and its white initial stays legible.
 */
export function colorFromName(name: string): string {
  const hash = mix(fnv1a(name));
  const hue = hash % 360;
  // A little spread in saturation as well, so that names whose hues are close still differ.
  const saturation = 0.55 + ((hash >>> 9) % 25) / 100;
  // The lightest shade of that hue on which white text keeps WCAG AA contrast (4.5:1).
  for (let lightness = 0.5; lightness > 0; lightness -= 0.01) {
    const rgb = hslToRgb(hue, saturation, lightness);
    if (contrastWithWhite(rgb) >= 4.5) return toHex(rgb);
  }
  return '#000000';
}

/** FNV-1a over the name's UTF-16 code units: small, fast, and the same everywhere. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The finaliser of MurmurHash3: spreads short names' differences into every bit. */
function mix(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

type Rgb = [number, number, number];

function hslToRgb(hue: number, saturation: number, lightness: number): Rgb {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const x = chroma * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = lightness - chroma / 2;
  const sector = Math.floor(hue / 60);
  const [r, g, b]: Rgb = (
    [
      [chroma, x, 0],
      [x, chroma, 0],
      [0, chroma, x],
      [0, x, chroma],
      [x, 0, chroma],
      [chroma, 0, x],
    ] as Rgb[]
  )[sector]!;
  return [r + m, g + m, b + m].map((channel) => Math.round(channel * 255)) as Rgb;
}

/** WCAG 2 contrast ratio of this color against white. */
export function contrastWithWhite(rgb: Rgb): number {
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05);
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}
