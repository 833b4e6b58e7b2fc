const SPECIAL = /[&<>"']/;

/**
 * `&`, `<`, `>`, `"` and `'` as entities, the same five and the same entities as hono/jsx (so the
 * shop's markup is byte-for-byte what it was). Safe in text and in double-quoted attributes.
 *
 * @param text - the text to escape
 * @returns the text with the five characters as entities
 * @example
 * escapeHtml(`<a href="x">`); // "&lt;a href=&quot;x&quot;&gt;"
 */
export function escapeHtml(text: string): string {
  // Most text has nothing to escape: no new string. Short text (labels, ids) is scanned by hand,
  // cheaper than a regex call; longer text by the regex (bench/render).
  let first = -1;
  if (text.length < 32) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c <= 62 && (c === 38 || c === 60 || c === 62 || c === 34 || c === 39)) {
        first = i;
        break;
      }
    }
  } else {
    first = text.search(SPECIAL);
  }
  if (first === -1) return text;
  let out = text.slice(0, first);
  let last = first;
  for (let i = first; i < text.length; i++) {
    let entity: string;
    switch (text.charCodeAt(i)) {
      case 38:
        entity = "&amp;";
        break;
      case 60:
        entity = "&lt;";
        break;
      case 62:
        entity = "&gt;";
        break;
      case 34:
        entity = "&quot;";
        break;
      case 39:
        entity = "&#39;";
        break;
      default:
        continue;
    }
    out += text.slice(last, i) + entity;
    last = i + 1;
  }
  return out + text.slice(last);
}
