import { expectStatus, type TestClient } from './client.ts';
import type { DnsPeer } from './dnsPeer.ts';

/**
 * Proves that the owners of a site hold its saved custom domains, through the real route: each
 * domain's TXT record is set on the DNS peer Wharf asks (`WHARF_DNS_SERVER`), then checked.
 */
export async function verifyDomains(
  client: TestClient,
  dns: DnsPeer,
  siteId: string,
  domains: { name: string; ownership: { token: string } }[],
) {
  let site: { domains: unknown[] } | undefined;
  for (const domain of domains) {
    await dns.setTxt(`_wharf.${domain.name}`, domain.ownership.token);
    site = expectStatus(await client.post(`/api/v1/sites/${siteId}/domains/${domain.name}/verify`, {}), 200);
  }
  return site;
}
