/** The types of tour.mjs's exports, for its test (the runner itself stays plain node). */
export interface TourStep {
  command: string;
  expected: string[];
}
export const GUIDE: string;
export function sectionSteps(guide: string, heading: string): TourStep[];
export function tourSteps(guide: string): TourStep[];
export function expectsFailure(step: TourStep): boolean;
export function normalise(line: string): string;
export function missingLines(expected: string[], actual: string): string[];
export const APPS: readonly string[];
export const DATABASES: readonly string[];
export function newestStamp(output: string): number;
