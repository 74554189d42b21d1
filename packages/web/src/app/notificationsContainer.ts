// The container of Mantine's notifications with its styles, loaded by NotificationsOnDemand.tsx.
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';

export { Notifications } from '@mantine/notifications';
