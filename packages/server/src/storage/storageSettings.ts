import type { StorageSettings } from '../config/types.ts';

/**
 * `WHARF_STORAGE` (unset or `fs`: the data directory; `s3://bucket/prefix`: a bucket),
 * `WHARF_S3_ENDPOINT` (a store other than AWS) and `WHARF_S3_TIMEOUT_SECONDS`. Answers the
 * settings, or the problems, each naming its variable.
 */
export function storageSettings(env: {
  WHARF_STORAGE?: string;
  WHARF_S3_ENDPOINT?: string;
  WHARF_S3_TIMEOUT_SECONDS: number;
}): {
  settings: StorageSettings;
  problems: string[];
} {
  const folder = { settings: { kind: 'folder' } as StorageSettings, problems: [] };
  const value = env.WHARF_STORAGE;
  if (value === undefined || value === 'fs') {
    if (env.WHARF_S3_ENDPOINT)
      return { ...folder, problems: ['WHARF_S3_ENDPOINT is set but WHARF_STORAGE is not s3://…'] };
    return folder;
  }
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(value);
  if (!match) {
    return {
      ...folder,
      problems: [
        'WHARF_STORAGE must be fs or s3://bucket/prefix (a bucket name of 3 to 63 lowercase letters, digits, dots and dashes)',
      ],
    };
  }
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  let endpoint: URL | null = null;
  if (env.WHARF_S3_ENDPOINT) {
    try {
      endpoint = new URL(env.WHARF_S3_ENDPOINT);
      if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') throw new Error('not http');
    } catch {
      return { ...folder, problems: ['WHARF_S3_ENDPOINT must be an http:// or https:// URL'] };
    }
  }
  const timeoutMs = env.WHARF_S3_TIMEOUT_SECONDS * 1000;
  return { settings: { kind: 's3', bucket: match[1]!, prefix, endpoint, timeoutMs }, problems: [] };
}
