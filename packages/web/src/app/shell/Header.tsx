import { Burger, Divider, Group, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { Brand } from '../../components/Brand.tsx';
import { EntityAvatar } from '../../components/EntityAvatar.tsx';
import { useCurrentOrgState } from '../../lib/currentOrg.tsx';
import { ColorSchemeToggle } from './ColorSchemeToggle.tsx';
import { CreateMenu } from './CreateMenu.tsx';
import { SearchButton } from './SearchButton.tsx';
import { UserMenu } from './UserMenu.tsx';

export function Header({ navbarOpened, toggleNavbar }: { navbarOpened: boolean; toggleNavbar: () => void }) {
  const { current } = useCurrentOrgState();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap" miw={0}>
        {current && (
          <Burger
            opened={navbarOpened}
            onClick={toggleNavbar}
            hiddenFrom="sm"
            size="sm"
            aria-label={navbarOpened ? 'Close the navigation' : 'Open the navigation'}
          />
        )}
        <UnstyledButton component={Link} to="/" aria-label="Wharf home">
          <Brand size={28} />
        </UnstyledButton>
        {current && (
          <>
            <Divider orientation="vertical" visibleFrom="xs" />
            <UnstyledButton component={Link} to="/" visibleFrom="xs" miw={0}>
              <Group gap={8} wrap="nowrap" miw={0}>
                <EntityAvatar name={current.org.name} color={current.org.color} logo={current.org.logo} size={26} />
                <Text fw={600} size="sm" truncate maw={180}>
                  {current.org.name}
                </Text>
              </Group>
            </UnstyledButton>
          </>
        )}
      </Group>
      <Group gap="xs" wrap="nowrap">
        {current && <SearchButton />}
        {current && <CreateMenu />}
        <ColorSchemeToggle />
        <UserMenu />
      </Group>
    </Group>
  );
}
