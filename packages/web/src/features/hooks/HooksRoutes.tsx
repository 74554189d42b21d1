import { Route, Routes } from 'react-router';
import { NotFound } from '../../components/NotFound.tsx';
import { AddHookPage } from './AddHookPage.tsx';
import { HookPage } from './HookPage.tsx';
import { HooksList } from './HooksList.tsx';
import type { HookScreens } from './hookApi.ts';

/** The hook screens of one context: the list, /add and /{hookId} with its tabs. */
export function HooksRoutes(screens: HookScreens) {
  return (
    <Routes>
      <Route index element={<HooksList {...screens} />} />
      <Route path="add" element={<AddHookPage {...screens} />} />
      <Route path=":hookId/*" element={<HookPage {...screens} />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
