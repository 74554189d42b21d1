/** What goes into the HTML of a mail: text escaped, so a visitor's value is never markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A time as people read it in a mail: `2025-03-01 14:05 UTC`. */
export function mailTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** An address fit for a header: one mailbox, no spaces, no list or comment characters. */
export function isMailAddress(value: string): boolean {
  return value.length <= 320 && /^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\]+\.[^\s@<>()[\],;:"\\]+$/.test(value);
}

/** The simple HTML page around a mail's body: system fonts, no images, no remote content. */
export function htmlMail(body: string): string {
  return `<!doctype html>
<html><body style="font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1a1b1e">
${body}
</body></html>
`;
}
