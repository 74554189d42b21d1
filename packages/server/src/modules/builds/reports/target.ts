import type { Forge } from '../webhooks/forges.ts';
import { type Json, obj, str } from '../webhooks/payload.ts';

/**
 * Where a build reports: its forge and the address of its repository in that forge's API
 * (`https://api.github.com/repos/acme/shop`, `https://git.example.com/api/v4/projects/42`), read
 * from the signed delivery that queued it, so GitHub Enterprise and a GitLab or Gitea served
 * under a path are found as they are.
 */
export interface ReportTarget {
  forge: Forge;
  api: string;
}

/** `https://host/prefix/owner/repo` less `owner/repo`: where the forge is served, with its path. */
function forgeRoot(webUrl: string, fullName: string): string | null {
  if (!fullName || !webUrl.endsWith(`/${fullName}`)) return null;
  return webUrl.slice(0, -fullName.length);
}

/** The repository's address in its forge's API, as the delivery gives what it is made of. */
function apiOf(forge: Forge, json: Json): string | null {
  if (forge === 'github') return str(obj(json.repository).url);
  if (forge === 'gitlab') {
    const project = obj(json.project);
    const root = forgeRoot(str(project.web_url), str(project.path_with_namespace));
    return root && typeof project.id === 'number' ? `${root}api/v4/projects/${project.id}` : null;
  }
  // Gitea and Forgejo serve their API under /api/v1 of where they are served.
  const repository = obj(json.repository);
  const fullName = str(repository.full_name);
  const root = forgeRoot(str(repository.html_url), fullName);
  return root ? `${root}api/v1/repos/${fullName}` : null;
}

/** The report target a delivery names, or null when it names none Wharf can use (only https is). */
export function reportTargetOf(forge: Forge, body: unknown): ReportTarget | null {
  const api = apiOf(forge, obj(body));
  return api && URL.parse(api)?.protocol === 'https:' ? { forge, api } : null;
}
