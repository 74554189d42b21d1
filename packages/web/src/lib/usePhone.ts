import { useMediaQuery } from '@mantine/hooks';

/**
 * Whether the screen is a phone's (below Mantine's `sm`), read as the component first renders:
 * the console renders only in browsers, so there is no second render after mounting to correct it.
 */
export function usePhone() {
  return useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
}
