import { type Form, form as formSchema, type RuleProblem } from '@wharf/contract';
import { Parser } from 'htmlparser2';

/** An attribute that marks a form as one to collect: present, and not set to "false". */
const isOn = (value: string | undefined) => value !== undefined && value.trim().toLowerCase() !== 'false';

/** Netlify's markers, and Wharf's own, for a form whose posts are collected. */
function isCollected(attributes: Record<string, string>) {
  return isOn(attributes['data-netlify']) || isOn(attributes.netlify) || isOn(attributes['data-wharf']);
}

function honeypotOf(attributes: Record<string, string>) {
  const name =
    attributes['data-wharf-honeypot'] ?? attributes['netlify-honeypot'] ?? attributes['data-netlify-honeypot'];
  return name?.trim() || undefined;
}

/**
 * The forms a page marks for collection, as Netlify finds them: `<form name="contact" data-netlify="true">`,
 * `<form name="contact" netlify>`, or Wharf's `data-wharf`; `netlify-honeypot` (or
 * `data-wharf-honeypot`) names the hidden field bots fill in. Each becomes a stored (db) form, its
 * name kept as the page spells it when it is a slug (`contact-form`: the page posts that name); a
 * marked form without a usable name is reported, with its line, and left out.
 */
export function formsInHtml(html: string, path: string): { forms: Form[]; problems: RuleProblem[] } {
  // Most pages have no form at all: they are not worth a parse.
  if (!/<form/i.test(html)) return { forms: [], problems: [] };
  const forms: Form[] = [];
  const problems: RuleProblem[] = [];
  let line = 1;
  let counted = 0;
  const parser = new Parser({
    onopentag(tag, attributes) {
      if (tag !== 'form' || !isCollected(attributes)) return;
      for (; counted < parser.startIndex; counted++) if (html.charCodeAt(counted) === 10) line++;
      const name = (attributes.name ?? attributes.id ?? '').trim();
      const honeypot = honeypotOf(attributes);
      const parsed = formSchema.safeParse({ type: 'db', name, ...(honeypot ? { honeypot } : {}) });
      if (parsed.success) forms.push(parsed.data);
      else
        problems.push({
          file: path,
          line,
          severity: 'warning',
          message: !name
            ? 'A form marked for collection has no name attribute: it is not collected'
            : parsed.error.issues[0]?.path[0] === 'honeypot'
              ? `The form "${name}" is not collected: its honeypot field "${honeypot}" has other characters than letters, digits and _.:-`
              : `The form "${name}" is not collected: a form name has only letters, digits, hyphens and underscores`,
        });
    },
  });
  parser.end(html);
  return { forms, problems };
}
