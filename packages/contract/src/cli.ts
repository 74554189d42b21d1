/**
 * Where every installation serves the `wharf` command of its own version (the server's
 * modules/cli): one script that plain Node runs, and the npm package around it.
 */
export const CLI_PATHS = { script: '/cli/wharf.mjs', package: '/cli/wharf-cli.tgz' } as const;

/**
 * The `wharf` command of the installation at `wharfUrl`, run by npx from the installation itself:
 * never a name a registry resolves, so it is Wharf's own code whoever owns the name `wharf` there.
 */
export const cliCommandOf = (wharfUrl: string) => `npx --yes ${wharfUrl}${CLI_PATHS.package}`;

/** The upload command of a site (spec.md §9: the site id, the installation's URL and a token). */
export function uploadCommandOf(wharfUrl: string, siteId: string, token = '<token>') {
  return `${cliCommandOf(wharfUrl)} upload ./dist --url ${wharfUrl} --site ${siteId} --token ${token}`;
}

/** The same upload without npm: the installation's single-file CLI, fetched with curl and run by Node. */
export function uploadWithNodeOf(wharfUrl: string, siteId: string, token = '<token>') {
  return `curl -fsSLO ${wharfUrl}${CLI_PATHS.script} && node wharf.mjs upload ./dist --url ${wharfUrl} --site ${siteId} --token ${token}`;
}
