/** What a file's reading may come to, and the error that names a file it cannot read. */

/**
 * A file that is not what its type says, with the reason in this server's own words: fit to show
 * whoever sent it, as a library's message is not (jszip's carries its documentation's address).
 */
export class UnreadableFileError extends Error {
  override readonly name = 'UnreadableFileError';
}

/**
 * The most text a file may come to: 16 MB, or four times the file where that is more. Plain text
 * and HTML come to no more than the file, but a few kinds multiply it: a CSV row repeats every
 * header, a JSON leaf its path, and a PDF or .docx is compressed (a 113 KB .docx held 30 MB of
 * text), so a small upload could otherwise fill the server's memory and the store.
 */
export const textLimit = (bytes: Uint8Array) => Math.max(16 * 2 ** 20, 4 * bytes.length);

/** Counts text as a reader produces it, refusing the file as soon as it passes the limit. */
export class TextBudget {
  private left: number;
  constructor(private readonly limit: number) {
    this.left = limit;
  }
  spend(text: string): string {
    this.left -= text.length;
    if (this.left < 0) {
      throw new UnreadableFileError(
        `its text comes to more than ${Math.round(this.limit / 2 ** 20)} MB`,
      );
    }
    return text;
  }
}
