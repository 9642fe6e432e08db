/** Sets an element's text only when it differs: an unchanged live region is not announced again. */
export function setText(element: Element, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}
