// Where the routes of an upload are, without their schemas: the CLI's upload path calls them and
// loads no schema library (see upload.ts). routes/releases.ts defines each route from its address.

export const uploadRoutes = {
  uploadRelease: { method: 'post', path: '/api/v1/sites/:siteId/releases' },
  getDeployBase: { method: 'get', path: '/api/v1/sites/:siteId/deploys/base' },
  createDeploy: { method: 'post', path: '/api/v1/sites/:siteId/deploys' },
  uploadDeployFile: { method: 'put', path: '/api/v1/deploys/:deployId/files/:hash' },
  uploadDeployFiles: { method: 'post', path: '/api/v1/deploys/:deployId/files' },
  finalizeDeploy: { method: 'post', path: '/api/v1/deploys/:deployId/finalize' },
} as const;
