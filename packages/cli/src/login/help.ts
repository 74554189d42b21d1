import { CLI_LOGIN_TTL_MINUTES, CLI_TOKEN_DAYS } from '@wharf/contract';
import { exitCodes } from '../failures.ts';

// Beside the commands that print them, not in ../help.ts: they read the contract's constants,
// which `wharf --version` and `wharf --help` never load.

export const loginHelp = `Usage: wharf login [--url URL] [--no-browser] [--json]

Signs in from this terminal: prints a page of the console to open (and opens it in your browser
when this is a terminal with a desktop), where you approve the sign-in of this machine after
checking that the page shows the same code as the terminal. The request lasts
${CLI_LOGIN_TTL_MINUTES} minutes.

Approving makes a personal API token named "CLI on user@host" with the scopes the CLI needs
(uploads, branches, releases, reading your user), expiring in ${CLI_TOKEN_DAYS} days. It is
stored, by server, in $XDG_CONFIG_HOME/wharf/credentials.json or ~/.config/wharf/credentials.json
(%APPDATA%\\wharf on Windows), readable by you alone (0600, in a 0700 folder). Commands given
no --token and no WHARF_TOKEN use it. Logging in again to the same server replaces the earlier
token.

Options:
  --url URL        the Wharf server, e.g. https://wharf.example.com         (env WHARF_URL)
  --no-browser     only print the page's address
  --json           print one JSON object with the result (or the error) on stdout
  -h, --help       this help

Exit codes:
  ${exitCodes.ok}  logged in
  ${exitCodes.usage}  bad arguments
  ${exitCodes.unreachable}  the server could not be reached
  ${exitCodes.refused}  the sign-in was cancelled in the console, or nobody approved it in time
`;

export const logoutHelp = `Usage: wharf logout [--url URL] [--json]

Deletes the token wharf login stored for the server, on the server and on this machine. Without
--url or WHARF_URL: the only server you are logged in to. A server that cannot be reached keeps
the login here (exit ${exitCodes.unreachable}), so that logging out again can still delete the token.
`;

export const whoamiHelp = `Usage: wharf whoami [--url URL] [--json]

Asks the server who the login of wharf login is: the user, the server, and the token's name and
expiry. Without --url or WHARF_URL: the only server you are logged in to. Exits ${exitCodes.badToken} when you
are not logged in, or the server no longer accepts the token.
`;
