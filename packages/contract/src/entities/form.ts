import { z } from 'zod';
import { messages, patterns } from '../messages.ts';
import { email, id, matching, uniqueBy } from '../validation.ts';
import { buildConfig } from './repository.ts';

/**
 * Any form name a site may have: spec.md §5's pattern (letters and underscores) for those people
 * type in, or the slug of one found in an upload's HTML (digits and hyphens too), which a site
 * keeps as it is. What tells them apart is whether the site has the name already: see
 * `newFormNameIssues`, the one rule the console and the server apply to a list of forms.
 */
const formName = matching(patterns.foundFormName);
/** A name a person types in, in `.wharf.yml` or the console: spec.md §5's pattern. */
const typedFormName = matching(patterns.formName);

/** The name of a field people never see and bots fill in: a post that fills it is kept apart as spam. */
const honeypot = matching(/^[A-Za-z0-9_.:-]+$/, 100).describe(
  'A hidden field that people leave empty: a post that fills it is kept apart as spam',
);

const dbFields = {
  type: z.literal('db').describe('Submissions are stored; the console and the API list them'),
  name: formName.describe(
    "What the page posts to (/.wharf/forms/{name}, or its form-name field): letters and underscores for a new name; one the site has (found in an upload's HTML: also digits and hyphens) as it is",
  ),
  honeypot: honeypot.optional(),
};
const emailFields = {
  ...dbFields,
  type: z.literal('email').describe('Submissions are stored and mailed to the recipient'),
  recipient: email.describe('Who gets a mail for each submission'),
};
const dbForm = z.object(dbFields);
const emailForm = z.object(emailFields);

/** A form definition of spec.md §3: type (db or email), name, and for email a recipient. */
export const form = z.discriminatedUnion('type', [dbForm, emailForm], { error: 'Must be db or email' });
export type Form = z.infer<typeof form>;

/**
 * A form as `.wharf.yml` declares it, its name typed by a person: any other key is a mistake worth
 * reporting (a misspelt `recipient`).
 */
const declaredFields = {
  ...dbFields,
  name: typedFormName.describe(
    'Letters and underscores; what the page posts to (/.wharf/forms/{name}, or its form-name field)',
  ),
};
const declaredForm = z.discriminatedUnion(
  'type',
  [z.strictObject(declaredFields), z.strictObject({ ...emailFields, name: declaredFields.name })],
  { error: 'Must be db or email' },
);

/** A list of forms whose names are unique, case aside (spec.md §5). */
const uniqueForms = <T extends { name: string }>(item: z.ZodType<T>) =>
  uniqueBy(z.array(item).max(100, 'At most 100 forms'), (f) => f.name, messages.formNameUnique, 'name');

export const forms = uniqueForms(form);
const declaredForms = uniqueForms(declaredForm);

/** The branches a site's form is narrowed to (their ids); null or absent: every branch of the site. */
const formBranches = z.array(id).max(100).nullable();
const formBranchesInput = z
  .array(id)
  .min(1, 'Name a branch, or none for every branch')
  .max(100)
  .nullable()
  .describe('The ids of the branches that take its posts; null or absent: every branch');

/** A form of a site as it is saved: a definition, and the branches it is narrowed to, if any. */
export const siteFormInput = z.discriminatedUnion('type', [
  dbForm.extend({ branches: formBranchesInput.optional() }),
  emailForm.extend({ branches: formBranchesInput.optional() }),
]);
export type SiteFormInput = z.infer<typeof siteFormInput>;

const siteFormExtras = {
  branches: formBranches,
  /** Found in the HTML of an upload (`data-netlify`, `netlify` or `data-wharf` on a named form), not declared by a person. */
  detected: z.boolean(),
};

/**
 * A form of a site: it belongs to the site, not to a release, so it survives every deploy. Uploads
 * add the forms their `.wharf.yml` declares and those found in their HTML; people add, change and
 * remove them in the console.
 */
export const siteForm = z.discriminatedUnion('type', [dbForm.extend(siteFormExtras), emailForm.extend(siteFormExtras)]);
export type SiteForm = z.infer<typeof siteForm>;

/**
 * The one rule for the names of a list of forms a person saves: a name the site has already (case
 * aside) is kept as it is, so that a form found in the HTML as `contact-form` saves unchanged; a new
 * one is typed in, and follows spec.md §5's pattern with its message.
 */
export function newFormNameIssues(list: readonly { name: string }[], siteNames: Iterable<string>) {
  const known = new Set([...siteNames].map((name) => name.toLowerCase()));
  return list.flatMap((form, index) => {
    if (known.has(form.name.toLowerCase())) return [];
    const typed = typedFormName.safeParse(form.name);
    return typed.error
      ? typed.error.issues.slice(0, 1).map(({ message }) => ({ field: `forms.${index}.name`, message }))
      : [];
  });
}

export const formsBody = z.object({ forms });
export const siteFormsBody = z.object({ forms: uniqueForms(siteFormInput) });

/**
 * `.wharf.yml` at the root of a release: the one schema that validates it at upload, and whose JSON
 * Schema (`wharf.schema.json`) editors read.
 */
export const releaseConfig = z
  .strictObject({
    forms: declaredForms
      .optional()
      .describe('Forms of the site this release declares; they are added to the site at upload'),
    build: buildConfig.optional(),
  })
  .describe('Wharf release configuration (.wharf.yml at the root of the uploaded folder)');
export type ReleaseConfig = z.infer<typeof releaseConfig>;
