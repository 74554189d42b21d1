import { exitCodes } from './failures.ts';
import { version } from './version.ts';

const exitCodeLines = [
  `  ${exitCodes.ok}  the release is live`,
  `  ${exitCodes.unexpected}  unexpected error (a bug: please report it)`,
  `  ${exitCodes.usage}  bad arguments: missing --url, --site or --token, unknown flag`,
  `  ${exitCodes.badToken}  the server refused the token (401 or 403)`,
  `  ${exitCodes.unknownSite}  no such site (404)`,
  `  ${exitCodes.badFolder}  the folder is missing, empty, unreadable, or changed while uploading`,
  `  ${exitCodes.unreachable}  the server could not be reached or kept failing, after retries, or it redirects elsewhere`,
  `  ${exitCodes.refused}  the server refused the release (its message says why)`,
].join('\n');

export const mainHelp = `wharf ${version}: upload releases to a Wharf server

Usage:
  wharf upload <folder> --url URL --site SITE_ID --token TOKEN [--release NAME] [--branch NAME]...
                                       [--expires 14d] [--force] [--draft]
  wharf branch delete NAME             delete a branch (a preview); never the main branch
  wharf rollback --branch NAME --release ID|NAME
                                       point a branch at another release of the site
  wharf publish RELEASE [--branch NAME]
                                       point a branch (default: the main one) at a release,
                                       a draft's or an older one; a new name makes a branch
  wharf releases list [--search TEXT] [--limit N]
  wharf status                         what each branch serves, and where
  wharf hash-password [password]      (better: the password on standard input)
  wharf login [--url URL] [--no-browser]
                                       sign in from this terminal: approve it in the console
  wharf logout [--url URL]             delete the token of wharf login, here and on the server
  wharf whoami [--url URL]             who wharf login signed in as, and its token
  wharf --help | --version

upload, branch, rollback, releases and status take --url, --site and --token (or WHARF_URL,
WHARF_SITE and WHARF_TOKEN; a site token will do) and --json. Without --token or WHARF_TOKEN they
use the token wharf login stored for that server. Run wharf upload --help for the details of an
upload, wharf login --help for where logins are kept.
`;

export const siteCommandHelp = `Usage:
  wharf branch delete NAME
  wharf rollback --branch NAME --release ID|NAME
  wharf publish RELEASE [--branch NAME]
  wharf releases list [--search TEXT] [--limit N (1-100, default 20)]
  wharf status

Options:
  --url URL        the Wharf server, e.g. http://localhost:8080           (env WHARF_URL)
  --site ID        the site's id, shown in the console                      (env WHARF_SITE)
  --token TOKEN    the site's token, or an API token with the route's scope (env WHARF_TOKEN);
                   default: the token of wharf login to that server
  --json           print one JSON object with the result (or the error) on stdout
  -h, --help       this help

A release is named by its id or its exact name (the newest of that name, among the last 100).

Exit codes:
${exitCodeLines.replace('the server refused the release (its message says why)', 'the server refused (its message says why), or no such branch or release')}
`;

export const uploadHelp = `Usage: wharf upload <folder> [options]

Uploads the folder as a new release of a site and points branches at it. Only files the
server does not have yet are sent; a server without incremental deploys gets a tar.gz.

Options:
  --url URL        the Wharf server, e.g. http://localhost:8080           (env WHARF_URL)
  --site ID        the site's id, shown in the console                      (env WHARF_SITE)
  --token TOKEN    a site token, or an API token with release_create       (env WHARF_TOKEN)
                   (prefer the variable: arguments show in process lists);
                   default: the token of wharf login to that server
  --release NAME   the release's name; default: short commit and subject in git, else the time
  --branch NAME    a branch to serve the release, repeatable; default: the CI's branch
                   (GITHUB_HEAD_REF, GITHUB_REF_NAME, FORGEJO_*/GITEA_*, CI_COMMIT_REF_NAME,
                   BITBUCKET_BRANCH, BRANCH), else the checked-out git branch, else main;
                   on a pull or merge request: pr-{number}, with a commit status named wharf
                   when GITHUB_TOKEN, GITEA_TOKEN or GITLAB_TOKEN is set
  --comment        on a pull request, also write the preview's address in a comment that
                   each later deploy edits in place (needs the same token)
  --expires TIME   delete the branches this long after the upload: 30m, 12h, 14d   (env WHARF_EXPIRES)
                   (at most 365d; never the main branch); an upload without it makes them stay
  --force          make a new release even when the branches already serve these very files
                   (without it, such an upload answers "unchanged" and makes none)
  --draft          a release no branch serves: look at it at its own address, then
                   wharf publish it (the console's Publish does the same)
  --commit SHA, --message TEXT, --author NAME
                   where the release comes from, shown on its page and in the audit log;
                   default: what the CI's variables say (GitHub, Gitea and Forgejo Actions,
                   GitLab CI, Woodpecker, Drone, CircleCI, Bitbucket), else git's last commit
  --json           print one JSON object with the result (or the error) on stdout
  -h, --help       this help

.git folders, .DS_Store and Thumbs.db are left out; every other file is uploaded, dot files too.
Every release is also served at its own address ({slug}--{site}, printed at the end), whatever
the branches serve.
Links are followed inside the folder; a link to anything outside it stops the upload.
Files unchanged since the folder's last upload (same size, modification time and inode) are not
read again: their hashes are kept in $XDG_CACHE_HOME/wharf or ~/.cache/wharf (env WHARF_HASH_CACHE
names another folder, or off for none).

Exit codes:
${exitCodeLines}
`;
