import { useQueryClient } from '@tanstack/react-query';
import { api, updateOrgBody } from '@wharf/contract';
import { EntitySettings } from '../../components/EntitySettings.tsx';
import { call, upload } from '../../lib/api.ts';
import { useCurrentOrg } from '../../lib/currentOrg.tsx';

/** The Settings tab of an organization: its name and color, and its logo. */
export function OrgSettingsTab() {
  const { org } = useCurrentOrg();
  const client = useQueryClient();
  const params = { orgId: org._id };
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [api.getOrg.path] }),
      client.invalidateQueries({ queryKey: [api.listOrgs.path] }),
    ]);
  return (
    <EntitySettings
      entity={org}
      title="General settings"
      colorDescription="Shown where the organization has no logo"
      schema={updateOrgBody}
      save={(body) => call(api.updateOrg, { params, body })}
      savedMessage="Org saved"
      failedAction="update org"
      refresh={refresh}
      uploadLogo={(file) => upload(api.setOrgLogo, params, file)}
      removeLogo={() => call(api.removeOrgLogo, { params })}
    />
  );
}
