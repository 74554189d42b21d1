import { Anchor, Card, Code, Divider, Group, Input, Select, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Site } from '@wharf/contract';
import { ColorField } from '../../components/ColorField.tsx';
import { CopyAction } from '../../components/CopyAction.tsx';
import { NameCheckIndicator } from '../../components/NameCheckIndicator.tsx';
import { SaveButtons } from '../../components/SaveButtons.tsx';
import { apiQuery, call } from '../../lib/api.ts';
import { startFormFrom } from '../../lib/form.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.ts';
import { useSiteNameCheck } from '../../lib/useNameCheck.ts';
import { DomainsEditor } from './DomainsEditor.tsx';
import { type SiteValues, siteBodyOf, siteValues, validateSite } from './domainValues.ts';

const SPA_DOCS = 'https://developer.mozilla.org/en-US/docs/Glossary/SPA';

function SiteId({ id }: { id: string }) {
  return (
    <Input.Wrapper label="Site ID" description="Names the site in the upload command and the API">
      <Group gap="xs" mt={4} wrap="nowrap">
        <Code fz="sm" px="sm" py={6} style={{ flex: 1, overflowWrap: 'anywhere' }}>
          {id}
        </Code>
        <CopyAction value={id} label="Copy the site ID" size="lg" />
      </Group>
    </Input.Wrapper>
  );
}

/** Settings › General: name, color, main branch, SPA mode, pretty URLs and domains; Discard and Save. */
export function GeneralSettings({ site }: { site: Site }) {
  const client = useQueryClient();
  const form = useForm<SiteValues>({ initialValues: siteValues(site), validate: validateSite });
  // The site's own name is not checked: it is taken, by this very site.
  const nameCheck = useSiteNameCheck(form.values.name === site.name ? '' : form.values.name);
  const save = useMutation({
    mutationFn: (values: SiteValues) =>
      call(api.updateSite, { params: { siteId: site._id }, body: siteBodyOf(values) }),
    onSuccess: async (saved) => {
      startFormFrom(form, siteValues(saved));
      notifySuccess('Site saved');
      client.setQueryData(apiQuery(api.getSite, { params: { siteId: site._id } }).queryKey, saved);
      await Promise.all([
        client.invalidateQueries({ queryKey: [api.listTeamSites.path] }),
        client.invalidateQueries({ queryKey: [api.listOrgSites.path] }),
        client.invalidateQueries({ queryKey: [api.listBranches.path] }),
      ]);
    },
    onError: (error) => notifyFailure('update site', error),
  });
  const submit = form.onSubmit((values) => {
    if (nameCheck.error) form.setFieldError('name', nameCheck.error);
    else save.mutate(values);
  });

  return (
    <Card>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h4">
            General
          </Title>
          <SiteId id={site._id} />
          <TextInput
            label="Name"
            description="Lowercase letters, digits and hyphens: renaming changes every address of the site"
            withAsterisk
            {...form.getInputProps('name')}
            error={form.errors.name ?? nameCheck.error}
            rightSection={<NameCheckIndicator check={nameCheck} />}
          />
          <ColorField description="Shown where the site has no logo" {...form.getInputProps('color')} />
          <Select
            label="Main branch"
            description="Served at the site's own address and its domains"
            data={site.branches.map((branch) => ({ value: branch._id, label: branch.name }))}
            allowDeselect={false}
            searchable
            withAsterisk
            {...form.getInputProps('mainBranch')}
          />
          <Switch
            label="SPA mode"
            description={
              <>
                Paths that name no file serve /index.html, for single-page applications that route in the browser.{' '}
                <Anchor href={SPA_DOCS} target="_blank" rel="noopener noreferrer" size="xs">
                  What is a single-page application?
                </Anchor>
              </>
            }
            {...form.getInputProps('spa', { type: 'checkbox' })}
          />
          <Switch
            label="Pretty URLs"
            description="/about.html redirects to /about, which serves about.html"
            {...form.getInputProps('prettyUrls', { type: 'checkbox' })}
          />
          <Divider />
          <DomainsEditor form={form} site={site} />
          <SaveButtons
            justify="flex-end"
            dirty={form.isDirty()}
            saving={save.isPending}
            onDiscard={() => form.reset()}
          />
        </Stack>
      </form>
    </Card>
  );
}
