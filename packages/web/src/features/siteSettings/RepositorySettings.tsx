import {
  Button,
  Card,
  Code,
  Group,
  Radio,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isRepositoryOf, type Repository, type RepositoryBody, repositoryBody, type Site } from '@wharf/contract';
import { useState } from 'react';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { CopyAction } from '../../components/CopyAction.tsx';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { SaveButtons } from '../../components/SaveButtons.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { contractResolver, startFormFrom } from '../../lib/form.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { exactTime, relativeTime } from '../../lib/time.ts';
import { BuildHooksCard } from '../builds/BuildHooksCard.tsx';
import { BuildVariablesCard } from '../builds/BuildVariablesCard.tsx';
import { ForgeTokenCard } from '../builds/ForgeTokenCard.tsx';
import { WebhookCard } from '../builds/WebhookCard.tsx';
import { ForgeSetupCard, useForgeSetup } from '../codeHosts/ForgeSetupCard.tsx';
import { type PickedRepository, RepositoryPicker } from '../codeHosts/RepositoryPicker.tsx';
import { LinkResult } from '../user/LinkResult.tsx';

type Values = Required<RepositoryBody>;

const NEW_REPOSITORY: Values = {
  url: '',
  productionBranch: 'main',
  baseDirectory: '',
  buildCommand: '',
  publishDirectory: '',
  image: 'node:24',
  branchDeploys: 'all',
  branches: [],
  previews: true,
  watchPaths: [],
};

const valuesOf = (repository: Repository | null): Values =>
  repository
    ? {
        url: repository.url,
        productionBranch: repository.productionBranch,
        baseDirectory: repository.baseDirectory,
        buildCommand: repository.buildCommand,
        publishDirectory: repository.publishDirectory,
        image: repository.image,
        branchDeploys: repository.branchDeploys,
        branches: repository.branches,
        previews: repository.previews,
        watchPaths: repository.watchPaths,
      }
    : NEW_REPOSITORY;

/**
 * The SSH host key the first clone learnt, which later clones insist on, and the way to forget it
 * once the forge has really changed its key.
 */
function HostKey({ site, repository }: { site: Site; repository: Repository }) {
  const client = useQueryClient();
  const query = apiQuery(api.getSiteRepository, { params: { siteId: site._id } });
  const forget = useMutation({
    mutationFn: () => call(api.forgetSshHostKey, { params: { siteId: site._id } }),
    onSuccess: (updated) => {
      client.setQueryData(query.queryKey, updated);
      notifySuccess('Host key forgotten: the next clone learns the one the host shows');
    },
    onError: (error) => notifyFailure('forget host key', error),
  });
  const { sshHostKey } = repository;
  if (!sshHostKey) return null;
  return (
    <Group gap="xs" justify="space-between" align="flex-start">
      <Text size="xs" c="dimmed" title={exactTime(sshHostKey.learntAt)} style={{ wordBreak: 'break-all', flex: 1 }}>
        The host’s key, learnt at the first clone {relativeTime(sshHostKey.learntAt)} and required since:{' '}
        {sshHostKey.fingerprints.join(', ')}
      </Text>
      <Button size="compact-xs" variant="subtle" loading={forget.isPending} onClick={() => forget.mutate()}>
        Forget host key
      </Button>
    </Group>
  );
}

/** The public half of the key Wharf clones with, to add at the forge, and what can be done with it. */
function DeployKey({ site, repository }: { site: Site; repository: Repository }) {
  const client = useQueryClient();
  const [replacing, replace] = useDisclosure(false);
  const [disconnecting, disconnect] = useDisclosure(false);
  const query = apiQuery(api.getSiteRepository, { params: { siteId: site._id } });
  const renew = useMutation({
    mutationFn: () => call(api.renewDeployKey, { params: { siteId: site._id } }),
    onSuccess: (renewed) => {
      client.setQueryData(query.queryKey, renewed);
      replace.close();
      notifySuccess('Deploy key replaced: add the new one at your forge');
    },
    onError: (error) => notifyFailure('replace deploy key', error),
  });
  const remove = useMutation({
    mutationFn: () => call(api.deleteSiteRepository, { params: { siteId: site._id } }),
    onSuccess: () => {
      client.setQueryData(query.queryKey, null);
      disconnect.close();
      notifySuccess('Repository disconnected');
    },
    onError: (error) => notifyFailure('disconnect repository', error),
  });
  const { deployKey } = repository;
  return (
    <Card>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Deploy key
        </Title>
        <Text size="sm" c="dimmed">
          Add this public key to the repository as a read-only deploy key (GitHub: Settings › Deploy keys; GitLab:
          Settings › Repository › Deploy keys; Gitea and Forgejo: Settings › Deploy keys). Wharf clones over SSH with
          it; its private half never leaves this installation.
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Code
            block
            aria-label="Public deploy key"
            style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap', flex: 1 }}
          >
            {deployKey.publicKey}
          </Code>
          <CopyAction value={deployKey.publicKey} label="Copy the public deploy key" size="lg" />
        </Group>
        <Text size="xs" c="dimmed" title={exactTime(deployKey.createdAt)} style={{ wordBreak: 'break-all' }}>
          {deployKey.fingerprint} · made {relativeTime(deployKey.createdAt)}
        </Text>
        <HostKey site={site} repository={repository} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={replace.open}>
            Replace key
          </Button>
          <Button color="red" variant="light" onClick={disconnect.open}>
            Disconnect
          </Button>
        </Group>
      </Stack>
      <ConfirmModal
        opened={replacing}
        onClose={replace.close}
        title="Replace the deploy key"
        confirmLabel="Replace key"
        color="harbour"
        loading={renew.isPending}
        onConfirm={() => renew.mutate()}
      >
        Wharf forgets the current key at once: builds can clone again once the new public key is added at the forge.
      </ConfirmModal>
      <ConfirmModal
        opened={disconnecting}
        onClose={disconnect.close}
        title="Disconnect the repository"
        confirmLabel="Disconnect"
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
      >
        Nothing builds from <b>{repository.url}</b> any more and its deploy key is forgotten; releases and branches
        stay.
      </ConfirmModal>
    </Card>
  );
}

/** The build settings of a connected (or to be connected) repository. */
function RepositoryForm({ site, repository }: { site: Site; repository: Repository | null }) {
  const client = useQueryClient();
  const query = apiQuery(api.getSiteRepository, { params: { siteId: site._id } });
  const form = useForm<Values>({
    initialValues: valuesOf(repository),
    validate: contractResolver<Values>(repositoryBody),
  });
  // A repository picked from the user's account is set up there (deploy key, webhook) once connected.
  const [picked, setPicked] = useState<PickedRepository | null>(null);
  const setUp = useForgeSetup(site);
  const save = useMutation({
    mutationFn: (values: Values) => call(api.setSiteRepository, { params: { siteId: site._id }, body: values }),
    onSuccess: (saved) => {
      startFormFrom(form, valuesOf(saved));
      client.setQueryData(query.queryKey, saved);
      notifySuccess(repository ? 'Build settings saved' : 'Repository connected');
      if (picked?.repository.canSetUp && isRepositoryOf(saved.url, picked.repository))
        setUp.mutate({ provider: picked.provider, repository: picked.repository.fullName });
    },
    onError: (error) => notifyFailure('connect repository', error),
  });
  const pick = ({ provider, repository: chosen }: PickedRepository) => {
    setPicked({ provider, repository: chosen });
    // A private repository is cloned over SSH with the deploy key; a public one over HTTPS needs none.
    form.setValues({ url: chosen.private ? chosen.sshUrl : chosen.httpsUrl, productionBranch: chosen.defaultBranch });
  };
  return (
    <Card>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Title order={2} size="h4">
            {repository ? 'Repository' : 'Connect a repository'}
          </Title>
          <Text size="sm" c="dimmed">
            Wharf builds the site from this repository in a container and publishes what the build leaves in the publish
            directory: the production branch to the main branch, other branches and pull requests to their own.
          </Text>
          {!repository && <RepositoryPicker onPick={pick} />}
          <TextInput
            label="Repository URL"
            description="https://host/owner/repo.git, or git@host:owner/repo.git to clone with the deploy key"
            placeholder="git@github.com:acme/shop.git"
            required
            {...form.getInputProps('url')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Production branch" required {...form.getInputProps('productionBranch')} />
            <TextInput
              label="Build image"
              description="The container image the build runs in"
              required
              {...form.getInputProps('image')}
            />
            <TextInput
              label="Base directory"
              description="Where the build runs; empty for the repository root"
              placeholder="apps/docs"
              {...form.getInputProps('baseDirectory')}
            />
            <TextInput
              label="Publish directory"
              description="What the build leaves to publish, within the base directory"
              placeholder="dist"
              {...form.getInputProps('publishDirectory')}
            />
          </SimpleGrid>
          <TextInput
            label="Build command"
            description="Run in the base directory; empty to publish the directory as it is"
            placeholder="npm ci && npm run build"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...form.getInputProps('buildCommand')}
          />
          <Radio.Group label="Other branches" {...form.getInputProps('branchDeploys')}>
            <Stack gap="xs" mt="xs">
              <Radio value="all" label="Build every branch at its own address" />
              <Radio value="none" label="Build the production branch only" />
              <Radio value="listed" label="Build the branches listed below" />
            </Stack>
          </Radio.Group>
          {form.values.branchDeploys === 'listed' && (
            <TagsInput
              label="Branches"
              description="Names or patterns such as feature/*; Enter after each"
              {...form.getInputProps('branches')}
            />
          )}
          <TagsInput
            label="Watch paths"
            description="A push builds only when it changes one of these, from the repository root (docs/**, packages/ui); none: any change under the base directory"
            {...form.getInputProps('watchPaths')}
          />
          <Switch
            label="Build pull and merge requests as previews at pr-{number}"
            {...form.getInputProps('previews', { type: 'checkbox' })}
          />
          <SaveButtons
            justify="flex-end"
            dirty={form.isDirty()}
            saving={save.isPending || setUp.isPending}
            onDiscard={() => form.reset()}
          />
        </Stack>
      </form>
    </Card>
  );
}

/** Settings › Repository: what the site builds from, and the key it clones with. */
export function RepositorySettings({ site }: { site: Site }) {
  const repository = useQuery(apiQuery(api.getSiteRepository, { params: { siteId: site._id } }));
  if (repository.isPending) return <Skeleton h={320} />;
  if (repository.error) return <ErrorPanel title="Could not get repository" query={repository} />;
  return (
    <>
      <LinkResult />
      <RepositoryForm key={repository.data?.connectedAt ?? 'new'} site={site} repository={repository.data} />
      {repository.data && <ForgeSetupCard site={site} repository={repository.data} />}
      {repository.data && <DeployKey site={site} repository={repository.data} />}
      {repository.data && <WebhookCard site={site} repository={repository.data} />}
      {repository.data && <ForgeTokenCard site={site} repository={repository.data} />}
      {repository.data && <BuildVariablesCard site={site} />}
      {repository.data && <BuildHooksCard site={site} repository={repository.data} />}
    </>
  );
}
