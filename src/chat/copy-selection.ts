/**
 * Copies `text` as a selection: where the Clipboard API is refused (a frame of another origin
 * without `allow="clipboard-write"`, a page on plain http) the reader's click still allows this.
 * Focus goes back where it was.
 */
export function copyBySelection(text: string, root: ParentNode): boolean {
  const back = (root as ShadowRoot).activeElement ?? document.activeElement;
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.style.cssText = 'position:fixed;top:0;opacity:0';
  root.append(area);
  area.focus({ preventScroll: true });
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  (back as HTMLElement | null)?.focus({ preventScroll: true });
  return copied;
}
