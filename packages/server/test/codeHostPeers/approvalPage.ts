import { htmlPage } from './http.ts';
import type { Answer } from './types.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The provider's consent screen: one form posting back to the authorize path, so a browser test can
 * click "Authorize" (or "Cancel") as a person would.
 */
export function approvalPage(input: {
  provider: string;
  action: string;
  pendingId: string;
  login: string;
  scopes: string[];
}): Answer {
  const scopes = input.scopes.map((scope) => `<li>${escapeHtml(scope)}</li>`).join('');
  return htmlPage(
    200,
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Authorize Wharf</title></head>
<body>
  <h1>Authorize Wharf</h1>
  <p>Wharf asks ${escapeHtml(input.provider)} for access to the account <strong>${escapeHtml(input.login)}</strong>.</p>
  <ul>${scopes}</ul>
  <form method="post" action="${escapeHtml(input.action)}">
    <input type="hidden" name="pending" value="${escapeHtml(input.pendingId)}">
    <button type="submit" name="decision" value="approve">Authorize</button>
    <button type="submit" name="decision" value="deny">Cancel</button>
  </form>
</body>
</html>`,
  );
}

/** A page for requests the provider will not send back to the client (unknown client, foreign redirect URI). */
export function refusalPage(message: string): Answer {
  return htmlPage(
    400,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization failed</title></head><body><h1>Authorization failed</h1><p>${escapeHtml(message)}</p></body></html>`,
  );
}
