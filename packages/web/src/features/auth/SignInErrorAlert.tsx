import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { signInErrorText } from './signInErrors.ts';
import { useProviderLook } from './useProviderLook.ts';

/** The red notice of a refused sign-in or link, as the server sent it back: ?error=CODE&provider=NAME. */
export function SignInErrorAlert({
  code,
  provider,
  onClose,
}: {
  code: string;
  provider: string | null;
  onClose?: () => void;
}) {
  const look = useProviderLook();
  const label = provider ? look(provider).label : 'the provider';
  return (
    <Alert
      role="alert"
      color="red"
      variant="light"
      icon={<IconAlertCircle />}
      withCloseButton={onClose !== undefined}
      closeButtonLabel="Dismiss"
      onClose={onClose}
    >
      {signInErrorText(code, label)}
    </Alert>
  );
}
