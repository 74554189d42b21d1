import { deleteBranch, listBranches, setBranchRelease } from './routes/branches.ts';
import {
  createDeploy,
  finalizeDeploy,
  getDeployBase,
  listReleases,
  uploadDeployFile,
  uploadDeployFiles,
  uploadRelease,
} from './routes/releases.ts';
import { getUser } from './routes/system.ts';

/** Every call the `wharf` command makes with a person's token (uploads, branches, releases, whoami). */
const cliCalls = [
  getUser,
  getDeployBase,
  createDeploy,
  uploadDeployFile,
  uploadDeployFiles,
  finalizeDeploy,
  uploadRelease,
  listBranches,
  deleteBranch,
  setBranchRelease,
  listReleases,
];

/** The scopes of the token `wharf login` obtains: exactly those of the calls the CLI makes. */
export const cliTokenScopes: string[] = [
  ...new Set(cliCalls.map((call) => call.scope).filter((scope): scope is string => scope !== null)),
];
