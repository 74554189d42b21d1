import type { SignInError } from '@wharf/contract';

/** What a refused sign-in or account link tells the person, by the server's code (SIGN_IN_ERRORS). */
const texts: Record<SignInError, (provider: string) => string> = {
  SIGN_IN_NOT_ALLOWED: (provider) =>
    `Your ${provider} account is not allowed to sign in here: it is not a member of an organization or group this installation accepts. Ask its operator for access.`,
  SIGN_IN_STATE_MISMATCH: () =>
    'This sign-in was not started in this browser, or it took too long. Please sign in again.',
  SIGN_IN_EXPIRED: () => 'This sign-in link was already used or has expired. Please sign in again.',
  SIGN_IN_CANCELLED: (provider) => `Sign-in was cancelled at ${provider}.`,
  SIGN_IN_FAILED: (provider) =>
    `${provider} did not confirm who you are: its answer could not be verified. Please try again; if it keeps failing, tell the operator.`,
  SIGN_IN_PROVIDER_UNREACHABLE: (provider) => `${provider} could not be reached. Please try again later.`,
  SIGN_IN_METHOD_UNKNOWN: () => 'This sign-in method is not set up on this installation.',
  IDENTITY_IN_USE: (provider) => `That ${provider} account is already connected to another Wharf user.`,
};

/** The text of a refusal; a code this console does not know still gets an honest sentence. */
export function signInErrorText(code: string, provider: string): string {
  const text = Object.hasOwn(texts, code) ? texts[code as SignInError] : null;
  if (!text) return 'Signing in did not succeed. Please try again; if it keeps failing, tell the operator.';
  const sentence = text(provider);
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
