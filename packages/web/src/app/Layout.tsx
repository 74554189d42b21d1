import { useUser } from '../lib/session.ts';
import { AppLayout, PublicLayout } from './pages.ts';

/** Signed-in visitors get the whole console around a page; others a plain frame. */
export function Layout() {
  return useUser().data ? <AppLayout /> : <PublicLayout />;
}
