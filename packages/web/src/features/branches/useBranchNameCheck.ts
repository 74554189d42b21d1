import { useDebouncedValue } from '@mantine/hooks';
import { api, name as branchName, NAME_CHECK_DEBOUNCE_MS } from '@wharf/contract';
import { useEffect, useRef, useState } from 'react';
import { call } from '../../lib/api.ts';
import { notifyFailure } from '../../lib/notify.ts';

const checkable = (value: string, currentName: string | null) =>
  value !== '' && value !== currentName && branchName.safeParse(value).success;

/**
 * spec.md §5 'Branch name': the server tells whether the name is free in the site, 300 ms after the
 * last keystroke; an empty name, a malformed one, the branch's own name or the name checked last is
 * not sent again.
 */
export function useBranchNameCheck(siteId: string, name: string, currentName: string | null = null) {
  const [debounced] = useDebouncedValue(name, NAME_CHECK_DEBOUNCE_MS);
  const lastChecked = useRef<string | null>(null);
  const [verdict, setVerdict] = useState<{ name: string; error: string | null } | null>(null);

  useEffect(() => {
    if (!checkable(debounced, currentName) || debounced === lastChecked.current) return;
    lastChecked.current = debounced;
    let current = true;
    call(api.validateBranchName, { params: { siteId }, body: { name: debounced } })
      .then((answer) => {
        if (current) setVerdict({ name: debounced, error: answer.valid ? null : (answer.message ?? 'Name is taken') });
      })
      .catch((error) => notifyFailure('validate branch name', error));
    return () => {
      current = false;
    };
  }, [siteId, debounced, currentName]);

  return {
    error: verdict?.name === name ? verdict.error : null,
    checked: verdict?.name === name,
    pending: checkable(name, currentName) && verdict?.name !== name,
  };
}
