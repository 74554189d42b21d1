import { useDebouncedValue } from '@mantine/hooks';
import { api, name as branchName, NAME_CHECK_DEBOUNCE_MS, siteName } from '@wharf/contract';
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { call } from './api.ts';
import { type FailedAction, notifyFailure } from './notify.ts';

/** A kind of name the server checks: its format, how to ask, and what a failed question is called. */
interface NameKind {
  format: z.ZodType;
  /** Asks whether the name is free within `scope` (the site of a branch; unused for sites). */
  ask: (name: string, scope: string) => Promise<{ valid: boolean; message?: string | null }>;
  failedAction: FailedAction;
}

const siteNames: NameKind = {
  format: siteName,
  ask: (name) => call(api.validateSiteName, { body: { name } }),
  failedAction: 'validate site name',
};

const branchNames: NameKind = {
  format: branchName,
  ask: (name, siteId) => call(api.validateBranchName, { params: { siteId }, body: { name } }),
  failedAction: 'validate branch name',
};

/**
 * spec.md §5: the server tells whether a name is free, 300 ms after the last keystroke; an empty
 * name, a malformed one, the entity's own name or the name checked last is not sent again.
 */
function useNameCheck(kind: NameKind, scope: string, name: string, currentName: string | null) {
  const [debounced] = useDebouncedValue(name, NAME_CHECK_DEBOUNCE_MS);
  const lastChecked = useRef<string | null>(null);
  const [verdict, setVerdict] = useState<{ name: string; error: string | null } | null>(null);

  useEffect(() => {
    if (!checkable(kind, debounced, currentName) || debounced === lastChecked.current) return;
    lastChecked.current = debounced;
    let current = true;
    kind
      .ask(debounced, scope)
      .then((answer) => {
        if (current) setVerdict({ name: debounced, error: answer.valid ? null : (answer.message ?? 'Name is taken') });
      })
      .catch((error) => notifyFailure(kind.failedAction, error));
    return () => {
      current = false;
    };
  }, [kind, scope, debounced, currentName]);

  return {
    /** The server's objection to this very name, if any. */
    error: verdict?.name === name ? verdict.error : null,
    checked: verdict?.name === name,
    /** A well-formed name the server has not answered for yet. */
    pending: checkable(kind, name, currentName) && verdict?.name !== name,
  };
}

function checkable(kind: NameKind, value: string, currentName: string | null) {
  return value !== '' && value !== currentName && kind.format.safeParse(value).success;
}

/** Whether a site name is free in all of Wharf. */
export function useSiteNameCheck(name: string) {
  return useNameCheck(siteNames, '', name, null);
}

/** Whether a branch name is free in its site; the branch's own name needs no asking. */
export function useBranchNameCheck(siteId: string, name: string, currentName: string | null = null) {
  return useNameCheck(branchNames, siteId, name, currentName);
}
