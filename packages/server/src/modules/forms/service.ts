import { type Form, newFormNameIssues, type SiteFormInput } from '@wharf/contract';
import { lockingRows } from '../../db/rowLocks.ts';
import type { Executor } from '../../db/schema.ts';
import { httpError } from '../../http/errors.ts';
import { flag, isSet } from '../../lib/json.ts';
import { branchIdsOf, definitionOf, type SiteFormRow, seenBy, siteFormRows } from './queries.ts';

const keyOf = (name: string) => name.toLowerCase();

/** A definition as stored: its fields in one order, so that an unchanged form compares equal. */
function definitionText(form: Form) {
  const { type, name } = form;
  const honeypot = form.honeypot ? { honeypot: form.honeypot } : {};
  return JSON.stringify(
    type === 'email' ? { type, name, recipient: form.recipient, ...honeypot } : { type, name, ...honeypot },
  );
}

const definitionOfInput = (input: SiteFormInput): Form => {
  const { branches: _branches, ...form } = input;
  return form;
};

/** The site's forms, held until the transaction ends: two changes of them follow one another. */
async function lockedSiteForms(trx: Executor, siteId: string) {
  await lockingRows(trx, trx.selectFrom('sites').select('id').where('id', '=', siteId), 'update').execute();
  return siteFormRows(trx, siteId);
}

/**
 * A list people save may keep every name the site has (one found in the HTML as `contact-form`
 * included); a name new to the site is typed in, and must follow spec.md §5's pattern.
 */
function mustNameNewFormsAsTyped(forms: readonly { name: string }[], rows: SiteFormRow[]) {
  const issues = newFormNameIssues(
    forms,
    rows.map((row) => row.name_key),
  );
  const [first] = issues;
  if (first) throw httpError('VALIDATION_FAILED', `${first.field}: ${first.message}`, issues);
}

/** Writes the site's forms as this list, in its order. */
async function writeSiteForms(trx: Executor, siteId: string, rows: Omit<SiteFormRow, 'site_id' | 'position'>[]) {
  await trx.deleteFrom('site_forms').where('site_id', '=', siteId).execute();
  if (rows.length === 0) return;
  await trx
    .insertInto('site_forms')
    .values(rows.map((row, position) => ({ ...row, site_id: siteId, position })))
    .execute();
}

/**
 * Replaces a site's forms. A form whose definition is unchanged keeps its mark of having been found
 * in the HTML; one a person changed is theirs from then on.
 */
export async function replaceSiteForms(trx: Executor, siteId: string, forms: SiteFormInput[]) {
  const rows = await lockedSiteForms(trx, siteId);
  mustNameNewFormsAsTyped(forms, rows);
  const before = new Map(rows.map((row) => [row.name_key, row]));
  await writeSiteForms(
    trx,
    siteId,
    forms.map((input) => {
      const definition = definitionText(definitionOfInput(input));
      const previous = before.get(keyOf(input.name));
      const unchanged = previous !== undefined && previous.definition === definition;
      return {
        name_key: keyOf(input.name),
        definition,
        branch_ids: input.branches ? JSON.stringify(input.branches) : null,
        detected: flag(unchanged && isSet(previous.detected)),
      };
    }),
  );
}

/**
 * Sets the site's forms as these branches see them (`PUT /releases/{id}/forms`, with the branches
 * serving the release). A form named keeps its narrowing, widened to these branches if it was
 * narrowed to others; a new one is for every branch. A form they saw and the list leaves out stops
 * being theirs: narrowed to several, it stays with the others; otherwise it leaves the site.
 */
export async function setFormsSeenBy(trx: Executor, siteId: string, branchIds: string[], forms: Form[]) {
  const rows = await lockedSiteForms(trx, siteId);
  mustNameNewFormsAsTyped(forms, rows);
  const named = new Map(forms.map((form) => [keyOf(form.name), form]));
  const result: SiteFormInput[] = [];
  for (const row of rows) {
    const narrowed = branchIdsOf(row);
    const form = named.get(row.name_key);
    named.delete(row.name_key);
    if (form) {
      const widened = narrowed && !seenBy(row, branchIds) ? [...narrowed, ...branchIds] : narrowed;
      result.push({ ...form, branches: widened });
    } else if (!seenBy(row, branchIds)) result.push({ ...definitionOf(row), branches: narrowed });
    else if (narrowed) {
      const others = narrowed.filter((id) => !branchIds.includes(id));
      if (others.length > 0) result.push({ ...definitionOf(row), branches: others });
    }
  }
  for (const form of named.values()) result.push({ ...form, branches: null });
  await replaceSiteForms(trx, siteId, result);
}

/**
 * Adds what an upload brings to its site's forms: the `.wharf.yml` declarations replace the
 * definitions of the same names (the author's latest word), and forms found in the HTML are added
 * as stored forms when the site has none of that name. Nothing is removed, nor narrowed.
 */
export async function addFormsOfRelease(trx: Executor, siteId: string, found: { declared: Form[]; detected: Form[] }) {
  if (found.declared.length === 0 && found.detected.length === 0) return;
  // In the site's order; new forms go after, as a Map keeps the order of insertion.
  const byKey = new Map((await lockedSiteForms(trx, siteId)).map((row) => [row.name_key, { ...row }]));
  const add = (form: Form, detected: boolean) =>
    byKey.set(keyOf(form.name), {
      site_id: siteId,
      name_key: keyOf(form.name),
      definition: definitionText(form),
      branch_ids: null,
      detected: flag(detected),
      position: byKey.size,
    });
  for (const form of found.declared) {
    const known = byKey.get(keyOf(form.name));
    if (!known) add(form, false);
    else if (known.definition !== definitionText(form))
      Object.assign(known, { definition: definitionText(form), detected: 0 });
  }
  for (const form of found.detected) {
    const known = byKey.get(keyOf(form.name));
    if (!known) add(form, true);
    // The page names its honeypot field: a form declared without one takes it, or bots' posts would be kept.
    else if (form.honeypot && !definitionOf(known).honeypot)
      known.definition = definitionText({ ...definitionOf(known), honeypot: form.honeypot });
  }
  await writeSiteForms(trx, siteId, [...byKey.values()]);
}

/**
 * A deleted branch leaves the narrowing of the site's forms; a form that was narrowed to it alone
 * went with it (no other branch took its posts; its submissions stay).
 */
export async function forgetBranchInForms(trx: Executor, siteId: string, branchId: string) {
  const rows = await lockedSiteForms(trx, siteId);
  const touched = rows.some((row) => branchIdsOf(row)?.includes(branchId));
  if (!touched) return;
  const kept = rows.flatMap((row) => {
    const narrowed = branchIdsOf(row);
    if (!narrowed?.includes(branchId)) return [row];
    const others = narrowed.filter((id) => id !== branchId);
    return others.length > 0 ? [{ ...row, branch_ids: JSON.stringify(others) }] : [];
  });
  await writeSiteForms(trx, siteId, kept);
}
