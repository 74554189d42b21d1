import { useQueryClient } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { PasswordProtection } from '../../components/PasswordProtection.tsx';
import { apiQuery, call } from '../../lib/api.ts';

/** Settings › Security: the site's password. */
export function SecuritySettings({ site }: { site: Site }) {
  const client = useQueryClient();
  const params = { siteId: site._id };
  const store = (saved: Site) => client.setQueryData(apiQuery(api.getSite, { params }).queryKey, saved);
  return (
    <PasswordProtection
      subject="site"
      hasPassword={site.hasPassword}
      set={(password) => call(api.setSitePassword, { params, body: { password } }).then(store)}
      remove={() => call(api.removeSitePassword, { params }).then(store)}
      failures={{ set: 'set site password', remove: 'remove site password' }}
    />
  );
}
