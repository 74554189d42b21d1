import { useQueryClient } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { LogoCard } from '../../components/LogoCard.tsx';
import { call, upload } from '../../lib/api.ts';

/** The Logo card of a site's settings: shown in its header and the sidebar in place of its color. */
export function SiteLogo({ site }: { site: Site }) {
  const client = useQueryClient();
  const params = { siteId: site._id };
  const refresh = () =>
    Promise.all(
      [api.getSite, api.listTeamSites, api.listOrgSites].map((route) =>
        client.invalidateQueries({ queryKey: [route.path] }),
      ),
    );
  return (
    <LogoCard
      name={site.name}
      color={site.color}
      logo={site.logo}
      onUpload={(file) => upload(api.setSiteLogo, params, file).then(refresh)}
      onRemove={() => call(api.removeSiteLogo, { params }).then(refresh)}
    />
  );
}
