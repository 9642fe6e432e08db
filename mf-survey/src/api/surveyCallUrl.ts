/** A call URL from the page config with `{formHandle}` replaced (URL-encoded). */
export function surveyCallUrl(template: string, formHandle: string): string {
  return template.replaceAll('{formHandle}', encodeURIComponent(formHandle));
}
