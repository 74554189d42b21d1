import { useUser } from '../features/auth/session.ts';
import { AppLayout } from './pages.ts';
import { PublicLayout } from './shell/PublicLayout.tsx';

/** Signed-in visitors get the whole console around a page; others a plain frame. */
export function Layout() {
  return useUser().data ? <AppLayout /> : <PublicLayout />;
}
