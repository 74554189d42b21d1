// The sign-in form's rules, in a module of their own: the sign-in page loads them (and zod) only
// when the form is first sent (InMemorySignIn.tsx).
export { signInBody } from '@wharf/contract';
