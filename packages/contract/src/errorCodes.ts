// Without a schema library: the CLI's upload path reads error codes and loads none (see upload.ts).

/**
 * Every error the API answers, by stable code, with its HTTP status. Clients (the console, the
 * CLI, scripts) decide by the code; the message is for people and may change.
 */
export const errorCodes = {
  // 400: the request itself is wrong; the message says what to change.
  VALIDATION_FAILED: 400,
  BODY_INVALID: 400,
  /** A webhook call that is no forge's delivery Wharf reads (GitHub, GitLab, Gitea, Forgejo). */
  WEBHOOK_UNKNOWN: 400,
  MULTIPART_INVALID: 400,
  ARCHIVE_INVALID: 400,
  DEPLOY_FILE_UNKNOWN: 400,
  DEPLOY_HASH_MISMATCH: 400,
  CERTIFICATE_INVALID: 400,
  UPSTREAM_NOT_ALLOWED: 400,
  IDEMPOTENCY_KEY_INVALID: 400,
  /** Text holding a NUL character or a lone UTF-16 surrogate, or bytes that are not UTF-8: no field may hold it. */
  TEXT_INVALID: 400,
  /** A URL whose percent-encoding is malformed or does not encode UTF-8. */
  URL_INVALID: 400,
  /** A request HTTP itself cannot read (a control character in a header, a broken request line). */
  REQUEST_MALFORMED: 400,
  /** A Host header that is missing, repeated, or disagrees with the request's own authority. */
  HOST_INVALID: 400,
  /** A request body that ended before the size it announced. */
  UPLOAD_INCOMPLETE: 400,
  // 401: who is calling is unknown or not believed.
  SIGN_IN_REQUIRED: 401,
  CREDENTIALS_WRONG: 401,
  AUTHORIZATION_MALFORMED: 401,
  TOKEN_INVALID: 401,
  TOKEN_NOT_ACTIVE: 401,
  TOKEN_EXPIRED: 401,
  /** A webhook delivery without the forge's signature, or signed with another secret. */
  WEBHOOK_SIGNATURE_INVALID: 401,
  // 403: known, and not allowed.
  ROLE_INSUFFICIENT: 403,
  TOKEN_SCOPE_MISSING: 403,
  TOKEN_KIND_REFUSED: 403,
  TOKEN_OTHER_SITE: 403,
  CROSS_ORIGIN_REFUSED: 403,
  METRICS_TOKEN_REQUIRED: 403,
  /** The poll of a `wharf login` with a secret other than the one it started with. */
  CLI_LOGIN_SECRET_WRONG: 403,
  ORG_CREATION_NOT_ALLOWED: 403,
  SIGN_IN_METHOD_OFF: 403,
  // 404: not there, or not for this caller to know of.
  ROUTE_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  ORG_NOT_FOUND: 404,
  MEMBER_NOT_FOUND: 404,
  INVITE_NOT_FOUND: 404,
  TEAM_NOT_FOUND: 404,
  TEAM_MEMBER_NOT_FOUND: 404,
  SITE_NOT_FOUND: 404,
  SITE_TOKEN_NOT_FOUND: 404,
  REPOSITORY_NOT_CONNECTED: 404,
  BUILD_NOT_FOUND: 404,
  BUILD_HOOK_NOT_FOUND: 404,
  BUILD_VARIABLE_NOT_FOUND: 404,
  BRANCH_NOT_FOUND: 404,
  RELEASE_NOT_FOUND: 404,
  DEPLOY_NOT_FOUND: 404,
  HOOK_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  API_TOKEN_NOT_FOUND: 404,
  IDENTITY_NOT_FOUND: 404,
  LOGO_NOT_FOUND: 404,
  SUBMISSION_NOT_FOUND: 404,
  DOMAIN_NOT_FOUND: 404,
  /** A name that no certificate of the site (obtained over ACME) has. */
  CERTIFICATE_NOT_FOUND: 404,
  CLI_LOGIN_NOT_FOUND: 404,
  /** No repository by that name among those the account at the code host may read. */
  CODE_HOST_REPOSITORY_NOT_FOUND: 404,
  // 408: the request's body did not arrive in time.
  UPLOAD_TIMEOUT: 408,
  // 409: the request conflicts with the current state.
  SITE_NAME_TAKEN: 409,
  BRANCH_NAME_TAKEN: 409,
  /** A build variable of this name and context exists already: change it instead. */
  BUILD_VARIABLE_TAKEN: 409,
  DOMAIN_TAKEN: 409,
  // A name at or under a custom domain that another organization verified: only that one may claim it.
  DOMAIN_OF_ANOTHER_ORG: 409,
  DOMAIN_RESERVED: 400,
  MAIN_BRANCH_UNDELETABLE: 409,
  MAIN_BRANCH_CANNOT_EXPIRE: 409,
  RELEASE_IN_USE: 409,
  OWNER_PROTECTED: 409,
  ALREADY_MEMBER: 409,
  LAST_IDENTITY: 409,
  DEPLOY_FINALISED: 409,
  /** The release a relative manifest names is gone, or the manifest it makes does not match its digest: send the whole manifest. */
  DEPLOY_BASE_CHANGED: 409,
  DEPLOY_INCOMPLETE: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  /** A `wharf login` already approved or cancelled: it is answered once. */
  CLI_LOGIN_ANSWERED: 409,
  /** This installation obtains no certificates over ACME: there is nothing to order again. */
  ACME_OFF: 409,
  /** This webhook delivery was received before: a replay is not acted on twice. */
  WEBHOOK_REPLAYED: 409,
  /** This installation runs no builds: its operator has configured no container runtime (`WHARF_BUILD_RUNTIME`). */
  BUILDS_OFF: 409,
  /** The build has finished: there is nothing to cancel. */
  BUILD_FINISHED: 409,
  /** A code host this installation does not sign in with (its operator configured no client for it). */
  CODE_HOST_NOT_CONFIGURED: 409,
  /** The account at the code host has not allowed Wharf to read its repositories, or took that back: grant it again. */
  REPOSITORY_ACCESS_MISSING: 409,
  /** The repository picked at the code host is not the one the site builds from. */
  REPOSITORY_MISMATCH: 409,
  // 410: it was there and is gone for good.
  INVITE_EXPIRED: 410,
  DEPLOY_EXPIRED: 410,
  CLI_LOGIN_EXPIRED: 410,
  CLI_LOGIN_CANCELLED: 410,
  /** The token of a `wharf login` was handed over already: it is handed over once. */
  CLI_LOGIN_CLAIMED: 410,
  // 408, 413, 414, 415, 421, 422, 429, 431
  REQUEST_TIMEOUT: 408,
  BODY_TOO_LARGE: 413,
  RELEASE_TOO_LARGE: 413,
  LOGO_TOO_LARGE: 413,
  /** A URL over the limit, or a path segment longer than any id or name the API has. */
  URL_TOO_LONG: 414,
  MEDIA_TYPE_UNSUPPORTED: 415,
  /** A request body in a content coding the route does not take; the answer's `Accept-Encoding` lists those it does. */
  ENCODING_UNSUPPORTED: 415,
  MISDIRECTED_REQUEST: 421,
  IDEMPOTENCY_KEY_REUSED: 422,
  DOMAIN_NOT_VERIFIED: 422,
  /** The build image is not on the installation's allow-list (`WHARF_BUILD_IMAGES`). */
  BUILD_IMAGE_NOT_ALLOWED: 422,
  /** The code host refused to add the webhook or the deploy key (the account may not administer the repository). */
  CODE_HOST_REFUSED: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  // 5xx: the server's side.
  INTERNAL_ERROR: 500,
  /** The code host did not answer, or answered with an error of its own; try again later. */
  CODE_HOST_UNAVAILABLE: 502,
  SERVER_UNAVAILABLE: 503,
  /** The database cannot be reached for now (restarting, failing over); try again in a few seconds. */
  DATABASE_UNAVAILABLE: 503,
  /** The blob store (the folder or the S3 bucket) did not answer in time; try again in a few seconds. */
  STORE_UNAVAILABLE: 503,
  DISK_FULL: 507,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export const errorCodeNames = Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]];
