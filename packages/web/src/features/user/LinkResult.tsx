import { Alert } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { SignInErrorAlert } from '../auth/SignInErrorAlert.tsx';
import { useProviderLook } from '../auth/useProviderLook.ts';

/**
 * How connecting an account, or granting repository access, ended, as the server sent the browser
 * back: ?linked={provider} or ?repositories={provider}, or ?error={code}&provider={provider}.
 */
export function LinkResult() {
  const look = useProviderLook();
  const [search, setSearch] = useSearchParams();
  const dismiss = () => setSearch({}, { replace: true });
  const linked = search.get('linked');
  const granted = search.get('repositories');
  const code = search.get('error');
  if (code) return <SignInErrorAlert code={code} provider={search.get('provider')} onClose={dismiss} />;
  if (!linked && !granted) return null;
  return (
    <Alert
      role="status"
      color="teal"
      variant="light"
      icon={<IconCircleCheck />}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={dismiss}
    >
      {granted
        ? `Wharf may now list your ${look(granted).label} repositories and set one up for this site.`
        : `Your ${look(linked ?? '').label} account is now connected.`}
    </Alert>
  );
}
