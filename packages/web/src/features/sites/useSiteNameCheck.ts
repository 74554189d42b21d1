import { useDebouncedValue } from '@mantine/hooks';
import { api, NAME_CHECK_DEBOUNCE_MS, siteName } from '@wharf/contract';
import { useEffect, useRef, useState } from 'react';
import { call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';

/**
 * spec.md §5: the server tells whether a site name is free, 300 ms after the last keystroke; an
 * empty name, a malformed one or the name checked last is not sent again.
 */
export function useSiteNameCheck(name: string) {
  const [debounced] = useDebouncedValue(name, NAME_CHECK_DEBOUNCE_MS);
  const lastChecked = useRef<string | null>(null);
  const [verdict, setVerdict] = useState<{ name: string; error: string | null } | null>(null);

  useEffect(() => {
    if (debounced === '' || debounced === lastChecked.current || !siteName.safeParse(debounced).success) return;
    lastChecked.current = debounced;
    let current = true;
    call(api.validateSiteName, { body: { name: debounced } })
      .then((answer) => {
        if (current) setVerdict({ name: debounced, error: answer.valid ? null : (answer.message ?? 'Name is taken') });
      })
      .catch((error) => notifyFailure('validate site name', error));
    return () => {
      current = false;
    };
  }, [debounced]);

  return {
    /** The server's objection to this very name, if any. */
    error: verdict?.name === name ? verdict.error : null,
    checked: verdict?.name === name,
    /** A well-formed name the server has not answered for yet. */
    pending: name !== '' && verdict?.name !== name && siteName.safeParse(name).success,
  };
}
