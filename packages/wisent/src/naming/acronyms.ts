/**
 * Acronyms that casing keeps fully upper-case when they are not the first word
 * (`user_id` -> `userID`, `api_key` -> `APIKey`). Based on flect's `acronyms.go`, minus entries
 * that are also everyday English words (`IDS`, `POTS`, `SNAP`, `RIP`, ...) because a resource named
 * `snaps` must not become `editSNAPPath`; plus a few web acronyms flect lacks (XML, CSS, DB, ...).
 */
export const ACRONYM_LIST = [
  "ACL",
  "AES",
  "API",
  "ARP",
  "CIDR",
  "CLI",
  "CPU",
  "CSRF",
  "CSS",
  "CSV",
  "DB",
  "DHCP",
  "DNS",
  "EOF",
  "FTP",
  "GUID",
  "HTML",
  "HTTP",
  "HTTPS",
  "ICMP",
  "IMAP",
  "IP",
  "ID",
  "JSON",
  "JWT",
  "LAN",
  "OIDC",
  "OK",
  "PDF",
  "RAM",
  "RFC",
  "ROM",
  "RPC",
  "SMTP",
  "SQL",
  "SSH",
  "SSL",
  "SSID",
  "TCP",
  "TLS",
  "TTL",
  "UDP",
  "UI",
  "URI",
  "URL",
  "USB",
  "UTF8",
  "UUID",
  "VM",
  "VPN",
  "WAN",
  "WWW",
  "XML",
  "XSS",
] as const;

/** One of the known acronyms, as a type (typed route names use it). */
export type Acronym = (typeof ACRONYM_LIST)[number];

const ACRONYMS: ReadonlySet<string> = new Set(ACRONYM_LIST);

/**
 * Whether `word` (any case) is a known acronym.
 * @example isAcronym("id") // true
 */
export function isAcronym(word: string): boolean {
  return ACRONYMS.has(word.toUpperCase());
}
