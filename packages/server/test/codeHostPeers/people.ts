import type { PeerUser } from './types.ts';

/** The addresses GitHub lists at `/user/emails` when a test gave none: the one primary, verified email. */
export function emailsOf(user: PeerUser) {
  return (
    user.emails ?? (user.email ? [{ email: user.email, primary: true, verified: true, visibility: 'private' }] : [])
  );
}

/** The avatar a user was given, or one on the peer. */
export function avatarOf(user: PeerUser, base: string) {
  return user.avatarUrl ?? `${base}/avatars/${user.id}`;
}
