import type { ExportedFile } from "./transfer-protocol.js";

/** Saves bytes made on the device as a download, as a link with `download` would. */
export function saveFile(file: ExportedFile): void {
  const url = URL.createObjectURL(new Blob([file.data as Uint8Array<ArrayBuffer>], { type: file.mime }));
  const link = document.createElement("a");
  link.href = url;
  link.download = file.name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference to the bytes once it starts.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
