import { useSignedInUser } from '../../lib/session.ts';
import { HooksRoutes } from './HooksRoutes.tsx';

/** /user/hooks: the signed-in user's own hooks, which hear what happens to the user (their API tokens). */
export function UserHooksTab() {
  const user = useSignedInUser();
  return <HooksRoutes context="users" ownerId={user._id} base="/user/hooks" />;
}
