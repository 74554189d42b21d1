import './app/zodUnderCsp.ts';
import './app/boot.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { preloadPageOf } from './app/pages.ts';
import { createQueryClient } from './app/queryClient.ts';
import { watchChunkFailures } from './lib/chunks.ts';
import { watchForNewBuilds } from './lib/consoleBuild.ts';
import { prefetchSession } from './lib/currentOrg.tsx';
import { systemEnvQuery } from './lib/systemEnv.ts';

// Before any code is loaded on demand: a failure to load it is handled, never a blank page.
watchChunkFailures();
watchForNewBuilds();
// The page's code, the session and the installation's settings (whether it counts page views,
// so whether the first page carries its notice) are asked for at once, before anything renders.
const queryClient = createQueryClient();
prefetchSession(queryClient);
void queryClient.prefetchQuery(systemEnvQuery);
preloadPageOf(window.location.pathname);

const root = createRoot(document.getElementById('root')!);
// In a transition, the first render yields to the browser between slices (index.html shows 'Initializing' meanwhile).
startTransition(() =>
  root.render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);
