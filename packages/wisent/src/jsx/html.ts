/**
 * Markup that is safe to send as is: what every JSX element and component renders to, or a
 * trusted string passed through {@link rawHtml}. Anything else a template interpolates (strings,
 * numbers, objects) is escaped; there is no flag to forget.
 */
export class Html {
  /** @internal Made by the JSX runtime and by `rawHtml`; templates never construct one. */
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/**
 * Inserts a trusted string without escaping: the one way to put raw HTML into a template. Never
 * pass it anything a user, a database row or a request parameter could have written.
 *
 * @param trusted - markup you wrote, never data
 * @returns the markup, marked safe
 * @example
 * <>{rawHtml("<!DOCTYPE html>")}<html lang="en">...</html></>
 */
export function rawHtml(trusted: string): Html {
  return new Html(trusted);
}

/** What a template may interpolate: escaped unless it is already {@link Html}. */
export type Child = Html | string | number | bigint | boolean | null | undefined | Child[];

/** A component: typed props in, markup out. */
export type FC<P = Record<string, unknown>> = (props: P & { children?: Child }) => Html | null;
