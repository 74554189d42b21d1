import { type ManifestEntry, type ReleaseSource, uploadRoutes } from '@wharf/contract/upload';
import { type BodyCoding, compress } from '../lib/compress.ts';
import { readDeploy, readDeployBase, readDeployedRelease, readNothing } from './uploadAnswers.ts';
import { apiClient, type Connection, type RequestBody } from './wharfApi.ts';

/** The body of `createDeploy`: a whole manifest, or one relative to a release of the site. */
export interface DeployRequest {
  name: string;
  branches: string[];
  expires?: string;
  force?: boolean;
  draft?: boolean;
  source?: ReleaseSource;
  files: ManifestEntry[];
  base?: { release: string; digest: string };
  removed?: string[];
}

/** The calls of `wharf upload`. They load no schema library: their answers are checked by hand. */
export function uploadCalls(connection: Connection) {
  const { send } = apiClient(connection);
  return {
    deployBase: (siteId: string, branch: string | undefined) =>
      send({ route: uploadRoutes.getDeployBase, params: { siteId }, read: readDeployBase, query: { branch } }),
    /** The manifest goes compressed when the server takes a coding: a site's manifest is mostly paths. */
    startDeploy: async (siteId: string, body: DeployRequest, coding: BodyCoding | null) => {
      const text = JSON.stringify(body);
      const content = coding ? await compress(coding, Buffer.from(text)) : text;
      const request = () => ({ content, contentType: 'application/json', contentEncoding: coding ?? undefined });
      const deploy = await send({
        route: uploadRoutes.createDeploy,
        params: { siteId },
        read: readDeploy,
        body: request,
        idempotent: true,
      });
      return { deploy, sentBytes: content.length };
    },
    /** One file: its bytes, or (`encoded`) a compressed stream of them made anew for each try. */
    uploadDeployFile: (deployId: string, hash: string, body: () => RequestBody) =>
      send({ route: uploadRoutes.uploadDeployFile, params: { deployId, hash }, read: readNothing, body }),
    /** A tar of files, its chunks as they are (fetch would copy them into one buffer first), or compressed. */
    uploadDeployFiles: (deployId: string, tar: Uint8Array[] | Buffer, contentEncoding?: BodyCoding) =>
      send({
        route: uploadRoutes.uploadDeployFiles,
        params: { deployId },
        read: readNothing,
        body: () => ({
          content: Buffer.isBuffer(tar)
            ? tar
            : (async function* () {
                yield* tar;
              })(),
          contentType: 'application/x-tar',
          contentEncoding,
        }),
      }),
    finalizeDeploy: (deployId: string) =>
      send({ route: uploadRoutes.finalizeDeploy, params: { deployId }, read: readDeployedRelease }),
    uploadRelease: (siteId: string, body: () => RequestBody) =>
      send({
        route: uploadRoutes.uploadRelease,
        params: { siteId },
        read: readDeployedRelease,
        body,
        idempotent: true,
      }),
  };
}

export type UploadCalls = ReturnType<typeof uploadCalls>;
