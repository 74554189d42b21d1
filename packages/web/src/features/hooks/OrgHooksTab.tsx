import { useCurrentOrg } from '../../lib/currentOrg.tsx';
import { HooksRoutes } from './HooksRoutes.tsx';

/** /org/hooks: the hooks of the current organization, which hear everything that happens in it. */
export function OrgHooksTab() {
  const { org } = useCurrentOrg();
  return <HooksRoutes context="orgs" ownerId={org._id} base="/org/hooks" />;
}
