/**
 * Saves a blob under a file name through a temporary object URL and a download link: the
 * way that works in every current browser without a dependency.
 */
export function saveBlobAsFile(blob: Blob, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  doc.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoke later: some browsers start reading the URL only after click() returned.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
