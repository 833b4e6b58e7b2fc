import { describe, expect, it } from "vitest";
import { urlStandardAcceptsHost } from "./url-host.js";

describe("urlStandardAcceptsHost", () => {
  it.each([
    ["shop.example", true],
    ["shop.example:3000", true],
    ["127.0.0.1", true],
    ["[::1]:3000", true],
    ["1.2.3.256", false],
    // Punycode labels: valid ones, upper case too, with and without a port.
    ["xn--mnchen-3ya.de", true],
    ["XN--MNCHEN-3YA.DE:3000", true],
    ["xn--bcher-kva.example", true],
    ["xn--ls8h.la", true],
    ["xn--e1afmkfd.xn--p1ai", true],
    ["xn--55qx5d.cn", true],
    // Not Punycode: a digit sequence cut short, nothing at all, one that decodes to ASCII only,
    // one that decodes to a control character (U+0080).
    ["xn--zz", false],
    ["XN--ZZ", false],
    ["a.xn--zz.com", false],
    ["a.xn--", false],
    ["xn--", false],
    ["xn--abc-", false],
    ["xn--a.com", false],
  ])("%s -> %s", (host, accepted) => expect(urlStandardAcceptsHost(host)).toBe(accepted));
});
