import { Accordion, Badge, Checkbox, Code, Group, Stack, Text, Tooltip } from '@mantine/core';
import { type ApiEndpoint, METHOD_COLORS, type ScopeGroup, scopeGroup, scopeGroups } from '@wharf/contract';
import { countOf } from '../../lib/plural.ts';
import { scopeGroupLabels } from './scopeLabels.ts';

function MethodBadge({ method }: { method: string }) {
  const color = METHOD_COLORS[method as keyof typeof METHOD_COLORS] ?? 'gray';
  return (
    <Badge color={color} variant="filled" size="sm" w={62} ff="monospace" style={{ flexShrink: 0 }}>
      {method}
    </Badge>
  );
}

function EndpointRow({
  endpoint,
  checked,
  onChange,
}: {
  endpoint: ApiEndpoint;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const label = (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <MethodBadge method={endpoint.method} />
      <Stack gap={0} miw={0}>
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {endpoint.path}
        </Text>
        <Text size="xs" c="dimmed">
          {endpoint.summary}
          {endpoint.apiScope && (
            <>
              {' · '}
              <Code fz="xs">{endpoint.apiScope}</Code>
            </>
          )}
        </Text>
      </Stack>
    </Group>
  );
  const checkbox = (
    <Checkbox
      label={label}
      checked={checked}
      disabled={endpoint.apiScope === null}
      onChange={(event) => onChange(event.currentTarget.checked)}
      aria-label={`${endpoint.method.toUpperCase()} ${endpoint.path}`}
    />
  );
  if (endpoint.apiScope) return checkbox;
  return (
    <Tooltip label="This endpoint has no scope: a token can never call it" position="top-start" withArrow>
      <div>{checkbox}</div>
    </Tooltip>
  );
}

/** spec.md §2: a token's scopes, chosen per group or per endpoint. */
export function ScopePicker({
  endpoints,
  value,
  onChange,
}: {
  endpoints: ApiEndpoint[];
  value: string[];
  onChange: (scopes: string[]) => void;
}) {
  const selected = new Set(value);
  const set = (scopes: string[], on: boolean) => {
    const next = new Set(selected);
    for (const scope of scopes) {
      if (on) next.add(scope);
      else next.delete(scope);
    }
    onChange([...next]);
  };
  const byGroup = new Map<ScopeGroup, ApiEndpoint[]>(scopeGroups.map((group) => [group, []]));
  const unscoped: ApiEndpoint[] = [];
  for (const endpoint of endpoints) {
    if (endpoint.apiScope) byGroup.get(scopeGroup(endpoint.apiScope))?.push(endpoint);
    else unscoped.push(endpoint);
  }

  return (
    <Accordion variant="contained" multiple chevronPosition="right">
      {scopeGroups.map((group) => {
        const groupEndpoints = byGroup.get(group) ?? [];
        const scopes = [...new Set(groupEndpoints.map((endpoint) => endpoint.apiScope!))];
        const count = scopes.filter((scope) => selected.has(scope)).length;
        return (
          <Accordion.Item key={group} value={group}>
            <Group wrap="nowrap" gap={0} pl="md">
              <Checkbox
                // 24px: a target of its own beside the group's control (WCAG 2.5.8).
                size="md"
                aria-label={`All ${scopeGroupLabels[group]} scopes`}
                checked={scopes.length > 0 && count === scopes.length}
                indeterminate={count > 0 && count < scopes.length}
                onChange={(event) => set(scopes, event.currentTarget.checked)}
              />
              <Accordion.Control>
                <Group justify="space-between" wrap="nowrap" pr="xs">
                  <Text fw={500}>{scopeGroupLabels[group]}</Text>
                  <Text size="xs" c="dimmed">
                    {count} of {countOf(scopes.length, 'scope')}
                  </Text>
                </Group>
              </Accordion.Control>
            </Group>
            <Accordion.Panel>
              <Stack gap="sm">
                {groupEndpoints.map((endpoint) => (
                  <EndpointRow
                    key={`${endpoint.method} ${endpoint.path}`}
                    endpoint={endpoint}
                    checked={selected.has(endpoint.apiScope!)}
                    onChange={(on) => set([endpoint.apiScope!], on)}
                  />
                ))}
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        );
      })}
      {unscoped.length > 0 && (
        <Accordion.Item value="unscoped">
          <Accordion.Control>
            <Group justify="space-between" wrap="nowrap" pr="xs">
              <Text fw={500} c="dimmed">
                Not available to tokens
              </Text>
              <Text size="xs" c="dimmed">
                {countOf(unscoped.length, 'endpoint')}
              </Text>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <Stack gap="sm">
              {unscoped.map((endpoint) => (
                <EndpointRow
                  key={`${endpoint.method} ${endpoint.path}`}
                  endpoint={endpoint}
                  checked={false}
                  onChange={() => undefined}
                />
              ))}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      )}
    </Accordion>
  );
}
