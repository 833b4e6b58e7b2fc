/** `Accept-Language: de-AT;q=0.5, fr, en;q=0.8` -> `["fr", "en", "de-AT"]` (q=0 dropped). */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      let q = 1;
      for (const param of params) {
        const [key, value] = param.trim().split("=");
        if (key === "q") q = Number.isFinite(Number(value)) ? Number(value) : 0;
      }
      return { tag: tag?.trim() ?? "", q, index };
    })
    .filter(({ tag, q }) => tag !== "" && tag !== "*" && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}

/**
 * The first candidate the app has messages for: exact (case-insensitive), then the same base
 * language (`de-AT` -> `de`, `en` -> `en-US`). Undefined when none matches.
 */
export function matchLanguage(
  candidates: readonly string[],
  supported: readonly string[],
): string | undefined {
  if (candidates.length === 0) return undefined;
  const byLower = new Map(supported.map((language) => [language.toLowerCase(), language]));
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const exact = byLower.get(lower);
    if (exact) return exact;
    const base = lower.split("-")[0]!;
    const sameBase =
      byLower.get(base) ??
      supported.find((language) => language.toLowerCase().split("-")[0] === base);
    if (sameBase) return sameBase;
  }
  return undefined;
}
