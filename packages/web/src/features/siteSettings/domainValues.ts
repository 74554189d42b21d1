import type { FormErrors } from '@mantine/form';
import { type Domain, type Site, type SslConfiguration, updateSiteBody } from '@wharf/contract';

/** A domain as the form edits it: the certificate fields stay while the type is switched back and forth. */
export interface DomainValues {
  name: string;
  exposeBranches: boolean;
  sslType: SslConfiguration['type'];
  fullchain: string;
  privateKey: string;
}

export interface SiteValues {
  name: string;
  color: string;
  mainBranch: string;
  spa: boolean;
  domains: DomainValues[];
}

export function siteValues(site: Site): SiteValues {
  return {
    name: site.name,
    color: site.color,
    mainBranch: site.mainBranch,
    spa: site.spa,
    domains: site.domains.map((domain) => ({
      name: domain.name,
      exposeBranches: domain.exposeBranches,
      sslType: domain.sslConfiguration.type,
      fullchain: domain.sslConfiguration.type === 'manual' ? domain.sslConfiguration.fullchain : '',
      privateKey: domain.sslConfiguration.type === 'manual' ? domain.sslConfiguration.privateKey : '',
    })),
  };
}

/**
 * A new domain: automatic HTTPS when the installation offers it, else TLS terminated in front of
 * Wharf, the set-up the README recommends while Wharf does not serve HTTPS itself.
 */
export function newDomain(httpsAuto: boolean): DomainValues {
  return { name: '', exposeBranches: false, sslType: httpsAuto ? 'acme' : 'external', fullchain: '', privateKey: '' };
}

function sslConfigurationOf({ sslType, fullchain, privateKey }: DomainValues): SslConfiguration {
  return sslType === 'manual' ? { type: 'manual', fullchain, privateKey } : { type: sslType };
}

export function siteBodyOf(values: SiteValues) {
  return {
    ...values,
    domains: values.domains.map(
      (domain): Domain => ({
        name: domain.name,
        exposeBranches: domain.exposeBranches,
        sslConfiguration: sslConfigurationOf(domain),
      }),
    ),
  };
}

/** The contract's rules for a site's settings, reported on the form's own fields. */
export function validateSite(values: SiteValues): FormErrors {
  const result = updateSiteBody.safeParse(siteBodyOf(values));
  if (result.success) return {};
  const errors: FormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path
      .join('.')
      .replace(/sslConfiguration\.type$/, 'sslType')
      .replace(/sslConfiguration\./, '');
    errors[field] ??= issue.message;
  }
  return errors;
}
