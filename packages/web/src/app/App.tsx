import './mantineStyles.css';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { Initializing } from '../components/Initializing.tsx';
import { OrgLiveUpdates } from '../features/realtime/OrgLiveUpdates.tsx';
import { RealtimeProvider } from '../features/realtime/RealtimeProvider.tsx';
import { Telemetry } from '../features/telemetry/Telemetry.tsx';
import { CurrentOrgProvider } from '../lib/currentOrg.tsx';
import { ConsoleNoticeBar } from './ConsoleNoticeBar.tsx';
import { CrashBoundary } from './CrashBoundary.tsx';
import { getStyleNonce } from './cspNonce.ts';
import { NotificationsOnDemand } from './NotificationsOnDemand.tsx';
import { AppRoutes } from './routes.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

const colorSchemeManager = localStorageColorSchemeManager({ key: 'wharf.colorScheme' });

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
      getStyleNonce={getStyleNonce}
    >
      {/* Bottom right: a toast never hides the header or a page's menu, which sit at the top. */}
      <NotificationsOnDemand position="bottom-right" autoClose={6000} />
      <ConsoleNoticeBar />
      <CrashBoundary>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <CurrentOrgProvider>
              <RealtimeProvider>
                <Suspense fallback={<Initializing />}>
                  <AppRoutes />
                </Suspense>
                <OrgLiveUpdates />
                <Telemetry />
              </RealtimeProvider>
            </CurrentOrgProvider>
          </BrowserRouter>
        </QueryClientProvider>
      </CrashBoundary>
    </MantineProvider>
  );
}
