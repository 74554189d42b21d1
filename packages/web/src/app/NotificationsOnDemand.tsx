import { type NotificationsProps, useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

const Notifications = lazy(() => import('./notificationsContainer.ts').then((m) => ({ default: m.Notifications })));

/**
 * Mantine's notifications, whose container (its transitions and styles) loads with the first
 * notification shown rather than with every first page. Notifications shown meanwhile wait in
 * Mantine's store and appear with it.
 */
export function NotificationsOnDemand(props: NotificationsProps) {
  const shown = useNotifications().notifications.length > 0;
  const [wanted, setWanted] = useState(shown);
  if (shown && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  );
}
