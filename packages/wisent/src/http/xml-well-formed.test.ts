import { XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { ValidationErrors } from "../validation/validation-errors.js";
import { parseXml, toXml, xmlSafeText } from "./xml.js";

/** XML 1.0's Char production: what a well-formed document may hold, and nothing else. */
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

/** One string per class of code point, each class whole where it is small. */
function range(from: number, to: number): string {
  let text = "";
  for (let code = from; code <= to; code++) text += String.fromCharCode(code);
  return text;
}
const CLASSES: [string, string][] = [
  ["C0 controls", range(0x00, 0x1f)],
  ["ASCII", range(0x20, 0x7e)],
  ["DEL and C1 controls", range(0x7f, 0x9f)],
  ["Latin-1", range(0xa0, 0xff)],
  ["BMP letters and symbols", "é€中文😀".slice(0, 4) + range(0x2000, 0x206f)],
  ["lone high surrogates", range(0xd800, 0xd80f)],
  ["lone low surrogates", range(0xdc00, 0xdc0f)],
  ["a low then a high surrogate", "\udc00\ud800"],
  ["a high surrogate at the end", "a\ud800"],
  ["private use", range(0xe000, 0xe00f)],
  ["noncharacters", "\ufdd0\ufdef\ufffe\uffff"],
  ["specials", range(0xfff0, 0xfffd)],
  ["astral pairs", "😀𝄞\u{10ffff}\u{10000}"],
  ["markup", `<a href="x">&amp; ]]> <!-- --> <?pi?> <![CDATA[x]]>'"`],
];

function errorsOf(text: string): ValidationErrors {
  const errors = new ValidationErrors();
  errors.add(text, text);
  return errors;
}

describe("toXml never writes a document that does not parse", () => {
  it.each(CLASSES)("%s in values, keys and error messages", (_name, text) => {
    const docs = [
      toXml({ id: 1, title: text, tags: [text, text], nested: { [text]: text } }, "widget"),
      toXml([{ title: text }], "widget"),
      toXml(errorsOf(text), "widget"),
    ];
    for (const doc of docs) {
      expect(XML_CHARS.test(doc)).toBe(true);
      expect(XMLValidator.validate(doc)).toBe(true);
    }
    // What can be carried comes back as it went in (line ends normalised, as XML does, and
    // trimmed, as the parser does); the rest as U+FFFD.
    const back = (parseXml(docs[0]!) as { title: string }).title;
    expect(back.replace(/\r\n?/g, "\n")).toBe(xmlSafeText(text).replace(/\r\n?/g, "\n").trim());
  });
});
