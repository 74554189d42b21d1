// Signed out, only the first pages' Mantine styles are loaded (app/mantineStyles.css): the tabs are this page's own.
import '@mantine/core/styles/Tabs.layer.css';
import { Paper, Skeleton, Tabs } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Markdown from 'react-markdown';
import { useLocation, useNavigate } from 'react-router';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { NotFound } from '../../components/NotFound.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import classes from './LegalPage.module.css';

/** The texts are static files the operator of an installation replaces in the built console. */
const documents = {
  terms: { label: 'Terms of service', file: '/legal/terms.md' },
  privacy: { label: 'Privacy policy', file: '/legal/privacy.md' },
} as const;
type Document = keyof typeof documents;

function documentOf(pathname: string): Document | null {
  const rest = pathname.replace(/^\/legal\/?/, '').replace(/\/$/, '');
  if (rest === '' || rest === 'terms') return 'terms';
  if (rest === 'privacy') return 'privacy';
  return null;
}

function LegalText({ document }: { document: Document }) {
  const { file } = documents[document];
  const text = useQuery({
    queryKey: ['legal', file],
    queryFn: async () => {
      const response = await fetch(file);
      if (!response.ok) throw new Error(`${file} answered ${response.status}`);
      return response.text();
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (text.error) return <ErrorPanel title="Could not load this text" query={text} />;
  if (text.isPending) return <Skeleton h={300} />;
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} className={classes.text}>
      <Markdown>{text.data}</Markdown>
    </Paper>
  );
}

/** /legal, /legal/terms and /legal/privacy (spec.md §2). */
export function LegalPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const document = documentOf(pathname);
  if (!document) return <NotFound />;
  return (
    <>
      <PageTitle title="Legal" />
      <Tabs variant="pills" value={document} onChange={(value) => value && navigate(`/legal/${value}`)} mb="lg">
        <Tabs.List>
          {(Object.keys(documents) as Document[]).map((key) => (
            <Tabs.Tab key={key} value={key}>
              {documents[key].label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {/* What each tab controls (`aria-controls`): the document below is the active one's, so these stay empty. */}
        {(Object.keys(documents) as Document[]).map((key) => (
          <Tabs.Panel key={key} value={key}>
            {null}
          </Tabs.Panel>
        ))}
      </Tabs>
      <LegalText document={document} />
    </>
  );
}
