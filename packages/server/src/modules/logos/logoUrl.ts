export type LogoOwnerKind = 'orgs' | 'teams' | 'sites';

/** Where a logo's bytes are kept in the blob store. */
export const logoBlobKey = (kind: LogoOwnerKind, id: string) => `logos/${kind}/${id}`;

/** The URL a logo is served at; the version busts caches when the logo changes. */
export function logoUrl(kind: LogoOwnerKind, id: string, version: string | null): string | null {
  return version ? `/api/v1/${kind}/${id}/logo?v=${version}` : null;
}
