/** The smallest valid PNG (1x1 pixel), for upload tests. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** A Windows executable's first bytes (MZ and PE headers): what a disguised upload carries. */
export const EXE = Buffer.concat([
  Buffer.from("MZ"),
  Buffer.alloc(58),
  Buffer.from([0x80, 0, 0, 0]),
  Buffer.alloc(64),
  Buffer.from("PE\0\0"),
  Buffer.alloc(200),
]);
