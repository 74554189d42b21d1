/** The file at a release's root that sets its forms and other settings; never served. */
export const RELEASE_CONFIG_FILE = '.wharf.yml';
export const MAX_RELEASE_CONFIG_BYTES = 64 * 1024;
