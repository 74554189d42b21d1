import { Badge, Menu } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconArrowsSplit,
  IconForms,
  IconList,
  IconLock,
  IconPackage,
  IconPencil,
  IconSettings,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Site } from '@wharf/contract';
import { useState } from 'react';
import { Route, Routes, useParams } from 'react-router';
import { BackLink } from '../../components/BackLink.tsx';
import { DefaultTab } from '../../components/DefaultTab.tsx';
import { DetailPage } from '../../components/DetailPage.tsx';
import { NotFound } from '../../components/NotFound.tsx';
import { DeleteMenuItem, PageMenu } from '../../components/PageMenu.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { RouteTabs } from '../../components/RouteTabs.tsx';
import { UrlLink } from '../../components/UrlLink.tsx';
import { BranchHeadersTab } from './BranchHeadersTab.tsx';
import { BranchReleasesTab } from './BranchReleasesTab.tsx';
import { BranchSettingsTab } from './BranchSettingsTab.tsx';
import { type BranchDetail, branchQuery } from './branchQuery.ts';
import { DeleteBranchModal } from './DeleteBranchModal.tsx';
import { FormsTab } from './FormsTab.tsx';
import { RedirectsTab } from './RedirectsTab.tsx';
import { RenameBranchModal } from './RenameBranchModal.tsx';

function BranchMenu({ branch, isMain }: { branch: BranchDetail; isMain: boolean }) {
  const [renaming, setRenaming] = useState(false);
  const [deleting, { open, close }] = useDisclosure(false);
  return (
    <>
      <PageMenu label="Branch actions">
        <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setRenaming(true)}>
          Rename
        </Menu.Item>
        <DeleteMenuItem onClick={open} disabled={isMain}>
          {isMain ? 'Delete (not the main branch)' : 'Delete'}
        </DeleteMenuItem>
      </PageMenu>
      {renaming && <RenameBranchModal branch={branch} onClose={() => setRenaming(false)} />}
      <DeleteBranchModal branch={branch} opened={deleting} onClose={close} />
    </>
  );
}

/** /sites/{siteId}/branches/{branchId}: a branch, the release it serves, and its tabs. */
export function BranchPage({ site, canManage }: { site: Site; canManage: boolean }) {
  const { branchId = '' } = useParams();
  const branch = useQuery(branchQuery(site._id, branchId));
  const back = <BackLink to={`/sites/${site._id}/branches`} label="Branches" />;
  return (
    <DetailPage query={branch} back={back} failure="Could not get branch">
      {(data) => <BranchView site={site} data={data} canManage={canManage} />}
    </DetailPage>
  );
}

/** The branch once it is read: its title, release badge and tabs. */
function BranchView({ site, data, canManage }: { site: Site; data: BranchDetail; canManage: boolean }) {
  const isMain = data._id === site.mainBranch;
  const base = `/sites/${site._id}/branches/${data._id}`;
  const props = { branch: data, canManage };
  return (
    <>
      <PageTitle
        level={2}
        title={data.name}
        badges={
          <>
            {isMain && <Badge variant="filled">main</Badge>}
            <Badge
              variant="light"
              tt="none"
              aria-label="Release"
              color={data.currentRelease ? 'teal' : 'gray'}
              leftSection={<IconPackage size={12} />}
            >
              {data.currentRelease?.name ?? 'no release'}
            </Badge>
            {data.hasPassword && (
              <Badge variant="light" color="yellow" leftSection={<IconLock size={12} />}>
                password
              </Badge>
            )}
          </>
        }
        description={<UrlLink url={data.url} label="Branch link" />}
        action={canManage && <BranchMenu branch={data} isMain={isMain} />}
      />
      <RouteTabs
        base={base}
        variant="pills"
        tabs={[
          { value: 'releases', label: 'Releases', icon: <IconPackage size={16} /> },
          { value: 'redirects', label: 'Redirects', icon: <IconArrowsSplit size={16} /> },
          { value: 'headers', label: 'Headers', icon: <IconList size={16} /> },
          { value: 'forms', label: 'Forms', icon: <IconForms size={16} /> },
          ...(canManage ? [{ value: 'settings', label: 'Settings', icon: <IconSettings size={16} /> }] : []),
        ]}
      />
      <Routes>
        <Route index element={<DefaultTab tab="releases" />} />
        <Route path="releases" element={<BranchReleasesTab {...props} />} />
        <Route path="redirects" element={<RedirectsTab {...props} />} />
        <Route path="headers" element={<BranchHeadersTab {...props} site={site} />} />
        <Route path="forms" element={<FormsTab {...props} />} />
        {canManage && <Route path="settings" element={<BranchSettingsTab branch={data} site={site} />} />}
        <Route path="*" element={<NotFound />} />
      </Routes>
    </>
  );
}
