const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * `YYYY-MM-DDTHH:mm:ss.sssZ` of epoch milliseconds, for the years 0000-9999 (else undefined:
 * Date's own formatting handles the extended years). Days to a civil date: H. Hinnant's algorithm.
 * @param time - epoch milliseconds
 * @returns the ISO text, or undefined outside the years 0000-9999
 * @example formatIso(0); // "1970-01-01T00:00:00.000Z"
 */
export function formatIso(time: number): string | undefined {
  if (!Number.isFinite(time)) return undefined;
  const days = Math.floor(time / 86_400_000);
  let rest = time - days * 86_400_000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return undefined;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  const yyyy = year < 1000 ? `${year}`.padStart(4, "0") : `${year}`;
  return `${yyyy}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(millis)}Z`;
}
