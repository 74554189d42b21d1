import { type ComponentType, lazy, Suspense, useState } from 'react';

/**
 * A modal whose code loads when it is first opened, not with the page that may open it: its form,
 * and the contract's schemas it validates with, cost nothing to a page nobody creates from. Once
 * opened it stays mounted, so that it closes with its transition like any modal. It brings all of
 * Mantine's styles, which the page that opens it may not have loaded.
 */
export function lazyModal<P extends { opened: boolean }>(load: () => Promise<ComponentType<P>>) {
  const Modal = lazy(async () => {
    const [component] = await Promise.all([load(), import('./allMantineStyles.ts')]);
    return { default: component };
  });
  return function LazyModal(props: P) {
    const [wanted, setWanted] = useState(props.opened);
    if (props.opened && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Modal {...props} />
      </Suspense>
    );
  };
}
