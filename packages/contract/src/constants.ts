/** Business constants of spec.md §9, shared by the console, the server and the CLI. */
export const UI_VERSION = '1.0.0-beta.13';
export const MAX_TEXT_LENGTH = 1000;
export const NAME_CHECK_DEBOUNCE_MS = 300;
export const SEARCH_DEBOUNCE_MS = 200;
export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_PAGE_SIZE = 10;
export const COPY_CONFIRMATION_MS = 2000;
export const HOOK_SECRET_LENGTH = 32;
export const PASSWORD_SUGGESTION_LENGTH = 16;
export const DEFAULT_COLOR = '#000000';
export const BASIC_AUTH_USER = 'user';
export const HOTKEY_SITE_SEARCH = 'mod+K';
export const HOTKEY_ADD_TEAM = 'mod+P';
export const FORM_TYPES = ['db', 'email'] as const;
/**
 * How a custom domain's TLS is handled: `acme` and `manual` are spec.md's; `external` is for TLS
 * terminated by a proxy in front of Wharf (or no TLS at all), so that no certificate is needed.
 */
export const SSL_TYPES = ['acme', 'manual', 'external'] as const;
export const REDIRECT_TYPES = ['file', 'reverse_proxy'] as const;
export const HOOK_TYPES = ['email', 'mattermost', 'slack', 'web'] as const;
export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Badge color of each HTTP method on the API token form. */
export const METHOD_COLORS = {
  get: 'green',
  post: 'blue',
  put: 'info',
  patch: 'warning',
  delete: 'red',
} as const;
export const INVITE_TTL_DAYS = 7;
/** How long a sign-in started by `wharf login` waits for its approval in the console. */
export const CLI_LOGIN_TTL_MINUTES = 10;
/** How long the token a `wharf login` obtains lasts. */
export const CLI_TOKEN_DAYS = 90;
export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * The shape of a console page, its ids replaced by `:id` (`/sites/:id/branches`): what anonymous
 * usage analytics count. Plain values, so that the console checks a shape without loading zod.
 */
export const CONSOLE_PAGE_PATH = /^\/[a-z0-9/:_-]*$/;
export const CONSOLE_PAGE_PATH_MAX_LENGTH = 200;
