import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CurrentOrgProvider } from '../../lib/currentOrg.tsx';
import { storageKeys, writeStored } from '../../lib/storage.ts';
import { acme, inAcme, signedInUser } from '../../test/fixtures.ts';
import { renderWithData } from '../../test/renderWithData.tsx';
import { CreateMenu } from './CreateMenu.tsx';

async function openMenu(canCreateOrgs: boolean) {
  writeStored(storageKeys.currentOrg, acme._id);
  onTestFinished(() => writeStored(storageKeys.currentOrg, null));
  renderWithData(
    <CurrentOrgProvider>
      <CreateMenu />
    </CurrentOrgProvider>,
    { known: inAcme(signedInUser({ canCreateOrgs }), { _id: 'm1', admin: true, owner: true }) },
  );
  fireEvent.click(screen.getByRole('button', { name: 'Create' }));
  await screen.findByRole('menuitem', { name: 'Site' });
}

describe('the create menu', () => {
  it('creates an organization for a user who may', async () => {
    await openMenu(true);
    expect(screen.getByRole('menuitem', { name: 'Organization' })).toBeInTheDocument();
  });

  it('leaves organizations out for a user who may not create them', async () => {
    await openMenu(false);
    expect(screen.getByRole('menuitem', { name: 'Team' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Organization' })).toBeNull();
  });
});
