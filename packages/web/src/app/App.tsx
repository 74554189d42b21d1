import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/dropzone/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { CurrentOrgProvider } from '../features/orgs/currentOrg.tsx';
import { OrgLiveUpdates } from '../features/realtime/OrgLiveUpdates.tsx';
import { RealtimeProvider } from '../features/realtime/RealtimeProvider.tsx';
import { Telemetry } from '../features/telemetry/Telemetry.tsx';
import { CrashBoundary } from './CrashBoundary.tsx';
import { getStyleNonce } from './cspNonce.ts';
import { createQueryClient } from './queryClient.ts';
import { AppRoutes } from './routes.tsx';
import { theme } from './theme.ts';

const colorSchemeManager = localStorageColorSchemeManager({ key: 'wharf.colorScheme' });

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
      getStyleNonce={getStyleNonce}
    >
      {/* Bottom right: a toast never hides the header or a page's menu, which sit at the top. */}
      <Notifications position="bottom-right" autoClose={6000} />
      <CrashBoundary>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <CurrentOrgProvider>
              <RealtimeProvider>
                <AppRoutes />
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
