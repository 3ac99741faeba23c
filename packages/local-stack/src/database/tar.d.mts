export type TarEntry =
  | { type: "file"; name: string; mode: number; data: Uint8Array }
  | { type: "directory"; name: string; mode: number };

export declare function untar(bytes: Uint8Array): TarEntry[];

export declare function extractTar(chunks: AsyncIterable<Buffer>, dir: string): Promise<void>;
