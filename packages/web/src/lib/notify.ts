import { notifications } from '@mantine/notifications';

/** The actions of spec.md §8, as they appear in 'Could not {action}: {error text}'. */
export type FailedAction =
  | 'sign out'
  | 'get user'
  | 'sign in'
  | 'create org'
  | 'update org'
  | 'get current org'
  | 'select org'
  | 'create site'
  | 'validate site name'
  | 'list teams'
  | 'create team'
  | 'list members'
  | 'delete members'
  | 'toggle admin'
  | 'upload logo'
  | 'remove logo'
  | 'create invite'
  | 'list invites'
  | 'delete invite'
  | 'list sites'
  | 'search sites'
  | 'create api token'
  | 'get api token'
  | 'update api token'
  | 'delete api token'
  | 'update team'
  | 'delete team'
  | 'add members'
  | 'update site'
  | 'delete site'
  | 'save headers'
  | 'set site password'
  | 'remove site password'
  | 'set release password'
  | 'remove release password'
  | 'list branches'
  | 'create branch'
  | 'rename branch'
  | 'delete branch'
  | 'validate branch name'
  | 'set branch release'
  | 'set branch password'
  | 'remove branch password'
  | 'save redirects'
  | 'save forms'
  | 'list releases'
  | 'rename releases'
  | 'delete releases'
  | 'list tokens'
  | 'create tokens'
  | 'delete tokens'
  | 'list hook'
  | 'create hook'
  | 'get hook'
  | 'update hook'
  | 'delete hook'
  | 'list hook events'
  | 'list hook deliveries'
  | 'list submissions'
  | 'delete submission'
  | 'export submissions'
  | 'list audit log'
  | 'redeliver'
  | 'send test'
  | 'load backend env'
  | 'disconnect account'
  | 'retry certificate'
  | 'approve sign-in'
  | 'cancel sign-in'
  | 'publish release'
  | 'list release files'
  | 'get repository'
  | 'connect repository'
  | 'disconnect repository'
  | 'replace deploy key'
  | 'start build'
  | 'cancel build'
  | 'retry build'
  | 'clear build cache'
  | 'create build hook'
  | 'delete build hook'
  | 'create build variable'
  | 'update build variable'
  | 'delete build variable'
  | 'save forge token'
  | 'remove forge token'
  | 'forget host key'
  | 'replace webhook secret'
  | 'list repositories'
  | 'set up repository at forge';

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The one shape of every failure the console reports: spec.md §8. */
export function failureMessage(action: FailedAction, error: unknown): string {
  return `Could not ${action}: ${errorText(error)}`;
}

/** A failure toast: the title says what could not be done, the body what the server answered. */
export function notifyFailure(action: FailedAction, error: unknown) {
  notifications.show({ color: 'red', title: `Could not ${action}`, message: errorText(error) });
}

export function notifySuccess(message: string) {
  notifications.show({ color: 'teal', message });
}
