import { Accordion, MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { theme } from '../app/theme.ts';

// Panels open at once: the DOM of the tests never ends a CSS transition.
const testTheme = mergeThemeOverrides(theme, {
  components: { Accordion: Accordion.extend({ defaultProps: { transitionDuration: 0 } }) },
});

/** Renders a component inside the console's theme, without transitions nor portals. */
export function renderWithTheme(element: ReactElement) {
  return render(
    <MantineProvider theme={testTheme} env="test">
      {element}
    </MantineProvider>,
  );
}
