import { fireEvent, screen } from '@testing-library/react';
import type { Site } from '@wharf/contract';
import { describe, expect, it } from 'vitest';
import { systemEnvQuery } from '../../lib/systemEnv.ts';
import { systemEnv } from '../../test/fixtures.ts';
import { renderWithData } from '../../test/renderWithData.tsx';
import { GeneralSettings } from './GeneralSettings.tsx';

const site = {
  _id: 's1',
  name: 'shop',
  color: '#228be6',
  mainBranch: 'b1',
  branches: [{ _id: 'b1', name: 'main' }],
  spa: false,
  prettyUrls: true,
  domains: [],
} as unknown as Site;

describe('General settings of a site', () => {
  it("shows the site's Pretty URLs setting, and turning it off is a change to save", () => {
    renderWithData(<GeneralSettings site={site} />, { known: [[systemEnvQuery.queryKey, systemEnv()]] });
    // Mantine's switch names itself with its label and description together.
    const pretty = screen.getByRole('switch', {
      name: 'Pretty URLs /about.html redirects to /about, which serves about.html',
    });
    expect(pretty).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    fireEvent.click(pretty);
    expect(pretty).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });
});
