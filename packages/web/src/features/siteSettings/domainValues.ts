import type { FormErrors } from '@mantine/form';
import {
  type api,
  type Domain,
  messages,
  type RouteBody,
  type Site,
  type SslConfiguration,
  updateSiteBody,
} from '@wharf/contract';

/** A domain as the form edits it: the certificate fields stay while the type is switched back and forth. */
export interface DomainValues {
  name: string;
  exposeBranches: boolean;
  primary: boolean;
  sslType: SslConfiguration['type'];
  fullchain: string;
  /** Empty keeps the key saved on the server (answers never show it); text replaces it. */
  privateKey: string;
  /** The server holds a private key for this domain's manual certificate. */
  privateKeySaved: boolean;
  /** What the saved chain covers and until when (answers only), and the chain it was read from. */
  saved?: { chain: string; certificate: { expiresAt: string; names: string[] } };
}

export type AcmeStatus = NonNullable<Extract<SslConfiguration, { type: 'acme' }>['status']>;

export interface SiteValues {
  name: string;
  color: string;
  mainBranch: string;
  spa: boolean;
  prettyUrls: boolean;
  domains: DomainValues[];
}

export function siteValues(site: Site): SiteValues {
  return {
    name: site.name,
    color: site.color,
    mainBranch: site.mainBranch,
    spa: site.spa,
    prettyUrls: site.prettyUrls,
    domains: site.domains.map((domain) => ({
      name: domain.name,
      exposeBranches: domain.exposeBranches,
      primary: domain.primary,
      sslType: domain.sslConfiguration.type,
      fullchain: domain.sslConfiguration.type === 'manual' ? domain.sslConfiguration.fullchain : '',
      privateKey: '',
      privateKeySaved: domain.sslConfiguration.type === 'manual',
      ...savedCertificateOf(domain),
    })),
  };
}

function savedCertificateOf(domain: Domain): Pick<DomainValues, 'saved'> {
  const ssl = domain.sslConfiguration;
  if (ssl.type !== 'manual' || !ssl.certificate) return {};
  return { saved: { chain: ssl.fullchain, certificate: ssl.certificate } };
}

/**
 * A new domain: automatic HTTPS when the installation offers it, else TLS terminated in front of
 * Wharf, the set-up the README recommends while Wharf does not serve HTTPS itself.
 */
export function newDomain(httpsAuto: boolean): DomainValues {
  return {
    name: '',
    exposeBranches: false,
    primary: false,
    sslType: httpsAuto ? 'acme' : 'external',
    fullchain: '',
    privateKey: '',
    privateKeySaved: false,
  };
}

function sslConfigurationOf({ sslType, fullchain, privateKey }: DomainValues): SslConfiguration {
  if (sslType !== 'manual') return { type: sslType };
  return privateKey ? { type: 'manual', fullchain, privateKey } : { type: 'manual', fullchain };
}

/** The update body of a site, from what the form holds. */
export function siteBodyOf(values: SiteValues): RouteBody<typeof api.updateSite> {
  return {
    ...values,
    domains: values.domains.map(
      (domain): Domain => ({
        name: domain.name,
        exposeBranches: domain.exposeBranches,
        primary: domain.primary,
        sslConfiguration: sslConfigurationOf(domain),
      }),
    ),
  };
}

/** The contract's rules for a site's settings, reported on the form's own fields. */
export function validateSite(values: SiteValues): FormErrors {
  const errors: FormErrors = {};
  values.domains.forEach((domain, index) => {
    if (domain.sslType === 'manual' && !domain.privateKey && !domain.privateKeySaved)
      errors[`domains.${index}.privateKey`] = messages.required;
  });
  const result = updateSiteBody.safeParse(siteBodyOf(values));
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path
      .join('.')
      .replace(/sslConfiguration\.type$/, 'sslType')
      .replace(/sslConfiguration\./, '');
    errors[field] ??= issue.message;
  }
  return errors;
}
