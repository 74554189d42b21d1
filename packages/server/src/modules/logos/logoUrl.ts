/** The URL a logo is served at; the version busts caches when the logo changes. */
export function logoUrl(kind: 'orgs' | 'teams' | 'sites', id: string, version: string | null): string | null {
  return version ? `/api/v1/${kind}/${id}/logo?v=${version}` : null;
}
