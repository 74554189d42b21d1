import { describe, expect, it } from 'vitest';
import { isFingerprinted } from './fingerprint.ts';

describe('fingerprinted file names', () => {
  it.each([
    'assets/app.3f9a1c2e.js',
    'static/js/main.1a2b3c4d.chunk.js',
    'app.5f3c2b1a9d8e7f6a5b4c.js',
    '_next/static/chunks/main-a1b2c3d4e5f6a7b8.js',
    'assets/index-BX3k9aQz.css',
    'assets/index-D-7kTzAq.js',
    'assets/vendor-C_x3Lm9q.js',
    'assets/logo-Xk29ab0QwErT.svg',
    'chunk-5XVXZPYO.js',
  ])('%s carries a content hash', (path) => {
    expect(isFingerprinted(path)).toBe(true);
  });

  it.each([
    'og-image-1200x630.png',
    'sitemap-20240101.xml',
    'report-2024-01-01.pdf',
    'photo-12345678.jpg',
    'build-1700000000.js',
    'wallpaper-1920X1080.jpg',
    'logo-WhiteBackground.svg',
    'screenshot-iPhone-15-Pro.png',
    'fonts/inter-v12-latin.woff2',
    'jquery-3.7.1.min.js',
    'IMG_20240101_123456.jpg',
    'app.js',
    '3f9a1c2e/app.js',
    'app.3f9a1c2e',
    'readme',
  ])('%s does not', (path) => {
    expect(isFingerprinted(path)).toBe(false);
  });
});
