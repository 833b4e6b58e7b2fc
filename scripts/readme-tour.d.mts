/** The types of readme-tour.mjs's exports, for its test (the runner itself stays plain node). */
export interface TourStep {
  command: string;
  expected: string[];
}
export function sectionSteps(readme: string, heading: string, until: RegExp): TourStep[];
export function tourSteps(readme: string): TourStep[];
export function expectsFailure(step: TourStep): boolean;
export function normalise(line: string): string;
export function missingLines(expected: string[], actual: string): string[];
