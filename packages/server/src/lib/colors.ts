/**
 * The color of a new organization, team or site whose creator chose none: derived from its name,
 * so that the avatars in a list differ at a glance (the spec's #000000 stays the forms' default),
 * the same name always gets the same color, and its white initial stays legible.
 *
 * Hues are taken in OKLCH, where equal steps look equal: in HSL, a quarter of the wheel is
 * greens and cyans that look alike once darkened enough for white text.
 */
export function colorFromName(name: string): string {
  const hash = mix(fnv1a(name));
  const hue = hash % 360;
  // Three shades per hue, so that names whose hues are close still differ.
  const lightness = [0.46, 0.53, 0.6][(hash >>> 9) % 3]!;
  for (let l = lightness; l > 0; l -= 0.01) {
    const rgb = inGamut(l, hue);
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

/** The most colorful sRGB color of this OKLCH lightness and hue, up to a chroma of 0.16. */
function inGamut(lightness: number, hue: number): Rgb {
  for (let chroma = 0.16; chroma > 0; chroma -= 0.005) {
    const linear = oklchToLinearSrgb(lightness, chroma, hue);
    if (linear.every((channel) => channel >= 0 && channel <= 1)) return linear.map(encode) as Rgb;
  }
  return oklchToLinearSrgb(lightness, 0, hue).map(encode) as Rgb;
}

/** Björn Ottosson's OKLab, from its polar form to linear sRGB. */
function oklchToLinearSrgb(lightness: number, chroma: number, hue: number): Rgb {
  const a = chroma * Math.cos((hue * Math.PI) / 180);
  const b = chroma * Math.sin((hue * Math.PI) / 180);
  const l = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (lightness - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

/** Linear light to an 8-bit sRGB channel. */
function encode(channel: number): number {
  const c = channel <= 0.0031308 ? 12.92 * channel : 1.055 * channel ** (1 / 2.4) - 0.055;
  return Math.round(Math.min(1, Math.max(0, c)) * 255);
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
