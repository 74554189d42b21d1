import { type ComponentType, useState } from 'react';
import { lazyChunk } from '../lib/chunks.ts';
import { OnDemand } from './OnDemand.tsx';

/**
 * A modal whose code loads when it is first opened (ModalOnDemand), not with the page that may
 * open it: its form, and the contract's schemas it validates with, cost nothing to a page nobody
 * creates from. It brings all of Mantine's styles, which that page may not have loaded.
 */
export function lazyModal<P extends { opened: boolean }>(load: () => Promise<ComponentType<P>>) {
  return lazyWithAllStyles(load);
}

/** Any component whose code, and all of Mantine's styles, load when it is first rendered (in OnDemand). */
export function lazyWithAllStyles<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazyChunk(async () => {
    const [, component] = await Promise.all([import('./allMantineStyles.ts'), load()]);
    return component;
  });
}

/** Renders a lazyModal from its first opening on: mounted after, it closes with its transition. */
export function ModalOnDemand<P extends { opened: boolean }>({
  modal: Modal,
  ...props
}: P & { modal: ComponentType<P> }) {
  const [wanted, setWanted] = useState(props.opened);
  if (props.opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <OnDemand>
      <Modal {...(props as unknown as P)} />
    </OnDemand>
  );
}
