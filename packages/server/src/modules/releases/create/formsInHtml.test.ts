import { describe, expect, it } from 'vitest';
import { formsInHtml } from './formsInHtml.ts';

describe('forms found in a page', () => {
  it('takes the forms marked as Netlify and Wharf mark them, whatever the case or quoting', () => {
    const html = `<body>
<form name="contact" data-netlify="true" netlify-honeypot="bot-field"></form>
<form name="contact-form2" data-netlify="true"></form>
<FORM NETLIFY NAME=newsletter></FORM>
<form data-wharf id="quote" data-wharf-honeypot="trap"></form>
<form name="search" action="/search"></form>
<form name="off" data-netlify="false"></form>
<!-- <form name="commented" netlify></form> -->
<script>document.write('<form name="scripted" netlify></form>')</script>`;
    expect(formsInHtml(html, 'index.html')).toEqual({
      forms: [
        { type: 'db', name: 'contact', honeypot: 'bot-field' },
        { type: 'db', name: 'contact-form2' },
        { type: 'db', name: 'newsletter' },
        { type: 'db', name: 'quote', honeypot: 'trap' },
      ],
      problems: [],
    });
  });

  it('reports a marked form it cannot take, with the page and the line', () => {
    const html =
      '<p>\n<form netlify></form>\n\n<form netlify name="Sign up!"></form><form netlify name="a" netlify-honeypot="[x]"></form>';
    expect(formsInHtml(html, 'about/index.html').problems).toEqual([
      {
        file: 'about/index.html',
        line: 2,
        severity: 'warning',
        message: 'A form marked for collection has no name attribute: it is not collected',
      },
      {
        file: 'about/index.html',
        line: 4,
        severity: 'warning',
        message: 'The form "Sign up!" is not collected: a form name has only letters, digits, hyphens and underscores',
      },
      {
        file: 'about/index.html',
        line: 4,
        severity: 'warning',
        message:
          'The form "a" is not collected: its honeypot field "[x]" has other characters than letters, digits and _.:-',
      },
    ]);
  });
});
