/** One room of packages/wisent/src importing another (see arrows.mjs). */
export interface Arrow {
  readonly from: string;
  readonly to: string;
  /** From a lower floor (layer) to a higher one. */
  readonly up: boolean;
  /** The imports that make it: `from file -> to file`, under src/. */
  readonly imports: string[];
  /** Whether every import of it is in `test-support/` or `fixtures/`. */
  readonly testSupportOnly: boolean;
}

/** The room of a file under packages/wisent/src/: its first folder (`entries` for src/index.ts). */
export function roomOf(path: string): string;
/** The floor (index in layers.cjs's LAYERS, lowest 0) of a room. */
export function floorOf(room: string): number;
/** Every arrow between the rooms, from dependency-cruiser's output (tests not counted). */
export function arrows(): Arrow[];
