import type { RequestListener } from 'node:http';
import type { Db } from '../../db/schema.ts';

const PREFIX = '/.well-known/acme-challenge/';
/** An answer outlives its order by a margin; expired rows are left to the next write. */
const CHALLENGE_TTL_MS = 10 * 60_000;

/**
 * HTTP-01 answers, kept in the database: the process that orders a certificate is rarely the one
 * the ACME server's request reaches (another worker, later another node).
 */
export class HttpChallenges {
  constructor(private readonly db: Db) {}

  async add(token: string, keyAuthorization: string) {
    const now = Date.now();
    await this.db.deleteFrom('acme_challenges').where('expires_at', '<', new Date(now).toISOString()).execute();
    await this.db
      .insertInto('acme_challenges')
      .values({
        token,
        key_authorization: keyAuthorization,
        expires_at: new Date(now + CHALLENGE_TTL_MS).toISOString(),
      })
      .onConflict((c) => c.column('token').doUpdateSet({ key_authorization: keyAuthorization }))
      .execute();
  }

  async remove(token: string) {
    await this.db.deleteFrom('acme_challenges').where('token', '=', token).execute();
  }

  async answerFor(token: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('acme_challenges')
      .select('key_authorization')
      .where('token', '=', token)
      .where('expires_at', '>', new Date().toISOString())
      .executeTakeFirst();
    return row?.key_authorization ?? null;
  }
}

/**
 * Answers ACME's HTTP-01 requests for the tokens under way, on any host; any other request (and a
 * token Wharf does not know, which a site's own `.well-known` may hold) goes on to `next`.
 */
export function acmeChallengeListener(challenges: HttpChallenges, next: RequestListener): RequestListener {
  return (req, res) => {
    const url = req.url ?? '';
    if (!url.startsWith(PREFIX) || (req.method !== 'GET' && req.method !== 'HEAD')) return next(req, res);
    const token = url.slice(PREFIX.length).split('?')[0] ?? '';
    if (!/^[A-Za-z0-9_-]{1,256}$/.test(token)) return next(req, res);
    challenges.answerFor(token).then(
      (answer) => {
        if (answer === null) return next(req, res);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : answer);
      },
      () => next(req, res),
    );
  };
}
