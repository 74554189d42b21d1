import { describe, expect, it } from 'vitest';
import {
  FLAT_BRANCH_SEPARATOR,
  flatBranchPart,
  RELEASE_SLUG_LENGTH,
  SITE_NAME_MAX,
  shortenedPartPrefix,
  slugOf,
} from './urls.ts';

const label = (part: string, site: string) => `${part}${FLAT_BRANCH_SEPARATOR}${site}`;
/** The longest a host name label may be (RFC 1035). */
const LABEL_MAX = 63;

describe("a flat branch host's label", () => {
  it('is the slug itself when it fits', () => {
    expect(flatBranchPart('feature-login', 'shop')).toBe('feature-login');
    const site = 's'.repeat(30);
    const slug = 'b'.repeat(LABEL_MAX - 2 - site.length);
    expect(label(flatBranchPart(slug, site), site)).toHaveLength(LABEL_MAX);
    expect(flatBranchPart(slug, site)).toBe(slug);
  });

  it('fits in 63 characters for every slug and every site name a site may take, keeping the slug’s beginning', () => {
    const slug = slugOf('renovate/configure-the-monorepo-workspace-packages-and-their-lockfiles');
    for (let length = 1; length <= SITE_NAME_MAX; length++) {
      const site = 'x'.repeat(length);
      const part = flatBranchPart(slug, site);
      expect(label(part, site).length).toBeLessThanOrEqual(LABEL_MAX);
      expect(part).not.toContain(FLAT_BRANCH_SEPARATOR);
      expect(part).toMatch(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/);
      expect(slug.startsWith(part.slice(0, 1))).toBe(true);
      if (part !== slug) expect(slug.startsWith(shortenedPartPrefix(part)!)).toBe(true);
    }
  });

  it('tells apart two long branch names that begin alike, the same way every time', () => {
    const site = 'marketing-site-of-the-company';
    const a = flatBranchPart(slugOf('feature/checkout-flow-with-saved-cards-a-and-wallets'), site);
    const b = flatBranchPart(slugOf('feature/checkout-flow-with-saved-cards-b-and-wallets'), site);
    expect(a).not.toBe(b);
    expect(a.slice(0, -6)).toBe(b.slice(0, -6));
    expect(flatBranchPart(slugOf('feature/checkout-flow-with-saved-cards-a-and-wallets'), site)).toBe(a);
  });

  it('keeps its over-long label for a site named before the limit: nothing shorter would name its site', () => {
    const site = 'y'.repeat(60);
    expect(flatBranchPart('preview', site)).toBe('preview');
  });

  it('is recognised as shortened only in the shape flatBranchPart makes', () => {
    expect(shortenedPartPrefix('feature-check-0a1b2c')).toBe('feature-check');
    expect(shortenedPartPrefix('0a1b2c')).toBe('');
    expect(shortenedPartPrefix('feature-login')).toBeNull();
    expect(shortenedPartPrefix('feature-0a1b2g')).toBeNull();
    expect(shortenedPartPrefix('feature--0a1b2c')).toBeNull();
  });
});

it("leaves room in a site name's label for its releases' addresses", () => {
  expect(RELEASE_SLUG_LENGTH + FLAT_BRANCH_SEPARATOR.length + SITE_NAME_MAX).toBe(LABEL_MAX);
});
