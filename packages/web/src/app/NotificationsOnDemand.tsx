import { type NotificationsProps, useNotifications } from '@mantine/notifications';
import { useState } from 'react';
import { OnDemand } from '../components/OnDemand.tsx';
import { lazyChunk } from '../lib/chunks.ts';

const Notifications = lazyChunk(() => import('./notificationsContainer.ts').then((m) => m.Notifications));

/**
 * Mantine's notifications, whose container (its transitions and styles) loads with the first
 * notification shown rather than with every first page. Notifications shown meanwhile wait in
 * Mantine's store and appear with it. If it cannot be loaded (the server out of reach at that
 * moment), the toasts stay unseen and the console's notice says so: the page stays.
 */
export function NotificationsOnDemand(props: NotificationsProps) {
  const shown = useNotifications().notifications.length > 0;
  const [wanted, setWanted] = useState(shown);
  if (shown && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <OnDemand>
      <Notifications {...props} />
    </OnDemand>
  );
}
