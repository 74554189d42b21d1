import { IconBrandSlack, IconMail, IconMessageCircle, IconWorld } from '@tabler/icons-react';
import type { Hook } from '@wharf/contract';
import type { ReactNode } from 'react';

/** How each kind of hook is named and drawn. */
export const hookTypes: Record<Hook['type'], { label: string; icon: ReactNode; description: string }> = {
  web: { label: 'Web', icon: <IconWorld size={18} />, description: 'POSTs each event as JSON, signed with a secret' },
  slack: { label: 'Slack', icon: <IconBrandSlack size={18} />, description: 'Posts to a Slack incoming webhook' },
  mattermost: {
    label: 'Mattermost',
    icon: <IconMessageCircle size={18} />,
    description: 'Posts to a Mattermost incoming webhook',
  },
  email: { label: 'Email', icon: <IconMail size={18} />, description: 'Sends each event by email' },
};

/** Where a hook sends its events, in a word. */
export function hookTarget(hook: Pick<Hook, 'type' | 'config'>): string {
  return (hook.type === 'email' ? hook.config.to : hook.config.url) ?? '';
}
