const types: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  wasm: 'application/wasm',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  zip: 'application/zip',
};

/** The Content-Type a file name implies; unknown names are plain bytes. */
export function contentTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const extension = dot === -1 ? '' : fileName.slice(dot + 1).toLowerCase();
  return types[extension] ?? 'application/octet-stream';
}

/** Text formats worth storing precompressed (brotli, gzip). */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|javascript|xml|wasm|manifest\+json)|image\/svg\+xml)/.test(contentType);
}

/**
 * Whether a file is worth compressing on its way to the server: everything but formats that are
 * compressed already (images but SVG, audio, video, WOFF fonts, archives), where it costs time and
 * saves nothing. Unknown files are compressed: a build's odd file is most often text.
 */
export function isWorthCompressingToSend(fileName: string): boolean {
  return !/^(image\/(?!svg)|audio\/|video\/|font\/woff|application\/(zip|pdf))/.test(contentTypeOf(fileName));
}
