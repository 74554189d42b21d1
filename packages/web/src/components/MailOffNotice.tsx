import { Alert } from '@mantine/core';
import { IconMailOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useSystemEnv } from '../lib/systemEnv.ts';

/** Whether this installation sends mail (SMTP_URL is set); undefined until the console knows. */
export function useMailOn(): boolean | undefined {
  return useSystemEnv().data?.features.email;
}

/**
 * Says, where a mail would be sent, that this server sends none; nothing when mail is on or not
 * yet known. The children tell what that means here.
 */
export function MailOffNotice({ children }: { children: ReactNode }) {
  if (useMailOn() !== false) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconMailOff />} title="Mail is off on this server">
      {children}
    </Alert>
  );
}
