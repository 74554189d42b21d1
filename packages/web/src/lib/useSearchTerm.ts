import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_LENGTH } from '@wharf/contract';
import { useEffect, useState } from 'react';

/**
 * spec.md §5 and §9: a search filters only when its input is empty or has at least 3 characters,
 * 200 ms after the last keystroke. Between, the previous term stays.
 */
export function useSearchTerm(input: string) {
  const [debounced] = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);
  const [term, setTerm] = useState('');
  useEffect(() => {
    if (debounced.length === 0 || debounced.length >= SEARCH_MIN_LENGTH) setTerm(debounced);
  }, [debounced]);
  const length = input.trim().length;
  return { term, tooShort: length > 0 && length < SEARCH_MIN_LENGTH };
}
