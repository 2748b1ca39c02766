/**
 * Text as XML 1.0 character data or attribute value. XML 1.0 has no way to write most control
 * characters (U+0000-U+001F but tab, newline and carriage return; U+FFFE, U+FFFF; lone surrogates),
 * not even as character references: one of them in a stored string made the whole file refused by
 * every XML reader. They are replaced by U+FFFD, so a reader shows that something was there.
 * A carriage return is written as a character reference: a reader turns a raw one (and CR LF) into
 * a newline, so the text would read back changed.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
};

export const xmlText = (text: string): string =>
  text.replace(NOT_XML_CHAR, '\uFFFD').replace(/[&<>"'\r]/g, (char) => ESCAPES[char]!);

/** Text as an attribute value: a reader also turns a raw tab or newline there into a space. */
export const xmlAttribute = (text: string): string =>
  xmlText(text).replace(/[\t\n]/g, (char) => (char === '\t' ? '&#9;' : '&#10;'));
